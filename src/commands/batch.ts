/** `scribe generate --plan FILE [--workers N]`: the plan's scenarios, N at once, with a table at the end. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pc from 'picocolors';
import type { ProviderName } from '../llm/provider.ts';
import { loadProject } from '../project/context.ts';
import { StatsLog } from '../stats/log.ts';
import { generateBatch, planItems, type BatchProgress, type BatchResult } from '../workflow/batch.ts';
import { parsePlan, PlanFileError, type TestPlan } from '../workflow/plan-file.ts';
import { printWarnings, UsageError, type CliContext } from './context.ts';
import { withWebServerInterruptibly } from './serving.ts';
import { createProgress, type Progress } from './progress.ts';

export interface BatchFlags {
  plan: string;
  workers?: string;
  provider?: ProviderName;
  run: boolean;
  json: boolean;
}

export async function runBatch(flags: BatchFlags, ctx: CliContext): Promise<void> {
  const plan = readPlan(flags.plan, ctx.cwd);
  const workers = flags.workers === undefined ? undefined : Number(flags.workers);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1 || workers > 64)) throw new UsageError(`--workers ${flags.workers}: a whole number from 1 to 64`);
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env, provider: flags.provider });
  if (!flags.json) printWarnings(ctx, project.warnings);
  const progress = createProgress(ctx, flags.json);
  const batch = (signal: AbortSignal) =>
    generateBatch({ project, items: planItems(plan), source: flags.plan, workers, stats: StatsLog.at(ctx.env, ctx.cwd), run: flags.run, signal, onProgress: (event) => show(event, progress) });
  let result: BatchResult;
  try {
    result = await withWebServerInterruptibly(project, (note) => progress.info(note), batch);
  } finally {
    progress.stop();
  }
  ctx.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatBatch(result, ctx));
  ctx.exitCode = result.success ? 0 : 1;
}

function readPlan(file: string, cwd: string): TestPlan {
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch {
    throw new UsageError(`--plan ${file}: no such file`);
  }
  try {
    return parsePlan(text, file);
  } catch (error) {
    if (error instanceof PlanFileError) throw new UsageError(`--plan ${error.message}`);
    throw error;
  }
}

/** A scenario's start and end; its stages are not shown (N generations' lines would interleave). */
function show(event: BatchProgress, progress: Progress): void {
  if (event.type === 'stage') return;
  if (event.type === 'started') {
    progress.info(`[${event.index}/${event.total}] worker ${event.worker}: ${event.request}`);
    return;
  }
  const { outcome } = event;
  const line = `[${event.done}/${event.total} done] ${outcome.status}: ${outcome.request}${outcome.error ? ` — ${outcome.error.split('\n')[0]}` : ''}`;
  if (outcome.status === 'failed') progress.fail(line);
  else progress.succeed(line);
}

/** The summary table: one row a scenario, then the batch's numbers. */
export function formatBatch(result: BatchResult, ctx: CliContext): string {
  const c = pc.createColors(ctx.stdout.isTTY === true);
  const rows = result.scenarios.map((s) => [String(s.index), s.status, s.testPath ?? '—', String(s.attempts), `${(s.duration_ms / 1000).toFixed(1)} s`, String(s.tokens), s.request]);
  const header = ['#', 'status', 'spec', 'attempts', 'time', 'tokens', 'request'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  const colour = (status: string) => (status === 'failed' ? c.red : status === 'skipped' ? c.dim : c.green);
  const s = result.summary;
  const rate = s.first_attempt_rate === null ? '—' : `${Math.round(s.first_attempt_rate * 100)}%`;
  return [
    c.bold(line(header)),
    ...rows.map((row) => colour(row[1]!)(line(row))),
    '',
    `${s.scenarios} scenarios: ${s.accepted} accepted, ${s.skipped} skipped (accepted before), ${s.failed} not accepted; ${result.workers} worker${result.workers === 1 ? '' : 's'}, ${(s.duration_ms / 1000).toFixed(1)} s`,
    `first-answer acceptance ${rate}; ${s.tokens} tokens${s.tokens_per_accepted === null ? '' : `, ${s.tokens_per_accepted} per accepted spec`}`,
    '',
  ].join('\n');
}
