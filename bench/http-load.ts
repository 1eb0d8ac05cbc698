/**
 * How many concurrent requests `scribe serve` accepts and queues on this machine without an error.
 *
 * Starts the real server (bin/scribe.js serve, its own process) on 127.0.0.1 with a scripted model
 * (test/fixtures/fake-openai.ts) and a queue limit high enough that the machine, not agents/server.yaml,
 * is what gives out. Then fires bursts of concurrent POST /v1/generate (run: false), doubling from 250,
 * and stops at the first burst with any answer other than 202 or any connection error, at 16,000, or
 * after a burst slower than 30 s. Jobs meanwhile run (concurrency from the bundled server.yaml) and the
 * rest wait; SIGTERM ends the server, failing the queued ones.
 *
 *   npx tsx bench/http-load.ts
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { DEFAULT_SERVER_PATH, loadServerConfig } from '../src/config/server.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { chatty, GOOD_SPEC } from '../test/fixtures/model-answers.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';

const FIRST_BURST = 250;
const LAST_BURST = 16_000;
const SLOWEST_BURST_MS = 30_000;
const TOKEN = 'bench-token';
const BIN = fileURLToPath(new URL('../bin/scribe.js', import.meta.url));

interface Burst {
  size: number;
  accepted: number;
  failures: Map<string, number>;
  ms: number;
  p50: number;
  p99: number;
}

const fake = await startFakeOpenAI();
const project = makeScribeProject();
const settings = parseDocument(readFileSync(DEFAULT_SERVER_PATH, 'utf8'));
settings.setIn(['jobs', 'max_queued'], 1_000_000);
settings.setIn(['shutdown', 'grace_ms'], 2000);
writeFileSync(path.join(project.dir, 'agents', 'server.yaml'), settings.toString());
// Enough scripted answers for every job that gets to run while the bench goes on.
fake.reply(...Array.from({ length: 5000 }, () => ({ text: chatty(GOOD_SPEC) })));

const server = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: project.dir, env: project.env(fake.url, { SCRIBE_API_TOKEN: TOKEN }), stdio: ['ignore', 'pipe', 'inherit'] });
const exited = once(server, 'exit');
const url = await new Promise<string>((resolve, reject) => {
  const lines = createInterface({ input: server.stdout });
  lines.on('line', (line) => {
    const entry = JSON.parse(line) as { msg: string; url?: string };
    if (entry.msg === 'listening') resolve(entry.url!);
  });
  void exited.then(() => reject(new Error('scribe serve exited before listening')));
});

const bursts: Burst[] = [];
try {
  let sequence = 0;
  for (let size = FIRST_BURST; size <= LAST_BURST; size *= 2) {
    const burst = await fire(url, size, () => sequence++);
    bursts.push(burst);
    const failures = [...burst.failures].map(([what, n]) => `${n}× ${what}`).join(', ');
    console.log(`${String(size).padStart(6)} concurrent: ${burst.accepted} accepted in ${burst.ms} ms (p50 ${burst.p50} ms, p99 ${burst.p99} ms)${failures ? `; ${failures}` : ''}`);
    if (burst.failures.size > 0 || burst.ms > SLOWEST_BURST_MS) break;
  }
  const health = (await (await fetch(`${url}/healthz`)).json()) as { queued: number; running: number };
  console.log(`queue after the bursts: ${health.queued} waiting, ${health.running} running`);
} finally {
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
  await fake.close();
  project.remove();
}

const clean = bursts.filter((b) => b.failures.size === 0);
const best = clean.at(-1);
const { jobs } = loadServerConfig();
console.log(
  best
    ? `\nlargest burst accepted and queued without error: ${best.size} concurrent requests (all 202, in ${best.ms} ms) — job concurrency ${jobs.concurrency}; the bundled max_queued (${jobs.max_queued}) answers 429 long before that.`
    : '\nno burst was accepted without error',
);

/** `size` concurrent POSTs, each its own request text so each job has its own spec path. */
async function fire(base: string, size: number, next: () => number): Promise<Burst> {
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: size }, async () => {
      const begin = performance.now();
      try {
        const response = await fetch(`${base}/v1/generate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ description: `search for item ${next()} and see it in the results`, run: false }),
        });
        await response.arrayBuffer();
        return { outcome: response.status === 202 ? 'ok' : `HTTP ${response.status}`, ms: performance.now() - begin };
      } catch (error) {
        const cause = (error as Error & { cause?: { code?: string } }).cause;
        return { outcome: cause?.code ?? (error as Error).message, ms: performance.now() - begin };
      }
    }),
  );
  const failures = new Map<string, number>();
  for (const { outcome } of outcomes) if (outcome !== 'ok') failures.set(outcome, (failures.get(outcome) ?? 0) + 1);
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!);
  return { size, accepted: size - [...failures.values()].reduce((a, b) => a + b, 0), failures, ms: Math.round(performance.now() - started), p50: at(0.5), p99: at(0.99) };
}
