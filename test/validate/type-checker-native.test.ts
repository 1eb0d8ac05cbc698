/**
 * The native type checker's thread: the compiler's process is driven from a thread of its own (readying it does
 * not hold up the caller: bench/generate-command.ts --model-ms shows what that gives); a check after the warm-up
 * answers its own batch, and stopping it, even while it loads, leaves no compiler process behind.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processTree } from '../../src/agents/runner/process.ts';
import { nativeChecker } from '../../src/validate/compiler.ts';
import { NO_PROJECT } from '../../src/validate/project-types.ts';
import { typeCheckOptions } from '../../src/validate/type-checker.ts';

const FILE = path.join(process.cwd(), 'thread-check.spec.ts');
const INVENTED = "import { test } from '@playwright/test';\ntest('t', async ({ page }) => { await page.clickTheButton(); });\n";

/** This process's descendants that are a TypeScript 7 compiler (its binary is `tsc`), running or a zombie not reaped. */
function compilerProcesses(): number[] {
  return processTree(process.pid).filter((pid) => {
    try {
      return pid !== process.pid && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'tsc';
    } catch {
      return false; // it exited meanwhile
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
    // Test files share this worker process (isolate: false): an earlier file's checker may still be idling out.
    const before = new Set(compilerProcesses());
    const started = () => compilerProcesses().filter((pid) => !before.has(pid));
    const checker = nativeChecker('native', typeCheckOptions(false), NO_PROJECT)!;
    checker.warm();
    await checker.stop();
    expect(checker.running).toBe(false);
    expect(started()).toEqual([]);
    // The next batch starts another.
    expect(checker.check([{ file: FILE, text: INVENTED }]).get(FILE)!.map((d) => d.code)).toEqual([2339]);
    expect(started()).toHaveLength(1);
    await checker.stop();
    expect(started()).toEqual([]);
  });
});
