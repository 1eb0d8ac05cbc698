/**
 * What `scribe report` shows, gathered from what Scribe keeps: the statistics log (one generation's
 * events by its id), the provenance records beside the specs (the request, the spec, the run and its
 * screenshots), the batches (batches.jsonl) and the suite heals (heals.jsonl).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { HEALS_FILE } from '../heal/suite.ts';
import { HealRecord } from '../heal/result.ts';
import { StatsLog } from '../stats/log.ts';
import type { StatsEvent } from '../stats/events.ts';
import { localPath, type PathRoots } from '../store/portable-path.ts';
import { Provenance } from '../store/spec-files.ts';
import { readBatches, type BatchResult } from '../workflow/batch.ts';

export interface GenerationView {
  id: string;
  started: string;
  ended: string;
  request: string | null;
  /** accepted, or why not. */
  verdict: string;
  accepted: boolean;
  attempts: number;
  /** Each validated attempt's error rules, in order. */
  attemptIssues: string[][];
  critic: string[];
  runs: Array<{ status: string; classification: string }>;
  heals: string[];
  tokens: number;
  modelCalls: number;
  durationMs: number;
  spec: { path: string; code: string; screenshots: string[]; traces: string[] } | null;
}

export interface ReportData {
  generations: GenerationView[];
  batches: BatchResult[];
  heals: HealRecord[];
}

/** `roots` are what a provenance record's paths are relative to (the project, the user's home folder). */
export function gatherReport(home: string, specRoots: readonly string[], roots: PathRoots): ReportData {
  const events = new StatsLog(home).read();
  const provenance = provenanceByGeneration(specRoots);
  const batches = readBatches(home);
  const requests = new Map(batches.flatMap((b) => b.scenarios.flatMap((s) => (s.generation ? [[s.generation, s.request] as const] : []))));
  const byGeneration = new Map<string, StatsEvent[]>();
  for (const event of events) byGeneration.set(event.generation, [...(byGeneration.get(event.generation) ?? []), event]);
  const generations = [...byGeneration.entries()]
    .filter(([, list]) => list.some((e) => e.type === 'success' || e.type === 'give_up'))
    .map(([id, list]) => generationView(id, list, provenance.get(id), requests.get(id), roots));
  return { generations, batches, heals: readHeals(home) };
}

function generationView(id: string, events: StatsEvent[], record: { file: string; provenance: Provenance } | undefined, request: string | undefined, roots: PathRoots): GenerationView {
  const outcome = events.find((e) => e.type === 'success' || e.type === 'give_up');
  const calls = events.filter((e) => e.type === 'model_call');
  const times = events.map((e) => Date.parse(e.time));
  const code = record && existsSync(record.file) ? readFileSync(record.file, 'utf8') : null;
  const screenshots = record?.provenance.runner?.screenshots.map((file) => localPath(file, roots)).filter((file) => existsSync(file)) ?? [];
  return {
    id,
    started: events[0]!.time,
    ended: events.at(-1)!.time,
    request: record?.provenance.request ?? request ?? null,
    verdict: outcome?.type === 'success' ? 'accepted' : outcome?.type === 'give_up' ? `${outcome.reason}: ${outcome.error}` : 'unfinished',
    accepted: outcome?.type === 'success',
    attempts: outcome?.attempts ?? 0,
    attemptIssues: events.flatMap((e) => (e.type === 'validation' ? [e.errors] : [])),
    critic: events.flatMap((e) => (e.type === 'critic_verdict' ? [`${e.status}${e.rules.length > 0 ? ` (${e.rules.join(', ')})` : ''}`] : [])),
    runs: events.flatMap((e) => (e.type === 'runner_outcome' ? [{ status: e.status, classification: e.classification }] : [])),
    heals: events.flatMap((e) => (e.type === 'heal' ? [e.outcome] : [])),
    tokens: calls.reduce((sum, e) => sum + e.tokens.total, 0),
    modelCalls: calls.length,
    durationMs: Math.max(0, Math.max(...times) - Math.min(...times)),
    spec: record && code !== null ? { path: record.file, code, screenshots, traces: record.provenance.runner?.traces?.map((file) => localPath(file, roots)).filter((file) => existsSync(file)) ?? [] } : null,
  };
}

function provenanceByGeneration(roots: readonly string[]): Map<string, { file: string; provenance: Provenance }> {
  const found = new Map<string, { file: string; provenance: Provenance }>();
  for (const root of roots) {
    for (const file of filesUnder(root).filter((f) => f.endsWith('.provenance.json'))) {
      try {
        const provenance = Provenance.parse(JSON.parse(readFileSync(file, 'utf8')));
        const spec = file.replace(/\.provenance\.json$/, '');
        const specFile = ['.spec.ts', '.ts', '.spec.js', '.js'].map((ext) => `${spec}${ext}`).find((candidate) => existsSync(candidate));
        if (specFile) found.set(provenance.generation, { file: specFile, provenance });
      } catch {
        // not a record this Scribe can read: left out of the report
      }
    }
  }
  return found;
}

function readHeals(home: string): HealRecord[] {
  const file = path.join(home, HEALS_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (!line.trim()) return [];
      try {
        const parsed = HealRecord.safeParse(JSON.parse(line));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
}

const SKIPPED = new Set(['node_modules', '.git']);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(full);
    return [full];
  });
}
