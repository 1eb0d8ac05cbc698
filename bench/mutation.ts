/**
 * The mutation bench: does an accepted spec prove the request? Ten requests over three fixture apps
 * shaped like users' apps (a shop behind a login with several pages, the demo app's login, search and
 * todos, a newsletter page with no test ids). Each request has a mutant of its app that breaks exactly
 * the asked-for behaviour (the fixture server serves the app with one substitution in one file). Each
 * request is generated three ways: a scripted good answer, a scripted vacuous one (what a lazy or hostile
 * model writes: it acts, then asserts what the page showed all along), and the offline generator. Every
 * accepted spec is then run with Playwright against the app (it must pass) and the mutant (it must fail).
 *
 *   nice -n 15 node --import tsx bench/mutation.ts [case-name…]
 *
 * Prints one line per generation and the totals: mutants killed, vacuous answers refused, and the time a
 * generation takes. Each app is read into memory once at the start (an edit to a fixture during the run
 * changes nothing), and a generation that throws is a row with its error, not the end of the bench. Run it
 * from a checkout nobody edits while it runs (`git worktree add`), since the runs load the checkout's code.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { runSpec } from '../src/agents/runner.ts';
import { generateSpec } from '../src/workflow/pipeline.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';
import { median } from './load.mjs';
import { APPS, CASES, serveApp, snapshot } from './mutation-cases.ts';

type Kind = 'good' | 'vacuous' | 'offline';
interface Row {
  case: string;
  kind: Kind;
  accepted: boolean;
  proof: string;
  calls: number;
  onApp?: string;
  onMutant?: string;
  note: string;
  /** The whole generation, proof run included. */
  ms: number;
  crashed?: boolean;
}

const only = process.argv.slice(2);
const rows: Row[] = [];
const files = new Map(Object.entries(APPS).map(([name, app]) => [name, snapshot(app.dir)]));
for (const c of CASES.filter((k) => only.length === 0 || only.includes(k.name))) {
  const app = await serveApp(files.get(c.app)!);
  const mutant = await serveApp(files.get(c.app)!, c.mutant);
  try {
    for (const kind of ['good', 'vacuous', 'offline'] as const) {
      // One rejection allowed: the vacuous model answers the same again, and is then kept for review.
      const project = makeScribeProject({ 'generation.max_critic_rejections': 1 });
      // A model of its own per generation: an answer one did not use never reaches the next.
      const fake = await startFakeOpenAI();
      try {
        if (kind !== 'offline') fake.reply(...Array.from({ length: 4 }, () => ({ text: fenced(kind === 'good' ? c.good : c.vacuous) })));
        const env = { ...project.env(fake.url), ...APPS[c.app].account };
        const start = performance.now();
        const generated = await generateSpec(
          { description: c.request, feature: c.name, url: `${app.url}${c.start}`, ...(kind === 'offline' ? { provider: 'offline' as const } : {}) },
          { cwd: project.dir, env },
        ).catch((error: unknown) => ({ error: error as Error }));
        const ms = performance.now() - start;
        if ('error' in generated) {
          rows.push({ case: c.name, kind, accepted: false, proof: '-', calls: fake.requests.length, note: `threw: ${generated.error.message}`, ms, crashed: true });
          console.log(`${c.name.padEnd(20)} ${kind.padEnd(8)} THREW ${generated.error.message}`);
          continue;
        }
        const { document } = generated;
        const row: Row = { case: c.name, kind, accepted: document.success, proof: document.runner?.proof?.verdict ?? '-', calls: fake.requests.length, note: document.success ? '' : (document.error ?? '').slice(0, 110), ms };
        if (document.success && document.testPath) {
          const specPath = path.join(project.dir, document.testPath);
          const run = (baseURL: string) => runSpec({ specPath, baseURL, cwd: project.dir, env, ...bundledRunTarget() });
          row.onApp = (await run(app.url)).classification;
          row.onMutant = (await run(mutant.url)).classification;
        }
        rows.push(row);
        console.log(`${c.name.padEnd(20)} ${kind.padEnd(8)} ${row.accepted ? 'accepted' : 'refused '} proof=${row.proof.padEnd(12)} calls=${row.calls} ${(ms / 1000).toFixed(1)} s ${row.onApp ? `app=${row.onApp} mutant=${row.onMutant}` : row.note}`);
      } finally {
        project.remove();
        await fake.close();
      }
    }
  } finally {
    await app.close();
    await mutant.close();
  }
}

const accepted = rows.filter((r) => r.accepted);
const killed = accepted.filter((r) => r.onApp === 'pass' && r.onMutant !== 'pass');
const vacuous = rows.filter((r) => r.kind === 'vacuous');
const good = rows.filter((r) => r.kind === 'good');
console.log('');
console.log(`cases ${new Set(rows.map((r) => r.case)).size} over ${new Set(CASES.filter((c) => rows.some((r) => r.case === c.name)).map((c) => c.app)).size} apps`);
console.log(`accepted specs: ${accepted.length} (good ${accepted.filter((r) => r.kind === 'good').length}/${good.length}, offline ${accepted.filter((r) => r.kind === 'offline').length}/${rows.filter((r) => r.kind === 'offline').length}, vacuous ${accepted.filter((r) => r.kind === 'vacuous').length}/${vacuous.length})`);
console.log(`mutants killed by accepted specs: ${killed.length}/${accepted.length}`);
console.log(`vacuous answers refused: ${vacuous.filter((r) => !r.accepted).length}/${vacuous.length}`);
console.log(`good answers accepted on one model call: ${good.filter((r) => r.accepted && r.calls === 1).length}/${good.length}`);
console.log(`generations that threw: ${rows.filter((r) => r.crashed).length}`);
const seconds = (list: Row[]) => (list.length === 0 ? '-' : `${(median(list.map((r) => r.ms)) / 1000).toFixed(1)} s`);
console.log(`median generation (proof run included): good ${seconds(good.filter((r) => r.accepted))}, vacuous ${seconds(vacuous)}; the proof run's own share: bench/proof-overhead.ts`);
rmSync(path.join(process.cwd(), '.scribe', 'tmp'), { recursive: true, force: true });
