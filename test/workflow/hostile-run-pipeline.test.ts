/**
 * The hostile-run corpus's sharpest techniques through the whole pipeline (what `scribe generate` runs),
 * gate on, with a scripted model that answers the hostile spec on every attempt: whether the gate
 * refuses it or it runs contained, the host shows no effect and no model request carries a secret or the
 * text of the project's .env. The whole corpus: bench/hostile-run-pipeline.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { osSandboxAvailable } from '../../src/agents/runner/sandbox.ts';
import { generateSpec } from '../../src/workflow/pipeline.ts';
import { startFakeOpenAI } from '../fixtures/fake-openai.ts';
import { plantProjectSecret, PROJECT_SECRET, SECRETS, startHostileHost, type HostileHost } from '../fixtures/hostile-run.ts';
import { fenced } from '../fixtures/model-answers.ts';
import { makeScribeProject } from '../fixtures/scribe-project.ts';

let host: HostileHost;
beforeAll(async () => {
  host = await startHostileHost();
});
afterAll(() => host?.close());

describe.skipIf(!osSandboxAvailable(process.env))('hostile runs through the pipeline, gate on', () => {
  it.each(['01-page-websocket-to-browser-server', '04-page-request-credential', '09-new-context-file-base-url'])('%s: no host effect, nothing secret to the model', async (prefix) => {
    host.reset();
    const fake = await startFakeOpenAI();
    const project = makeScribeProject();
    plantProjectSecret(project.dir);
    const spec = host.specs(project.dir).find((s) => s.name.startsWith(prefix))!;
    try {
      fake.reply(...Array.from({ length: 8 }, () => ({ text: fenced(spec.text) })));
      const env = { ...project.env(fake.url), ...SECRETS, E2E_USERNAME: host.env.E2E_USERNAME, E2E_PASSWORD: host.env.E2E_PASSWORD };
      const { document } = await generateSpec({ description: 'log in with valid credentials and see the dashboard', feature: 'login', url: `${host.appUrl}/login` }, { cwd: project.dir, env });
      if (document.runner) expect(host.effects(document.runner)).toEqual([]);
      const toModel = JSON.stringify(fake.requests.map((r) => r.body));
      expect(toModel).not.toContain(PROJECT_SECRET);
      for (const value of Object.values(SECRETS)) expect(toModel).not.toContain(value);
      expect(toModel).not.toContain(String(host.env.E2E_PASSWORD));
    } finally {
      project.remove();
      await fake.close();
    }
  }, 400_000);
});
