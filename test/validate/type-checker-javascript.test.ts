/**
 * The JavaScript compiler's own thread, what a validator warmed without the native compiler checks on: the
 * same findings as the validator's own program on a project with aliases and a page object (on the whole test
 * corpus: type-checker.test.ts); after a warm-up it answers the next batch, the warm-up's answer passed over
 * (what the warm-up saves a generation: bench/generate-command.ts --model-ms); it ends when stopped or idle;
 * and a thread whose compiler cannot load answers with why.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { NO_PROJECT } from '../../src/validate/project-types.ts';
import { JavaScriptTypeChecker } from '../../src/validate/type-checker-javascript.ts';
import { typeCheckOptions } from '../../src/validate/type-checker.ts';
import { Validator } from '../../src/validate/validator.ts';

const critic = loadCriticConfig();
const FILE = path.join(process.cwd(), 'javascript-thread-check.spec.ts');
const INVENTED = "import { test } from '@playwright/test';\ntest('t', async ({ page }) => { await page.clickTheButton(); });\n";

/** Whether `running` turns false within `withinMs` (checked every 20 ms). */
async function endsWithin(checker: { running: boolean }, withinMs: number): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await sleep(20)) if (!checker.running) return true;
  return !checker.running;
}

describe("the JavaScript type checker's thread", { timeout: 120_000 }, () => {
  describe('on a project with path aliases, a page object and specs that are not on disk yet', () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'scribe-javascript-thread-'));
    afterAll(() => rmSync(project, { recursive: true, force: true }));
    mkdirSync(path.join(project, 'src/pages'), { recursive: true });
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@pages/*': ['src/pages/*'] } } }));
    writeFileSync(path.join(project, 'src/pages/login.ts'), "import { expect, type Page } from '@playwright/test';\nexport class LoginPage {\n  constructor(private readonly page: Page) {}\n  async expectSignedIn(): Promise<void> {\n    await expect(this.page.getByRole('heading')).toBeVisible();\n  }\n}\n");
    const spec = (body: string) => `import { test } from '@playwright/test';\nimport { LoginPage } from '@pages/login';\n\ntest('signs in', async ({ page }) => {\n  await page.goto('/');\n  ${body}\n});\n`;

    it('resolves the alias, follows the page object for expect-expect, and finds the invented method', async () => {
      const validator = new Validator(critic, { typeChecker: 'javascript', tsconfig: path.join(project, 'tsconfig.json') });
      validator.warmTypeCheck();
      const [good, bad] = validator.validateMany([
        { file: path.join(project, 'tests/good.spec.ts'), text: spec('await new LoginPage(page).expectSignedIn();') },
        { file: path.join(project, 'tests/bad.spec.ts'), text: spec('await new LoginPage(page).expectSignedOut();') },
      ]);
      await validator.stopTypeCheck();
      expect(good!.issues.filter((i) => i.rule === 'type-check' || i.rule === 'expect-expect')).toEqual([]);
      expect(bad!.issues.find((i) => i.rule === 'type-check')!.message).toMatch(/Property 'expectSignedOut' does not exist on type 'LoginPage'/);
    });
  });

  it("answers the first check after a warm-up with that batch's findings, the warm-up's answer passed over", async () => {
    const checker = new JavaScriptTypeChecker(typeCheckOptions(false), NO_PROJECT);
    expect(checker.warmed).toBe(false);
    checker.warm();
    expect(checker.warmed).toBe(true);
    expect(checker.running).toBe(true);
    const found = checker.check([{ file: FILE, text: INVENTED }]).get(FILE)!;
    expect(found.map((d) => d.code)).toEqual([2339]);
    expect(found[0]!.text).toContain("'clickTheButton' does not exist");
    await checker.stop();
    expect(checker.running).toBe(false);
    // The next batch starts another thread.
    expect(checker.check([{ file: FILE, text: INVENTED }]).get(FILE)!.map((d) => d.code)).toEqual([2339]);
    await checker.stop();
  });

  it("ends after its creator's idle time without a batch", async () => {
    const checker = new JavaScriptTypeChecker(typeCheckOptions(false), NO_PROJECT, 50);
    expect(checker.check([{ file: FILE, text: INVENTED }]).get(FILE)!.map((d) => d.code)).toEqual([2339]);
    expect(checker.running).toBe(true);
    expect(await endsWithin(checker, 5_000)).toBe(true);
  });

  it('that cannot ready its compiler answers each batch with why, rather than leaving its caller waiting', async () => {
    // Options the compiler refuses: the thread's compiler fails as it loads, before its first answer.
    const checker = new JavaScriptTypeChecker({ ...typeCheckOptions(false), target: 'not-a-target' }, NO_PROJECT);
    checker.warm();
    expect(() => checker.check([{ file: FILE, text: INVENTED }])).toThrow(/type-check options: .*target/);
    expect(() => checker.check([{ file: FILE, text: INVENTED }])).toThrow(/type-check options: .*target/);
    await checker.stop();
  });
});
