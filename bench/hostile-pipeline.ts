/**
 * The whole hostile corpus (test/fixtures/hostile) through the whole pipeline: a scripted model on
 * 127.0.0.1 answers each spec on every attempt, `generateSpec` runs against the demo app with a secret
 * model key in its environment. Counts, over the corpus: markers written on the host, requests carrying
 * the secret to a listener, specs written, host file text in a request to the model, and generations
 * that did not end with the gate's finding at the spec's marked rule.
 *
 *   node --import tsx bench/hostile-pipeline.ts
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSpec } from '../src/workflow/pipeline.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.ts';
import { fenced } from '../test/fixtures/model-answers.ts';
import { makeScribeProject } from '../test/fixtures/scribe-project.ts';

const HOSTILE = fileURLToPath(new URL('../test/fixtures/hostile/', import.meta.url));
const MARKERS = '/tmp/scribe-hostile';
const SECRET = 'sk-hostile-bench-key-6a1e';
const hostText = (existsSync('/etc/hostname') ? readFileSync('/etc/hostname', 'utf8').trim() : '') || hostname();

const app = await startDemoApp();
const seen: string[] = [];
const listener = createServer((req, res) => {
  seen.push(req.url ?? '');
  req.resume().on('end', () => res.end('ok'));
});
await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
const sink = `127.0.0.1:${(listener.address() as AddressInfo).port}`;

const totals = { specs: 0, markers: 0, secret_requests: 0, specs_written: 0, host_text_to_model: 0, not_stopped_by_marked_rule: 0 };
const misses: string[] = [];
try {
  const names = readdirSync(HOSTILE).filter((name) => name.endsWith('.spec.ts')).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  for (const name of names) {
    rmSync(MARKERS, { recursive: true, force: true });
    seen.length = 0;
    // A model of its own per spec: an answer one generation did not use never reaches the next.
    const fake = await startFakeOpenAI();
    const text = readFileSync(path.join(HOSTILE, name), 'utf8').replaceAll('127.0.0.1:9', sink);
    const rules = [...text.matchAll(/\/\/ gate: ([a-z-]+)$/gm)].map((m) => m[1]!);
    const project = makeScribeProject();
    try {
      fake.reply({ text: fenced(text) }, { text: fenced(text) }, { text: fenced(text) });
      const env = { ...project.env(fake.url), OPENAI_API_KEY: SECRET, E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
      const { document } = await generateSpec({ description: 'log in with valid credentials and see the dashboard', feature: 'login', url: `${app.url}/login` }, { cwd: project.dir, env });
      totals.specs++;
      totals.markers += existsSync(MARKERS) ? readdirSync(MARKERS).length : 0;
      totals.secret_requests += seen.filter((url) => url.includes(SECRET)).length;
      totals.specs_written += existsSync(path.join(project.dir, 'generated-tests')) ? 1 : 0;
      const toModel = JSON.stringify(fake.requests.map((r) => r.body));
      totals.host_text_to_model += hostText.length >= 6 && toModel.includes(hostText) ? 1 : 0;
      const found = new Set(document.issues.map((issue) => issue.rule));
      if (document.success || !rules.some((rule) => found.has(rule))) {
        totals.not_stopped_by_marked_rule++;
        misses.push(`${name}: ${document.success ? 'accepted' : `stopped by ${[...found].join(', ')}`}`);
      }
    } finally {
      project.remove();
      await fake.close();
    }
    process.stderr.write(`\r${totals.specs}/${names.length}`);
  }
  process.stderr.write('\n');
  console.log(JSON.stringify({ ...totals, misses }, null, 2));
} finally {
  await app.close();
  listener.close();
  rmSync(MARKERS, { recursive: true, force: true });
}
