import { describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { Validator } from '../../src/validate/validator.ts';

const config = loadCriticConfig();
const clean = `import { test, expect } from '@playwright/test';

test('home', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('title')).toHaveText('Home');
  await page.screenshot({ path: 'screenshots/home.png' });
});
`;

describe('Validator', () => {
  it('validates a text seen again to the same result, and a changed text afresh', () => {
    const validator = new Validator(config, { typeCheck: true });
    const first = validator.validateText('/virtual/home.spec.ts', clean);
    expect(first.passed).toBe(true);
    expect(validator.validateText('/virtual/home.spec.ts', clean)).toEqual(first);

    const broken = validator.validateText('/virtual/home.spec.ts', clean.replace('getByTestId', 'getByTestID'));
    expect(broken.passed).toBe(false);
    expect(broken.issues.map((i) => i.rule)).toContain('type-check');
    expect(validator.validateText('/virtual/home.spec.ts', clean).passed).toBe(true);
  });

  it('keeps results per inventory: a validator for another page judges test ids against that page', () => {
    const base = new Validator(config, { typeCheck: false });
    const inventory = { url: 'http://127.0.0.1/', title: 'Home', testIdAttribute: 'data-testid', testIds: [{ testId: 'heading', tag: 'h1', role: 'heading', text: 'Home', label: null, count: 1 }], roles: [], fields: [], headings: [], links: [], truncated: [], estimatedTokens: 20 };
    expect(base.validateText('/virtual/home.spec.ts', clean).passed).toBe(true);
    const grounded = base.withInventory(inventory).validateText('/virtual/home.spec.ts', clean);
    expect(grounded.issues.map((i) => i.rule)).toEqual(['no-unknown-testid']);
  });

  it('returns every result of a batch larger than what it remembers', () => {
    const validator = new Validator(config, { typeCheck: false });
    const specs = Array.from({ length: 100 }, (_, i) => ({ file: `/virtual/s${i}.spec.ts`, text: clean.replace("'Home'", `'Home ${i}'`) }));
    const results = validator.validateMany(specs);
    expect(results.map((r) => r.file)).toEqual(specs.map((s) => s.file));
    expect(results.every((r) => r.passed)).toBe(true);
  });
});
