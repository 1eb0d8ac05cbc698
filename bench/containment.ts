/**
 * What the containment alone stops: every spec of the two hostile corpora run as model-written code
 * with the allow-list gate bypassed, against the demo app, with secrets in the caller's environment and
 * a canary listener on 127.0.0.1 that is not the app.
 *
 * Every effect test/fixtures/hostile-run.ts looks for counts: any request to the canary, a file on the
 * host, forged evidence, secrets or host file text in the report, a hang.
 * - test/fixtures/hostile (the gate's corpus: processes, files, environment): the layer is read from the
 *   run's evidence.
 * - test/fixtures/hostile-run (the browser, the network, the evidence, the resources): the layer is the
 *   one each spec's header names.
 *
 * Then the added time of containment: a benign spec run plain (the user's own) and contained, alternating.
 *
 *   node --import tsx bench/containment.ts [runs-for-timing=5] [--with-gate-corpus] [--timing-only]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSpec } from '../src/agents/runner.ts';
import { osSandboxAvailable } from '../src/agents/runner/sandbox.ts';
import type { RunnerReport } from '../src/contracts.ts';
import { ALLOWED_ENV, startHostileHost } from '../test/fixtures/hostile-run.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';

const HOSTILE = fileURLToPath(new URL('../test/fixtures/hostile/', import.meta.url));
const runs = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 5);
const timingOnly = process.argv.includes('--timing-only');
const withGateCorpus = process.argv.includes('--with-gate-corpus');

const host = await startHostileHost();
const rows: Array<{ spec: string; layer: string; status: string; effects: string[] }> = [];
try {
  if (!timingOnly) {
    const gateCorpus = (withGateCorpus ? readdirSync(HOSTILE) : [])
      .filter((name) => name.endsWith('.spec.ts'))
      .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
      .map((name) => ({ name, text: readFileSync(path.join(HOSTILE, name), 'utf8').replaceAll('127.0.0.1:9', host.canary), containedBy: undefined as string | undefined }));
    const runCorpus = host.specs();
    const all = [...gateCorpus, ...runCorpus];
    for (const spec of all) {
      host.reset();
      const report = await attack(spec.name, spec.text);
      const effects = host.effects(report);
      rows.push({ spec: spec.name, layer: spec.containedBy ?? layerOf(report), status: report.status, effects });
      process.stderr.write(`\r${rows.length}/${all.length}`);
    }
    process.stderr.write('\n');
  }
  const timing = await overhead();
  const escaped = rows.filter((row) => row.effects.length > 0);
  console.log(
    JSON.stringify(
      {
        os_sandbox: osSandboxAvailable(process.env),
        specs: rows.length,
        escaped,
        stopped_by: Object.fromEntries([...new Set(rows.map((r) => r.layer))].map((layer) => [layer, rows.filter((r) => r.layer === layer).length])),
        rows: rows.map((r) => `${r.spec}: ${r.effects.length > 0 ? 'NOT CONTAINED' : r.layer} (${r.status})`),
        timing,
      },
      null,
      2,
    ),
  );
} finally {
  await host.close();
}

async function attack(name: string, text: string): Promise<RunnerReport> {
  return runSpec({ specText: text, fileName: name, baseURL: host.appUrl, cwd: host.project, env: host.env, untrusted: true, allowedEnv: ALLOWED_ENV, ...bundledRunTarget() });
}

/** The gate corpus's layer, from the run's evidence: which refusal the payload met. */
function layerOf(report: RunnerReport): string {
  const evidence = `${report.error_message ?? ''}\n${report.segment?.content ?? ''}`;
  if (/ERR_ACCESS_DENIED|Access to this API has been restricted|executable doesn't exist/.test(evidence)) return 'permission model';
  if (evidence.includes('ERR_BLOCKED_BY_ADMINISTRATOR')) return 'browser policy';
  if (evidence.includes('Scribe blocked')) return 'browser routing';
  if (/ECONNREFUSED|ENETUNREACH|ERR_CONNECTION_REFUSED|ERR_ADDRESS_UNREACHABLE|ERR_NAME_NOT_RESOLVED/.test(evidence)) return 'app-only network';
  if (/EROFS|read-only file system/i.test(evidence)) return 'OS sandbox';
  return report.status === 'pass' ? 'no effect' : 'failed before its payload';
}

/** A benign spec run plain (the user's own) and contained, `runs` times each, alternating: medians in ms. */
async function overhead(): Promise<{ runs: number; plain_ms: number; contained_ms: number; added_percent: number }> {
  const benign = `import { test, expect } from '@playwright/test';
test('sees the login page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-button')).toBeVisible();
});
`;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const time = async (untrusted: boolean) => {
    const started = performance.now();
    const report = await runSpec({ specText: benign, fileName: 'benign.spec.ts', baseURL: host.appUrl, cwd: host.project, env: host.env, untrusted, allowedEnv: ALLOWED_ENV, ...bundledRunTarget() });
    if (report.status !== 'pass') throw new Error(`the benign spec did not pass: ${report.error_message}`);
    return performance.now() - started;
  };
  const plain: number[] = [];
  const contained: number[] = [];
  for (let i = 0; i < runs; i++) {
    plain.push(await time(false));
    contained.push(await time(true));
  }
  const [p, c] = [median(plain), median(contained)];
  return { runs, plain_ms: Math.round(p), contained_ms: Math.round(c), added_percent: Math.round(((c - p) / p) * 1000) / 10 };
}
