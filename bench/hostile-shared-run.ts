/**
 * What sharing one contained run saves the hostile-run test (test/agents/runner-hostile.test.ts): the
 * corpus's network attacks (its SHARED_RUN) run one spec per contained run, then all in one run
 * (test/fixtures/hostile-run.ts oneSpecFileOf). Prints the wall time and the CPU seconds of each way (of the
 * processes it started), each spec's status, and the effects on the host (both must be none).
 *
 *   nice -n 15 node --import tsx bench/hostile-shared-run.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { runSpec } from '../src/agents/runner.ts';
import type { RunnerConfig } from '../src/config/runner.ts';
import type { RunnerReport } from '../src/contracts.ts';
import { ALLOWED_ENV, hostileRunConfig, oneSpecFileOf, SHARED_RUN, sharedRunConfig, startHostileHost, type HostileHost } from '../test/fixtures/hostile-run.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';

const CLOCK_TICKS = 100;

/** Each process's parent and CPU ticks so far (user + system), by "pid start-time" (a pid may be reused). */
function processTable(): Map<string, { parent: number; pid: number; ticks: number }> {
  const table = new Map<string, { parent: number; pid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // After the command's name: state, ppid (1st, 2nd), … utime, stime (12th, 13th), … starttime (20th).
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    table.set(`${entry} ${fields[19]}`, { pid: Number(entry), parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return table;
}

/**
 * The CPU seconds of every process this one starts while `work` runs (Playwright, the sandbox, Chromium, which
 * are not all waited for, so the kernel's per-child totals miss them), sampled every 100 ms from /proc: a
 * process's last 100 ms may be missed, so the figure is a floor.
 */
async function childCpuSeconds<T>(work: () => Promise<T>): Promise<{ value: T; cpu_s: number }> {
  const seen = new Map<string, number>();
  const sample = () => {
    const table = processTable();
    const byPid = new Map([...table.values()].map((row) => [row.pid, row]));
    const descends = (pid: number): boolean => {
      for (let row = byPid.get(pid); row; row = byPid.get(row.parent)) if (row.parent === process.pid) return true;
      return false;
    };
    for (const [key, row] of table) if (descends(row.pid)) seen.set(key, row.ticks);
  };
  const timer = setInterval(sample, 100);
  try {
    const value = await work();
    sample();
    return { value, cpu_s: Math.round(([...seen.values()].reduce((sum, ticks) => sum + ticks, 0) / CLOCK_TICKS) * 10) / 10 };
  } finally {
    clearInterval(timer);
  }
}

async function measured(host: HostileHost, runs: Array<{ name: string; text: string; config: RunnerConfig }>): Promise<{ wall_s: number; cpu_s: number; reports: RunnerReport[]; effects: string[] }> {
  const wall = performance.now();
  const reports: RunnerReport[] = [];
  const effects: string[] = [];
  const { cpu_s } = await childCpuSeconds(async () => {
    for (const run of runs) {
      host.reset();
      const report = await runSpec({ specText: run.text, fileName: run.name, baseURL: host.appUrl, cwd: host.project, env: host.env, untrusted: true, allowedEnv: ALLOWED_ENV, ...bundledRunTarget(run.config) });
      reports.push(report);
      effects.push(...host.effects(report).map((effect) => `${run.name}: ${effect}`));
    }
  });
  return { wall_s: Math.round((performance.now() - wall) / 100) / 10, cpu_s, reports, effects };
}

const config = hostileRunConfig();
const host = await startHostileHost();
try {
  const specs = host.specs().filter((spec) => SHARED_RUN.includes(spec.name));
  const alone = await measured(host, specs.map((spec) => ({ ...spec, config })));
  const shared = await measured(host, [{ name: 'network-attacks.spec.ts', text: oneSpecFileOf(specs), config: sharedRunConfig(config, specs.length) }]);
  console.log(
    JSON.stringify(
      {
        specs: specs.length,
        load_average: loadavg().map((value) => Math.round(value * 10) / 10),
        one_run_each: { wall_s: alone.wall_s, cpu_s: alone.cpu_s, statuses: alone.reports.map((report, index) => `${specs[index]!.name}: ${report.status}`), effects: alone.effects },
        one_shared_run: { wall_s: shared.wall_s, cpu_s: shared.cpu_s, status: shared.reports[0]!.status, tests: shared.reports[0]!.tests?.map((test) => `${test.title.split(' › ')[0]}: ${test.status}`), effects: shared.effects },
      },
      null,
      2,
    ),
  );
} finally {
  await host.close();
}
