/**
 * The proof's red-team answers (bench/fixtures/proof-red-team.ts, rounds one to three, and
 * bench/fixtures/proof-red-team-r4.ts and -r5.ts, rounds four and five: specs a lazy or hostile model could write for the mutation
 * bench's requests, correct ones and controls) through the whole pipeline: a
 * scripted model answers the same spec on every call (Scribe's, the Critic's retries), and every accepted spec
 * is run against the app and against its mutant, which breaks exactly the asked-for behaviour. An escape is a
 * vacuous answer accepted and green on both. Prints one line per answer, then the totals.
 *
 *   nice -n 15 node --import tsx bench/proof-red-team.ts [answer-id…]
 */
import path from 'node:path';
import { runSpec } from '../src/agents/runner.ts';
import { generateSpec } from '../src/workflow/pipeline.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';
import { bundledRunTarget } from '../test/fixtures/run-target.ts';
import { ANSWERS, answerKind, EXTRA_CASES } from './fixtures/proof-red-team.ts';
import { ROUND4 } from './fixtures/proof-red-team-r4.ts';
import { ROUND5 } from './fixtures/proof-red-team-r5.ts';
import { APPS, CASES, serveApp, snapshot } from './mutation-cases.ts';

interface Row {
  id: string;
  kind: ReturnType<typeof answerKind>;
  accepted: boolean;
  escape: boolean;
  line: string;
}

const only = process.argv.slice(2);
const cases = [...CASES, ...EXTRA_CASES];
const files = new Map(Object.entries(APPS).map(([name, app]) => [name, snapshot(app.dir)]));
const rows: Row[] = [];
for (const answer of [...ANSWERS, ...ROUND4, ...ROUND5].filter((a) => only.length === 0 || only.includes(a.id))) {
  const c = cases.find((k) => k.name === answer.case);
  if (!c) throw new Error(`${answer.id}: no case ${answer.case}`);
  const app = await serveApp(files.get(c.app)!);
  const mutant = await serveApp(files.get(c.app)!, c.mutant);
  const project = makeScribeProject({ 'generation.max_critic_rejections': answer.rejections ?? 1 });
  const fake = await startFakeOpenAI();
  const kind = answerKind(answer);
  let row: Row = { id: answer.id, kind, accepted: false, escape: false, line: '' };
  try {
    fake.reply(...Array.from({ length: 10 }, () => ({ text: fenced(answer.answer) })));
    const env = { ...project.env(fake.url), ...APPS[c.app].account };
    const start = performance.now();
    const generated = await generateSpec({ description: c.request, feature: c.name, url: `${app.url}${c.start}` }, { cwd: project.dir, env }).catch((error: unknown) => ({ error: error as Error }));
    const took = `calls=${fake.requests.length} ${((performance.now() - start) / 1000).toFixed(1)} s`;
    if ('error' in generated) row = { ...row, line: `THREW ${took} ${generated.error.message}` };
    else if (!generated.document.success || !generated.document.testPath) row = { ...row, line: `refused  ${took} ${(generated.document.error ?? '').slice(0, 140)}` };
    else {
      const specPath = path.join(project.dir, generated.document.testPath);
      const run = async (baseURL: string) => (await runSpec({ specPath, baseURL, cwd: project.dir, env, ...bundledRunTarget() })).classification;
      const onApp = await run(app.url);
      const onMutant = await run(mutant.url);
      const escape = kind === 'vacuous' && onApp === 'pass' && onMutant === 'pass';
      row = { ...row, accepted: true, escape, line: `ACCEPTED ${took} proof=${generated.document.runner?.proof?.verdict ?? '-'} app=${onApp} mutant=${onMutant}${escape ? ' *** ESCAPE ***' : ''}` };
    }
  } finally {
    project.remove();
    await fake.close();
    await app.close();
    await mutant.close();
  }
  rows.push(row);
  console.log(`${answer.id.padEnd(34)} ${kind.padEnd(8)} ${row.line}`);
}

const of = (kind: Row['kind']) => rows.filter((r) => r.kind === kind);
console.log('');
console.log(`vacuous answers: ${of('vacuous').length}; refused ${of('vacuous').filter((r) => !r.accepted).length}; accepted and killed by the mutant ${of('vacuous').filter((r) => r.accepted && !r.escape).length}; escapes (accepted, green on the app and the mutant) ${of('vacuous').filter((r) => r.escape).length}`);
console.log(`escapes: ${of('vacuous').filter((r) => r.escape).map((r) => r.id).join(', ') || 'none'}`);
console.log(`correct answers accepted: ${of('good').filter((r) => r.accepted).length}/${of('good').length}; controls: ${of('control').map((r) => `${r.id} ${r.accepted ? 'accepted' : 'refused'}`).join(', ')}`);
