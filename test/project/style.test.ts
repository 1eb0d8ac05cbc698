import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/load.ts';
import { loadScribeConfig } from '../../src/config/scribe.ts';
import { importPath, renderProjectStyle } from '../../src/agents/scribe-prompt.ts';
import { readProjectStyle } from '../../src/project/style.ts';
import { STYLE_FILES } from '../fixtures/style-project.ts';
import { writeFiles } from '../fixtures/files.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'scribe-style-'));
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

const style = (cwd: string, seed?: string) => readProjectStyle({ cwd, playwright: undefined, outputDir: path.join(cwd, 'e2e', 'generated'), agents: { scribe: { generation: { max_attempts: 1, max_retries: 1, max_critic_rejections: 0, output_dir: 'x', quoted_answer_chars: 1, ...(seed ? { seed_spec: seed } : {}) } } } });

describe('readProjectStyle', () => {
  it('finds the fixtures module with its fixtures and other exports, and the page object with its public members; not helpers, specs or generated specs', () => {
    const cwd = projectWith({ ...STYLE_FILES, 'e2e/generated/search/old.ts': STYLE_FILES['e2e/pages/search-page.ts']!, 'node_modules/x/fixtures.ts': STYLE_FILES['e2e/fixtures.ts']! });
    const found = style(cwd);
    expect(found.modules).toEqual([
      { file: path.join(cwd, 'e2e', 'fixtures.ts'), kind: 'fixtures', members: ['test (fixtures: searchPage)', 'expect'] },
      { file: path.join(cwd, 'e2e', 'pages', 'search-page.ts'), kind: 'page object', members: ['SearchPage (results, open, searchFor)'] },
    ]);
    expect(found.seed).toBeNull();
  });

  it('reads the seed spec agents/scribe.yaml names; one that is not there is a configuration error naming the key', () => {
    const cwd = projectWith(STYLE_FILES);
    expect(style(cwd, 'e2e/seed.spec.ts').seed).toEqual({ file: 'e2e/seed.spec.ts', text: STYLE_FILES['e2e/seed.spec.ts'] });
    expect(() => style(cwd, 'e2e/missing.spec.ts')).toThrow(ConfigError);
    expect(() => style(cwd, 'e2e/missing.spec.ts')).toThrow(/generation\.seed_spec/);
  });

  it('an extend whose fixtures are an object literal, and a JavaScript page object', () => {
    const cwd = projectWith({
      'tests/base.js': "const { test: base } = require('@playwright/test');\nexports.x = 1;\nexport const test = base.extend({ todoPage: async ({ page }, use) => use(page), 'account': async ({}, use) => use(1) });\n",
      'tests/todo.page.ts': 'import { Page } from "@playwright/test";\nexport class TodoPage {\n  constructor(public page: Page) {}\n  protected hidden() {}\n  add = async (text: string) => {};\n}\nexport class NotAPage {\n  constructor(name: string) {}\n}\n',
    });
    expect(style(cwd).modules.map((m) => [path.relative(cwd, m.file), m.kind, m.members])).toEqual([
      ['tests/base.js', 'fixtures', ['test (fixtures: todoPage, account)']],
      ['tests/todo.page.ts', 'page object', ['TodoPage (add)']],
    ]);
  });
});

describe('the prompt names them', () => {
  it('by their import path from the spec folder, with the seed spec; nothing when the project has none', () => {
    const cwd = projectWith(STYLE_FILES);
    const config = loadScribeConfig();
    const text = renderProjectStyle(config, style(cwd, 'e2e/seed.spec.ts'), path.join(cwd, 'e2e', 'generated', 'search'));
    expect(text).toContain("- import { … } from '../../fixtures'  (fixtures): test (fixtures: searchPage), expect");
    expect(text).toContain("- import { … } from '../../pages/search-page'  (page object): SearchPage (results, open, searchFor)");
    expect(text).toContain('seed spec e2e/seed.spec.ts');
    expect(text).toContain("await searchPage.open();");
    expect(renderProjectStyle(config, { modules: [], seed: null }, cwd)).toBe('');
    expect(importPath('/p/e2e', '/p/e2e/fixtures.ts')).toBe('./fixtures');
  });
});
