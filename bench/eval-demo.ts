/**
 * `scribe eval` on the demo app with the offline generator (no model, no network): the requests of
 * bench/fixtures/demo-requests.yaml, each grounded in its page, in a throwaway project folder.
 *
 *   npx tsx bench/eval-demo.ts [--no-self-validation]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { DEMO_ACCOUNT, startDemoApp } from '../src/demo-app/server.ts';
import { loadServerConfig } from '../src/config/server.ts';
import { loadEvalRequests, runEval } from '../src/workflow/eval.ts';

const selfValidation = !process.argv.includes('--no-self-validation');
const app = await startDemoApp();
const project = mkdtempSync(path.join(tmpdir(), 'scribe-eval-demo-'));
try {
  // The requests name pages by path; the demo app's port is only known now.
  const template = parse(readFileSync(new URL('fixtures/demo-requests.yaml', import.meta.url), 'utf8')) as { requests: Array<{ url?: string }> };
  const file = path.join(project, 'requests.yaml');
  writeFileSync(file, JSON.stringify({ requests: template.requests.map((r) => ({ ...r, url: `${app.url}${r.url ?? '/'}` })) }));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCRIBE_HOME: path.join(project, '.scribe'), E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
  const { http } = loadServerConfig();
  const report = await runEval(loadEvalRequests(file, { maxDescriptionChars: http.max_description_chars, maxFieldChars: http.max_field_chars }), { cwd: project, env, selfValidation });
  for (const row of report.requests) {
    console.log(`${row.accepted ? 'accepted' : 'not accepted'} | attempts ${row.attempts} | rules ${row.rules_passed ? 'pass' : 'fail'} | critic ${row.critic ?? '-'} | run ${row.run ?? '-'} | heals ${row.heals} | calls ${row.model_calls} | tokens ${row.tokens} | ${(row.duration_ms / 1000).toFixed(1)} s | ${row.description}${row.error ? ` — ${row.error}` : ''}`);
  }
  console.log(JSON.stringify(report.totals, null, 2));
} finally {
  await app.close();
  rmSync(project, { recursive: true, force: true });
}
