import { describe, expect, it } from 'vitest';
import { lint } from './harness.ts';

const RULE = 'no-forbidden-imports';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);

describe('no-forbidden-imports', () => {
  it('accepts @playwright/test, its subpaths and relative modules', () => {
    const code = [
      "import { test, expect } from '@playwright/test';",
      "import type { Reporter } from '@playwright/test/reporter';",
      "import { LoginPage } from './pages/login';",
      "import { users } from '../data/users';",
      "export { expect } from '@playwright/test';",
      "const helpers = await import('./helpers');",
    ].join('\n');
    expect(lint(RULE, code)).toEqual([]);
  });

  it('flags imports, re-exports, import = require, require() and import() of other modules', () => {
    const code = [
      "import { test } from '@playwright/test';",
      "import fs from 'node:fs';",
      "import 'dotenv/config';",
      "export * from 'lodash';",
      "import cp = require('child_process');",
      "const axios = require('axios');",
      "const { exec } = await import('node:child_process');",
      "import type { Page } from 'playwright-core';",
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(issues[0]!.message).toBe(
      'Import of "node:fs" is not allowed: a spec may import only @playwright/test and relative modules (./…); use Playwright\'s own APIs (page, request, fixtures) instead.',
    );
    expect(issues[4]!.message).toContain('require() of "axios"');
  });

  it('follows loaders through aliases, module.require, createRequire and computed names', () => {
    const code = [
      "import { test } from '@playwright/test';",
      'const load = require;',
      "load('net');",
      "module.require('os');",
      "const name = 'child_' + 'process';",
      'require(name);',
      "const req = createRequire(import.meta.url);",
      "req('fs');",
      'const dynamic = process.env.MODULE!;',
      'await import(dynamic);',
      'require(`${dynamic}`);',
    ].join('\n');
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([3, 4, 6, 8, 10, 11]);
    expect(issues[2]!.message).toContain('"child_process"');
    expect(issues[4]!.message).toMatch(/import\(\) loads a module whose name is computed at run time/);
  });

  it('takes the allowed list and allow_relative from the options', () => {
    const code = "import { test } from '@playwright/test';\nimport { faker } from '@faker-js/faker';\nimport { a } from './a';";
    expect(lines(code, { allowed: ['@playwright/test', '@faker-js/faker'], allow_relative: true })).toEqual([]);
    expect(lines(code, { allowed: ['@playwright/test'], allow_relative: false })).toEqual([2, 3]);
    const [issue] = lint(RULE, code, { options: { allowed: ['@playwright/test'], allow_relative: false } });
    expect(issue!.message).toContain('a spec may import only @playwright/test;');
  });
});
