/**
 * The native type checker's thread: the compiler's process is driven from a thread of its own (readying it does
 * not hold up the caller: bench/generate-command.ts --model-ms shows what that gives); a check after the warm-up
 * answers its own batch, and stopping it, even while it loads, leaves no compiler process behind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeChecker } from '../../src/validate/compiler.ts';
import { NO_PROJECT } from '../../src/validate/project-types.ts';
import { typeCheckOptions } from '../../src/validate/type-checker.ts';

const FILE = path.join(process.cwd(), 'thread-check.spec.ts');
const INVENTED = "import { test } from '@playwright/test';\ntest('t', async ({ page }) => { await page.clickTheButton(); });\n";

/** This process's child processes that are a TypeScript compiler serving the API (`tsc --api`). */
function compilerChildren(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return parent === process.pid && command.includes('--api') ? [Number(pid)] : [];
      } catch {
        return []; // it exited meanwhile
      }
    });
}

describe("the native type checker's thread", { timeout: 60_000 }, () => {
  it("answers the first check after a warm-up with that batch's findings, the warm-up's answer passed over", async () => {
    const checker = nativeChecker('native', typeCheckOptions(false), NO_PROJECT)!;
    checker.warm();
    expect(checker.running).toBe(true);
    const found = checker.check([{ file: FILE, text: INVENTED }]).get(FILE)!;
    expect(found.map((d) => d.code)).toEqual([2339]);
    expect(found[0]!.text).toContain("'clickTheButton' does not exist");
    await checker.stop();
  });

  it('stopped while it still loads, leaves no compiler process behind', async () => {
    const checker = nativeChecker('native', typeCheckOptions(false), NO_PROJECT)!;
    checker.warm();
    await checker.stop();
    expect(checker.running).toBe(false);
    expect(compilerChildren()).toEqual([]);
    // The next batch starts another.
    expect(checker.check([{ file: FILE, text: INVENTED }]).get(FILE)!.map((d) => d.code)).toEqual([2339]);
    expect(compilerChildren()).toHaveLength(1);
    await checker.stop();
    expect(compilerChildren()).toEqual([]);
  });
});
