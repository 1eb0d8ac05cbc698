/**
 * Redaction through the real CLI: `scribe generate` on the demo app's sign-in page with E2E_PASSWORD set to a
 * common word (`secret`, `Password`) and E2E_USERNAME=admin. A lazy model hard-codes the password, so the
 * feedback quotes its own code back: the value is redacted there, while Scribe's rule text (secret_names),
 * the page's "Password" label and the user's request ("the admin user") reach the model whole.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { runCli } from './harness.ts';

const DESCRIPTION = 'sign in as the admin user and see the "Dashboard" heading';

const HARD_CODED = (value: string) => `import { test, expect } from '@playwright/test';

test('signs in and sees the dashboard', async ({ page }) => {
  await page.goto('/login.html');
  await page.getByTestId('username-input').fill(process.env.E2E_USERNAME!);
  await page.getByTestId('password-input').fill('${value}');
  await page.getByTestId('login-button').click();
  await expect(page.getByTestId('dashboard-heading')).toHaveText('Dashboard');
  await page.screenshot({ path: 'test-results/dashboard.png' });
});
`;

let fake: FakeOpenAI;
let app: DemoApp;
let project: ScribeProject;

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startDemoApp()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), app.close()]);
});
afterEach(() => {
  fake.requests.length = 0;
  project.remove();
});

describe('scribe generate: redaction of a common-word secret', { timeout: 300_000 }, () => {
  it.each(['secret', 'Password'])('with E2E_PASSWORD=%s: rule text, the page label and the request intact; the value redacted from the feedback', async (value) => {
    project = makeScribeProject();
    const answer = chatty(HARD_CODED(value));
    fake.reply({ text: answer }, { text: answer }, { text: answer });
    const env = project.env(fake.url, { E2E_USERNAME: 'admin', E2E_PASSWORD: value });
    const run = await runCli(['generate', DESCRIPTION, '--url', `${app.url}/login.html`, '--feature', 'Login', '--json'], { env, cwd: project.dir });
    expect(run.code).toBe(1);
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);

    const [system, prompt] = fake.requests[0]!.body.messages!;
    expect(system!.content).toContain('secret_names');
    expect(prompt!.content).toContain(DESCRIPTION);
    expect(prompt!.content).toMatch(/"Password"/);
    expect(prompt!.content).not.toContain('[redacted');

    // Every later request quotes the previous attempt: its hard-coded value is gone, in every message but Scribe's own system prompt.
    for (const request of fake.requests.slice(1)) {
      const sent = request.body.messages!.slice(1).map((message) => message.content).join('\n');
      expect(sent).toContain("fill('[redacted E2E_PASSWORD]')");
      expect(sent).not.toContain(`'${value}'`);
      expect(sent).toContain(DESCRIPTION);
    }
  });
});
