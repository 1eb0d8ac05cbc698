import { describe, expect, it } from 'vitest';
import { inTest, lint } from './harness.ts';

const RULE = 'no-dangerous-apis';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);
const header = "import { test, expect } from '@playwright/test';";

describe('no-dangerous-apis', () => {
  it('accepts ordinary specs: process.env, evaluate, locally declared names, types and property names', () => {
    const code = [
      header,
      "import { LoginPage } from './pages/login';",
      'type Callback = Function;',
      "const settings = { eval: 'off', exit: true };",
      'function run(fn: Callback) { return fn; }',
      "test('ok', async ({ page }) => {",
      "  await page.goto(process.env.BASE_URL ?? '/');",
      '  const user = process.env.USER_NAME!;',
      '  const { env } = process;',
      "  await page.evaluate(() => document.title);",
      '  const exit = settings.exit;',
      "  await expect(page.getByTestId('user')).toHaveText(user + String(exit) + env.HOME + settings.eval + String(run));",
      '  console.log(new LoginPage());',
      '});',
    ].join('\n');
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags eval and the Function constructor, also through the global object, aliases and destructuring', () => {
    const code = inTest(
      [
        "  eval('1 + 1');",
        "  new Function('return 1')();",
        "  Function('return 2')();",
        "  globalThis.eval('3');",
        "  window['Function']('return 4');",
        '  const g = globalThis;',
        "  g['ev' + 'al']('5');",
        '  const run = eval;',
        "  const { Function: F } = globalThis;",
        "  (() => 0).constructor.constructor('return 6')();",
        "  (0, eval)('7');",
      ].join('\n'),
    );
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([4, 5, 6, 7, 8, 10, 11, 12, 13, 14]);
    expect(issues[0]!.message).toMatch(/`eval`: eval runs code from a string.*write the steps as plain code/);
    expect(issues[1]!.message).toContain('the Function constructor builds and runs code from a string');
  });

  it('flags process members from the options, with computed members, aliases and destructuring', () => {
    const code = inTest(
      [
        '  process.exit(1);',
        "  process['kill'](process.pid);",
        '  const p = process;',
        '  p.abort();',
        '  const { exit } = process;',
        "  const { env: { constructor: Ctor } } = process;",
        "  process.env.constructor.constructor('return 1');",
        '  globalThis.process.chdir("/");',
        '  const member = process.env.MEMBER!;',
        '  process[member]();',
        "  const bind = process.binding;",
      ].join('\n'),
    );
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([4, 5, 7, 8, 9, 10, 11, 13, 14]);
    expect(issues[0]!.message).toMatch(/^process\.exit reaches into the test runner's own process/);
    expect(issues[5]!.message).toContain('process.env.constructor');
    expect(issues[7]!.message).toContain('A computed member of process');
  });

  it('follows the global object as far as the analysis follows any chain (analysis/depth.ts), not a shorter budget of its own', () => {
    // Ten links of the global object: past the eight this rule once stopped at, within the one budget.
    const chain = ['globalThis', 'window', 'self', 'global', 'globalThis', 'window', 'self', 'global', 'globalThis', 'window'].join('.');
    const code = inTest([`  ${chain}.eval('1');`, `  ${chain}.process.exit(1);`].join('\n'));
    expect(lines(code)).toEqual([4, 5]);
  });

  it('takes the name a function or class expression declares for a declaration, not a use of a forbidden module’s binding (analysis/syntax.ts, as the gate)', () => {
    const code = [
      header,
      "import { exec } from 'node:child_process';",
      "test('t', async ({ page }) => {",
      '  const run = function exec() { return 1; };',
      '  const Made = class exec {};',
      "  exec('ls');",
      '  console.log(run(), new Made());',
      '});',
    ].join('\n');
    expect(lines(code)).toEqual([6]);
  });

  it('flags every use of bindings from forbidden modules, followed through imports, require and aliases', () => {
    const code = [
      header,
      "import * as cp from 'node:child_process';",
      "import { readFileSync as read } from 'fs';",
      "import net = require('net');",
      "const { exec } = require('child_process');",
      "const os = await import('node:os');",
      'const spawn = cp.spawn;',
      "test('danger', async () => {",
      "  cp.execSync('ls');",
      "  read('/etc/passwd');",
      '  net.connect(80);',
      "  exec('whoami');",
      '  os.homedir();',
      "  spawn('sh');",
      "  require('child_process').execSync('id');",
      "  (await import('fs/promises')).rm('/', { recursive: true });",
      "  const dynamic = process.env.MODULE!;",
      '  require(dynamic);',
      '});',
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([7, 9, 10, 11, 12, 13, 14, 15, 16, 18]);
    expect(issues[1]!.message).toBe(
      "`cp` uses node:child_process: a spec must not spawn processes or touch files, the network or the OS directly; use Playwright's APIs (page, request, fixtures) and process.env for configuration instead.",
    );
    expect(issues[7]!.message).toContain("require('child_process') uses child_process");
    expect(issues[9]!.message).toContain('computed at run time');
  });

  it('reports a use once even when it is both a module binding and a process member', () => {
    const code = `import process from 'node:process';\n${inTest('  process.exit(0);')}`;
    const issues = lint(RULE, code);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toContain('process.exit');
  });

  it('takes the modules, globals and process members from the options', () => {
    const code = inTest("  const fs = require('fs');\n  fs.readFileSync('x');\n  eval('1');\n  process.exit();\n  process.cwd();");
    expect(lines(code)).toEqual([5, 6, 7]);
    expect(lines(code, { modules: [], globals: [], process_members: ['cwd'] })).toEqual([8]);
  });

  it('overlaps with no-forbidden-imports on purpose: both report a forbidden module', () => {
    const code = `import { execSync } from 'node:child_process';\n${inTest("  execSync('ls');")}`;
    expect(lint('no-forbidden-imports', code).map((i) => i.line)).toEqual([1]);
    expect(lint(RULE, code).map((i) => i.line)).toEqual([5]);
  });
});
