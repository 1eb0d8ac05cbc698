/**
 * The project's own style through the real CLI with a scripted model: the prompt names the project's fixtures
 * module and page object by their import paths from the spec's folder, with their members, and quotes the seed
 * spec agents/scribe.yaml points to; a spec that imports the fixtures module passes the gate, runs green
 * against the suite app in Chromium and is accepted; one that acts through the page object's method is proved by
 * taking that call away.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty } from '../fixtures/model-answers.ts';
import type { ScribeProject } from '../fixtures/scribe-project.ts';
import { startSuiteApp, type SuiteApp } from '../fixtures/suite-app.ts';
import { makeSuiteProject } from '../fixtures/suite-project.ts';
import { STYLE_FILES } from '../fixtures/style-project.ts';
import { runCli } from './harness.ts';

// The throwaway project's output folder is generated-tests/: the spec goes to generated-tests/search/.
const SPEC = `import { test, expect } from '../../e2e/fixtures';

test('search finds milk', async ({ searchPage, page }) => {
  await searchPage.open();
  await page.getByTestId('search-input').fill('milk');
  await page.getByTestId('search-submit').click();
  await expect(searchPage.results).toContainText('Milk');
  await expect(page).toHaveURL(/search/);
  await page.screenshot({ path: 'test-results/milk.png' });
});
`;

let fake: FakeOpenAI;
let app: SuiteApp;
let project: ScribeProject;

beforeAll(async () => {
  [fake, app] = await Promise.all([startFakeOpenAI(), startSuiteApp({ version: 2 })]);
  project = makeSuiteProject(app.url, STYLE_FILES, { 'generation.seed_spec': 'e2e/seed.spec.ts' });
});
afterAll(async () => {
  project.remove();
  await Promise.all([fake.close(), app.close()]);
});

describe("the project's own style", { timeout: 300_000 }, () => {
  it('is in the prompt, and a spec that uses the fixtures module is accepted', async () => {
    fake.reply({ text: chatty(SPEC) });
    const run = await runCli(['generate', 'search for milk and see it in the results', '--feature', 'search', '--url', `${app.url}/search`, '--json'], { env: project.env(fake.url), cwd: project.dir });
    const prompt = JSON.stringify(fake.requests[0]!.body);
    expect(prompt).toContain("from '../../e2e/fixtures'  (fixtures): test (fixtures: searchPage), expect");
    expect(prompt).toContain("from '../../e2e/pages/search-page'  (page object): SearchPage (results, open, searchFor)");
    expect(prompt).toContain('seed spec e2e/seed.spec.ts');
    expect(prompt).not.toContain('helpers/format');

    const result = JSON.parse(run.stdout);
    expect(result, run.stdout + run.stderr).toMatchObject({ success: true, runner: { status: 'pass' } });
    expect(run.code).toBe(0);
    expect(path.dirname(result.testPath)).toBe(path.join('generated-tests', 'search'));
    expect(readFileSync(path.join(project.dir, result.testPath), 'utf8')).toContain("from '../../e2e/fixtures'");
  });

  it("proves a spec that acts through the page object's method: the proof takes the method call away", async () => {
    const throughMethod = SPEC.replace("  await page.getByTestId('search-input').fill('milk');\n  await page.getByTestId('search-submit').click();\n", "  await searchPage.searchFor('milk');\n");
    fake.reply({ text: chatty(throughMethod) });
    const asked = fake.requests.length;
    const run = await runCli(['generate', 'search for milk and see it in the results', '--feature', 'search', '--url', `${app.url}/search`, '--json', '--force'], { env: project.env(fake.url), cwd: project.dir });
    const result = JSON.parse(run.stdout);
    expect(result, run.stdout + run.stderr).toMatchObject({ success: true, runner: { status: 'pass', proof: { verdict: 'proved', actions: ["searchPage.searchFor('milk')"] } } });
    // One model call: the first answer is proved.
    expect(fake.requests.length - asked).toBe(1);
  });
});

