/**
 * Scribe on apps shaped like real ones, end to end (scripted model through the real openai client, the
 * real validator, Critic, Runner with Chromium, Medic): a shop behind a login with several pages, and
 * an app with no test ids at all.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateSpec, type GenerateRequest } from '../../src/workflow/pipeline.ts';
import { progressReporter } from '../../src/workflow/progress-reporter.ts';
import type { PipelineEvent } from '../../src/contracts.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { fenced } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { serveDirectory, type StaticServer } from '../../src/demo-app/static-server.ts';

const shopApp = fileURLToPath(new URL('../fixtures/shop-app/', import.meta.url));
const plainApp = fileURLToPath(new URL('../fixtures/plain-app/', import.meta.url));
const ACCOUNT = { E2E_USERNAME: 'shopper', E2E_PASSWORD: 'correct-horse' };

const spec = (steps: string) => `import { test, expect } from '@playwright/test';

test('buy a lamp', async ({ page }) => {
  await test.step('sign in', async () => {
    await page.goto('/');
    await page.getByTestId('username').fill(process.env.E2E_USERNAME ?? '');
    await page.getByTestId('password').fill(process.env.E2E_PASSWORD ?? '');
    await page.getByTestId('login-button').click();
  });
${steps}
  await page.screenshot({ path: test.info().outputPath('done.png') });
});
`;

const TO_CART = `  await test.step('add the lamp to the cart', async () => {
    await expect(page.getByTestId('products-heading')).toBeVisible();
    await page.getByTestId('product-link-lamp').click();
    await page.getByTestId('add-to-cart').click();
    await expect(page.getByTestId('added-message')).toBeVisible();
  });
  await test.step('see it in the cart', async () => {
    await page.goto('/cart');
    await expect(page.getByTestId('cart-total')).toHaveText('Total: $25');
  });`;
const CORRECT = spec(TO_CART);
/** products-heading misremembered as product-heading: an id on a page nobody explored (behind the login). */
const INVENTED = CORRECT.replace("getByTestId('products-heading')", "getByTestId('product-heading')");

let fake: FakeOpenAI;
let shop: StaticServer;
let plain: StaticServer;
let project: ScribeProject;
let events: PipelineEvent[];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  shop = await serveDirectory(shopApp);
  plain = await serveDirectory(plainApp);
});
afterAll(async () => {
  await fake.close();
  await shop.close();
  await plain.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  project = makeScribeProject();
  events = [];
});
afterEach(() => project.remove());

function generate(request: Partial<GenerateRequest>, env: NodeJS.ProcessEnv = ACCOUNT) {
  return generateSpec({ description: 'sign in, add the lamp to the cart and see it there', feature: 'Shop', url: shop.url, ...request }, { cwd: project.dir, env: project.env(fake.url, env), reporters: [progressReporter(project.dir, (e) => events.push(e))] });
}
const stages = () => events.filter((e) => e.status === 'done' || e.status === 'failed').map((e) => `${e.stage}:${e.status}`);
const requestText = (n: number) => fake.requests[n]!.body.messages!.map((m) => m.content).join('\n');

// Each case drives a browser through several runs; on a busy machine that can pass the default 60 s.
describe('a shop behind a login', { timeout: 240_000 }, () => {
  it('accepts on the first answer a correct spec whose ids live on later pages, and it runs green with the declared credentials', async () => {
    fake.reply({ text: fenced(CORRECT) });
    const { document, exitCode } = await generate({});
    expect(document.error).toBeNull();
    expect(exitCode).toBe(0);
    expect(document.attempts).toBe(1);
    expect(document.runner).toMatchObject({ classification: 'pass' });
    expect(fake.requests).toHaveLength(1);
    // The prompt names the declared credential variables.
    expect(requestText(0)).toContain('process.env.E2E_USERNAME (username), process.env.E2E_PASSWORD (password)');
  });

  it('explores the pages behind the login with a storage state, and still rejects an invented id on an explored page before the run', async () => {
    const state = path.join(project.dir, 'signed-in.json');
    writeFileSync(state, JSON.stringify({ cookies: [], origins: [{ origin: shop.url, localStorage: [{ name: 'shop-session', value: '{"user":"shopper"}' }] }] }));
    const settings = path.join(project.dir, 'agents', 'scribe.yaml');
    const { readFileSync } = await import('node:fs');
    writeFileSync(settings, readFileSync(settings, 'utf8').replace(/^explore:\n/m, `explore:\n  storage_state: signed-in.json\n`));
    const wrongOnCart = spec("  await page.goto('/cart');\n  await expect(page.getByTestId('cart-totals')).toHaveText('Total: $0');");
    fake.reply({ text: fenced(wrongOnCart) }, { text: fenced(spec("  await page.goto('/cart');\n  await expect(page.getByTestId('cart-total')).toHaveText('Total: $0');")) });
    const { document, exitCode } = await generate({ url: `${shop.url}/products` });
    expect(document.error).toBeNull();
    expect(exitCode).toBe(0);
    // The prompt carried the later pages, and the retry named the cart page's real id.
    expect(requestText(0)).toContain('at /cart');
    expect(requestText(0)).toContain('checkout-button');
    expect(requestText(0)).toContain('add-to-cart');
    expect(requestText(1)).toContain('Test id "cart-totals" is not on the explored page');
    expect(requestText(1)).toContain('did you mean "cart-total"');
    expect(stages().filter((s) => s.startsWith('run:'))).toEqual(['run:done']);
  });

  it('corrects an invented id on a later page from the failing page’s real ids', async () => {
    fake.reply({ text: fenced(INVENTED) }, { text: fenced(CORRECT) });
    const { document, exitCode } = await generate({});
    expect(exitCode).toBe(0);
    expect(document.runner).toMatchObject({ classification: 'pass' });
    expect(stages()).toContain('medic:done');
    const fix = requestText(1);
    expect(fix).toMatch(/The page where it failed \(http:\/\/127\.0\.0\.1:\d+\/products\) carries exactly these test ids and named elements:\s*<app-content>\s*Test ids: .*"products-heading"/);
    expect(fix).toContain('Nearest to "product-heading": "products-heading"');
  });

  it('sends an undeclared variable back before the run, naming the declared ones', async () => {
    const invented = CORRECT.replace('process.env.E2E_PASSWORD', 'process.env.SHOP_PASSWORD');
    fake.reply({ text: fenced(invented) }, { text: fenced(CORRECT) });
    const { exitCode } = await generate({});
    expect(exitCode).toBe(0);
    expect(requestText(1)).toContain('process.env.SHOP_PASSWORD is neither declared nor set');
    expect(requestText(1)).toContain('process.env.E2E_PASSWORD (password)');
    expect(stages().filter((s) => s.startsWith('run:'))).toEqual(['run:done']);
  });

  it('never lets a declared secret reach the model, though the page echoes it into the evidence', async () => {
    const secret = 'Tr0ub4dor-and-3';
    // With this password the login fails and the page prints it; every heal runs into the same wall.
    // One heal round is enough to show the evidence the Medic is sent.
    project.remove();
    project = makeScribeProject({ 'medic.max_debug_attempts': 1 });
    const heal = CORRECT.replace("await page.goto('/');", "await page.goto('/');\n    await expect(page.getByTestId('login-button')).toHaveText('Sign in');");
    fake.reply({ text: fenced(CORRECT) }, { text: fenced(heal) });
    const { exitCode } = await generate({}, { E2E_USERNAME: 'shopper', E2E_PASSWORD: secret });
    expect(exitCode).toBe(1);
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of fake.requests) expect(JSON.stringify(request.body)).not.toContain(secret);
    // It was there to leak: the Medic saw the page's error with the value redacted.
    expect(fake.requests.slice(1).map((r) => JSON.stringify(r.body)).join('\n')).toContain('[redacted E2E_PASSWORD]');
  });
});

describe('an app with no test ids', { timeout: 240_000 }, () => {
  it('the offline generator follows the locator ladder there: label and role locators, accepted and green', async () => {
    const { document, exitCode } = await generate({
      description: 'enter "reader@example.com" as the email address and subscribe, then see the subscription status',
      feature: 'Newsletter',
      url: plain.url,
      provider: 'offline',
    });
    expect(document.error).toBeNull();
    expect(exitCode).toBe(0);
    expect(document.runner).toMatchObject({ classification: 'pass' });
    expect(fake.requests).toHaveLength(0);
    const written = readFileSync(path.join(project.dir, document.testPath!), 'utf8');
    expect(written).toContain("await page.getByLabel('Email address', { exact: true }).fill('reader@example.com');");
    expect(written).toContain("page.getByRole('status', { name: 'Subscription status', exact: true })");
    expect(written).toContain("toContainText('reader@example.com'");
    expect(written).not.toContain('getByTestId');
  });

  it('accepts a role-based spec on the first answer, and it runs green', async () => {
    const roleBased = `import { test, expect } from '@playwright/test';

test('subscribe to the newsletter', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Email address').fill('reader@example.com');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('status')).toHaveText('Subscribed reader@example.com');
  await page.screenshot({ path: test.info().outputPath('subscribed.png') });
});
`;
    fake.reply({ text: fenced(roleBased) });
    const { document, exitCode } = await generate({ description: 'subscribe to the newsletter', feature: 'Newsletter', url: plain.url });
    expect(document.error).toBeNull();
    expect(exitCode).toBe(0);
    expect(document.attempts).toBe(1);
    expect(document.runner).toMatchObject({ classification: 'pass' });
    // The prompt said these elements have no test id, and carried the linked page too.
    expect(requestText(0)).toContain('button "Subscribe"');
    expect(requestText(0)).toContain('at /about');
  });
});
