/**
 * The hostile-run corpus (test/fixtures/hostile-run) through the whole pipeline with the gate on: a
 * scripted model on 127.0.0.1 answers each spec on every attempt (Scribe's and the Medic's), and
 * `generateSpec` (what `scribe generate` runs) works against the demo app with secrets in its
 * environment. For each spec: the layer that stopped it (the gate's rules that refused it, else the
 * contained run), and every host effect test/fixtures/hostile-run.ts looks for, plus host file text or a
 * secret in any request to the model.
 *
 *   node --import tsx bench/hostile-run-pipeline.ts [name-filter…]   (specs whose name contains any filter)
 */
import { generateSpec } from '../src/workflow/pipeline.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { plantProjectSecret, PROJECT_SECRET, SECRETS, startHostileHost } from '../test/fixtures/hostile-run.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';

const filters = process.argv.slice(2);
const host = await startHostileHost();
const rows: Array<{ spec: string; gate_on: string; accepted: boolean; effects: string[] }> = [];
try {
  const names = host.specs().map((spec) => spec.name).filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)));
  for (const name of names) {
    host.reset();
    const fake = await startFakeOpenAI();
    const project = makeScribeProject();
    plantProjectSecret(project.dir);
    const spec = host.specs(project.dir).find((s) => s.name === name)!;
    try {
      // Enough answers for every attempt of Scribe and the Medic: the same spec each time.
      fake.reply(...Array.from({ length: 8 }, () => ({ text: fenced(spec.text) })));
      const env = { ...project.env(fake.url), ...SECRETS, E2E_USERNAME: host.env.E2E_USERNAME, E2E_PASSWORD: host.env.E2E_PASSWORD };
      const { document } = await generateSpec({ description: 'log in with valid credentials and see the dashboard', feature: 'login', url: `${host.appUrl}/login` }, { cwd: project.dir, env });
      const toModel = JSON.stringify(fake.requests.map((r) => r.body));
      const effects = [
        ...(document.runner ? host.effects(document.runner) : host.effects({ status: 'error', classification: 'test_bug', duration_ms: 0, error_message: null, error_line: null, screenshots: [], console_errors: [] })),
        ...(toModel.includes(PROJECT_SECRET) ? ["the project's .env text in a model request"] : []),
        ...Object.entries(SECRETS).filter(([, value]) => toModel.includes(value)).map(([name]) => `${name} in a model request`),
      ];
      const rules = [...new Set(document.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.rule))];
      const gateOn = document.runner ? `ran contained (${document.runner.classification}): ${spec.containedBy}` : rules.length > 0 ? `gate: ${rules.join(', ')}` : `not run: ${(document.error ?? '').slice(0, 80)}`;
      rows.push({ spec: spec.name, gate_on: gateOn, accepted: document.success, effects });
    } finally {
      project.remove();
      await fake.close();
    }
    process.stderr.write(`\r${rows.length}/${names.length}`);
  }
  process.stderr.write('\n');
  console.log(JSON.stringify({ specs: rows.length, with_effects: rows.filter((r) => r.effects.length > 0).length, rows }, null, 2));
} finally {
  await host.close();
}
