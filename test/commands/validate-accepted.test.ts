import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PageInventory } from '../../src/contracts.ts';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { ValidateReport } from '../../src/contracts.ts';
import { untrustedValidator } from '../../src/validate/gate.ts';
import { scribe } from './cli-harness.ts';

/** An explored sign-up page: one element with a test id, the rest reachable by role, label or placeholder only. */
const site: PageInventory = {
  url: 'http://127.0.0.1:4000/',
  title: 'Newsletter',
  testIdAttribute: 'data-testid',
  testIds: [{ testId: 'login-button', tag: 'button', role: 'button', text: 'Sign in', label: null, count: 1, visible: true }],
  roles: [
    { role: 'button', name: 'Sign in', count: 1 },
    { role: 'button', name: 'Subscribe', count: 1 },
    { role: 'heading', name: 'Thanks for subscribing', count: 1 },
    { role: 'link', name: 'Archive', count: 1 },
    { role: 'checkbox', name: 'Weekly digest', count: 1 },
  ],
  fields: [
    { type: 'email', label: 'Email address', placeholder: 'you@example.com', name: null, testId: null },
    { type: 'text', label: 'Name', placeholder: 'Your name', name: null, testId: null },
  ],
  headings: [],
  links: [],
  truncated: [],
  estimatedTokens: 80,
  pages: [],
};

const spec = (title: string, body: string) => `import { test, expect } from '@playwright/test';

test('${title}', async ({ page }) => {
  await page.goto('/');
${body
  .split('\n')
  .map((line) => `  ${line}`)
  .join('\n')}
  await page.screenshot({ path: 'test-results/${title.replace(/\W+/g, '-')}.png' });
});
`;

/** Specs as the pipeline writes them on that site: role, label, placeholder and text locators beside test ids. */
const ACCEPTED = {
  'subscribe.spec.ts': spec('subscribes', "await page.getByLabel('Email address').fill('reader@example.com');\nawait page.getByRole('button', { name: 'Subscribe' }).click();\nawait expect(page.getByRole('heading', { name: 'Thanks for subscribing' })).toBeVisible();"),
  'placeholder.spec.ts': spec('fills by placeholder', "await page.getByPlaceholder('Your name').fill('Ada');\nawait expect(page.getByPlaceholder('Your name')).toHaveValue('Ada');"),
  'digest.spec.ts': spec('opts into the digest', "await page.getByRole('checkbox', { name: 'Weekly digest' }).check();\nawait expect(page.getByRole('checkbox', { name: 'Weekly digest' })).toBeChecked();"),
  'archive.spec.ts': spec('opens the archive', "await page.getByRole('link', { name: 'Archive' }).click();\nawait expect(page).toHaveURL(/archive/);"),
  'sign-in.spec.ts': spec('shows sign in', "await expect(page.getByTestId('login-button')).toBeVisible();\nawait expect(page.getByTestId('login-button')).toHaveText('Sign in');"),
  'text.spec.ts': spec('greets', "await page.getByLabel('Name').fill('Ada');\nawait page.getByRole('button', { name: 'Subscribe' }).click();\nawait expect(page.getByText('Thanks for subscribing')).toBeVisible();"),
  'credentials.spec.ts': spec('signs in', "await page.getByLabel('Email address').fill(process.env.E2E_USERNAME ?? '');\nawait page.getByTestId('login-button').click();\nawait expect(page.getByRole('heading', { name: 'Thanks for subscribing' })).toBeHidden();"),
};

describe('what Scribe accepts passes scribe validate under either preset', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'scribe-accepted-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(ACCEPTED)) writeFileSync(path.join(dir, name), text);

  it("the pipeline's gate (every rule, the explored site) accepts each spec", () => {
    const gate = untrustedValidator(loadCriticConfig(), { projectRoot: dir, typeCheck: true }).withInventory(site);
    const results = gate.validateMany(Object.entries(ACCEPTED).map(([name, text]) => ({ file: path.join(dir, name), text })));
    expect(results.map((r) => [path.basename(r.file), r.issues.filter((i) => i.severity === 'error').map((i) => `${i.line} ${i.rule}`)])).toEqual(Object.keys(ACCEPTED).map((name) => [name, []]));
  });

  it.each([[[]], [['--preset', 'generated']], [['--preset', 'recommended']]])('the real CLI on the user’s machine (no explored site) passes them all: %j', async (preset) => {
    const run = await scribe(['validate', '.', '--json', ...preset], { cwd: dir, env: { E2E_USERNAME: 'reader@example.com' } });
    const report = ValidateReport.parse(JSON.parse(run.stdout));
    expect(report.files.flatMap((f) => f.issues.filter((i) => i.severity === 'error').map((i) => `${path.basename(f.file)}:${i.line} ${i.rule}`))).toEqual([]);
    expect(report.summary).toMatchObject({ files: Object.keys(ACCEPTED).length, passed: Object.keys(ACCEPTED).length });
    expect(run.code).toBe(0);
  });
});
