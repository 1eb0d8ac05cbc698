/**
 * Peak memory of `scribe serve` with 4 generation jobs running at once: the real server (bin/scribe.js
 * serve, its own process, job concurrency 4) with the offline provider, each job exploring, validating,
 * type-checking and running its spec against the demo app in Scribe's browser. Samples every 100 ms the
 * server's peak resident memory (VmHWM) and the proportional memory (PSS: shared pages split between the
 * processes sharing them) of its whole process tree (the native type checkers, the Runner's Playwright
 * processes, Chromium).
 *
 *   node --import tsx bench/serve-memory.ts
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { DEFAULT_SERVER_PATH } from '../src/config/server.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';

const JOBS = 4;
const TOKEN = 'bench-token';
const BIN = fileURLToPath(new URL('../bin/scribe.js', import.meta.url));

const app = await startDemoApp();
const project = mkdtempSync(path.join(tmpdir(), 'scribe-serve-memory-'));
mkdirSync(path.join(project, 'agents'));
const settings = parseDocument(readFileSync(DEFAULT_SERVER_PATH, 'utf8'));
settings.setIn(['jobs', 'concurrency'], JOBS);
writeFileSync(path.join(project, 'agents', 'server.yaml'), settings.toString());
const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', SCRIBE_API_TOKEN: TOKEN, SCRIBE_HOME: path.join(project, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };

const server = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: project, env, stdio: ['ignore', 'pipe', 'inherit'] });
const exited = once(server, 'exit');
const url = await new Promise<string>((resolve, reject) => {
  createInterface({ input: server.stdout! }).on('line', (line) => {
    const entry = JSON.parse(line) as { msg: string; url?: string };
    if (entry.msg === 'listening') resolve(entry.url!);
  });
  void exited.then(() => reject(new Error('scribe serve exited before listening')));
});

let serverPeakMb = 0;
let treePeakMb = 0;
const sampler = setInterval(() => {
  serverPeakMb = Math.max(serverPeakMb, statusKb(server.pid!, 'VmHWM') / 1024);
  treePeakMb = Math.max(treePeakMb, [server.pid!, ...descendants(server.pid!)].reduce((sum, pid) => sum + pssKb(pid), 0) / 1024);
}, 100);

try {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: JOBS }, async (_, i) => {
      const body = { description: 'log in with valid credentials and see the dashboard', feature: `memory-${i}`, url: `${app.url}/login` };
      const response = await fetch(`${url}/v1/generate`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (response.status !== 202) throw new Error(`POST /v1/generate answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    }),
  );
  const ended = await Promise.all(ids.map((id) => finished(id, headers)));
  const seconds = (performance.now() - started) / 1000;
  console.log(`${JOBS} jobs at once (job concurrency ${JOBS}), offline provider, demo app: ${ended.filter((s) => s === 'done').length} done in ${seconds.toFixed(1)} s`);
  console.log(`peak RSS of the scribe serve process          ${serverPeakMb.toFixed(0)} MB`);
  console.log(`peak PSS of its whole process tree            ${treePeakMb.toFixed(0)} MB`);
} finally {
  clearInterval(sampler);
  server.kill('SIGTERM');
  await exited;
  await app.close();
  rmSync(project, { recursive: true, force: true });
}

async function finished(id: string, headers: Record<string, string>): Promise<string> {
  for (;;) {
    const job = (await (await fetch(`${url}/v1/jobs/${id}`, { headers })).json()) as { status: string; error?: string };
    if (job.status === 'done' || job.status === 'failed') {
      if (job.status === 'failed') console.log(`job ${id} failed: ${job.error}`);
      return job.status;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function statusKb(pid: number, field: string): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** A process's proportional set size: its private pages plus its share of the pages it shares. */
function pssKb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Every live process under pid (from /proc: each process's parent). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]));
    } catch {
      // ended meanwhile
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, p] of parents) if (p === parent) found.push(child), visit(child);
  };
  visit(pid);
  return found;
}
