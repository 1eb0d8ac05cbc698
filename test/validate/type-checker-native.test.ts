/**
 * The native type checker's thread: the compiler's process is driven from a thread of its own (readying it does
 * not hold up the caller: bench/generate-command.ts --model-ms shows what that gives); a check after the warm-up
 * answers its own batch, and stopping it, even while it loads, leaves no compiler process behind; nor does a
 * process that exits while it loads, which prints no crash of it either.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/** Whether the process is there and not a zombie (an orphan's zombie may wait long for its reaper). */
function runningOrStopped(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
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

  // Before, Go's stack traces of the compiler ("panic: EOF") reached the terminal of a `scribe generate` stopped with
  // Ctrl-C while the model was asked (the checker warms meanwhile): the compiler, cut off in the middle of reading
  // a file from its thread, crashed.
  it('a process that exits while its compiler loads prints no crash of it and leaves none running', async () => {
    // The process stops its compiler once it has loaded for 20 ms (of about 200), and exits; the test then lets the
    // compiler go on. Killed at the exit, it stays silent; left alone, its next read from the gone thread crashed it.
    const dir = mkdtempSync(path.join(tmpdir(), 'scribe-checker-exit-'));
    // A file, not -e: the checker's thread would inherit --input-type=module and fail to load its CommonJS script.
    const file = path.join(dir, 'exits-while-loading.mjs');
    writeFileSync(
      file,
      `import { readFileSync } from 'node:fs';
import { processTree } from ${JSON.stringify(path.resolve('src/agents/runner/process.ts'))};
import { nativeChecker } from ${JSON.stringify(path.resolve('src/validate/compiler.ts'))};
import { NO_PROJECT } from ${JSON.stringify(path.resolve('src/validate/project-types.ts'))};
import { typeCheckOptions } from ${JSON.stringify(path.resolve('src/validate/type-checker.ts'))};
nativeChecker('native', typeCheckOptions(false), NO_PROJECT).warm();
const isCompiler = (pid) => { try { return readFileSync('/proc/' + pid + '/comm', 'utf8').trim() === 'tsc'; } catch { return false; } };
const cpuTicks = (pid) => { try { const fields = readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' '); return Number(fields[11]) + Number(fields[12]); } catch { return 0; } };
let compiler;
const poll = setInterval(() => {
  compiler ??= processTree(process.pid).find(isCompiler);
  if (compiler === undefined || cpuTicks(compiler) < 2) return;
  clearInterval(poll);
  process.kill(compiler, 'SIGSTOP');
  console.log(compiler);
  process.exit(0);
}, 2);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', file]);
    const exited = once(child, 'exit');
    const closed = once(child, 'close');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const within = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
    const compiler = () => Number(stdout.trim());
    try {
      // Before, the exit itself hung: the checker's thread waited on the stopped compiler, which nothing stopped.
      const [exitCode] = (await Promise.race([exited, within(20_000).then(() => ['still running'])])) as [number | string];
      expect(exitCode).toBe(0);
      expect(compiler()).toBeGreaterThan(0);
      signal(compiler(), 'SIGCONT');
      // The compiler shares the process's stderr: it is closed once the compiler is gone too.
      await Promise.race([closed, within(10_000)]);
      expect(stderr).not.toMatch(/panic|goroutine/);
      expect(runningOrStopped(compiler())).toBe(false);
    } finally {
      child.kill('SIGKILL');
      if (compiler() > 0) signal(compiler(), 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not keep its process alive: a process that has checked a batch ends though its compiler idles for minutes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scribe-checker-end-'));
    const file = path.join(dir, 'checks-then-ends.mjs');
    writeFileSync(
      file,
      `import { nativeChecker } from ${JSON.stringify(path.resolve('src/validate/compiler.ts'))};
import { NO_PROJECT } from ${JSON.stringify(path.resolve('src/validate/project-types.ts'))};
import { typeCheckOptions } from ${JSON.stringify(path.resolve('src/validate/type-checker.ts'))};
const checker = nativeChecker('native', typeCheckOptions(false), NO_PROJECT, 300_000);
const found = checker.check([{ file: ${JSON.stringify(FILE)}, text: ${JSON.stringify(INVENTED)} }]).get(${JSON.stringify(FILE)});
console.log(found.map((d) => d.code).join(','));
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', file]);
    const exited = once(child, 'exit');
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', () => undefined);
    try {
      // Before, the process waited out the compiler's idle time: held by the listener for its pid.
      const [exitCode] = (await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(['still running']), 30_000).unref())])) as [number | string];
      expect(exitCode).toBe(0);
      expect(stdout.trim()).toBe('2339');
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
