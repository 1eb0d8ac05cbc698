/**
 * The native type checker's process exits after a while without a batch, and its creator says how long
 * (`typeCheckerIdleMs`, through nativeChecker): a batch's worker keeps it through a contained run, where the
 * default 5 s closed it during every run and the next scenario waited for a new one to load.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { nativeChecker } from '../../src/validate/compiler.ts';
import { NO_PROJECT } from '../../src/validate/project-types.ts';
import { IDLE_MS } from '../../src/validate/type-checker-native.ts';
import { typeCheckOptions } from '../../src/validate/type-checker.ts';

const SPEC = { file: path.join(process.cwd(), 'idle-check.spec.ts'), text: "import { test } from '@playwright/test';\ntest('t', async ({ page }) => { await page.goto('/'); });\n" };

/** Whether `running` turns false within `withinMs` (checked every 20 ms). */
async function exitsWithin(checker: { running: boolean }, withinMs: number): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await sleep(20)) if (!checker.running) return true;
  return !checker.running;
}

describe("the native type checker's idle time", { timeout: 60_000 }, () => {
  it("is the creator's: a short one closes the process well before the default would", async () => {
    const checker = nativeChecker('native', typeCheckOptions(false), NO_PROJECT, 50)!;
    expect(checker.check([SPEC]).get(SPEC.file)).toEqual([]);
    expect(checker.running).toBe(true);
    expect(await exitsWithin(checker, IDLE_MS * 0.8)).toBe(true);
    // The next batch starts another process.
    expect(checker.check([SPEC]).get(SPEC.file)).toEqual([]);
    expect(checker.running).toBe(true);
    checker.close();
  });

  it('by default waits 5 s for the next batch', async () => {
    const checker = nativeChecker('native', typeCheckOptions(false), NO_PROJECT)!;
    checker.check([SPEC]);
    expect(await exitsWithin(checker, 500)).toBe(false);
    checker.close();
    expect(checker.running).toBe(false);
  });
});
