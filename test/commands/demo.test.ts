import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedUrl } from '../fixtures/closed-url.ts';
import { scribe } from './cli-harness.ts';

let dir: string;
let demoDir: string | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scribe-user-project-'));
  demoDir = undefined;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  if (demoDir) rmSync(demoDir, { recursive: true, force: true });
});

/**
 * A user's Playwright project that would break a demo run under it: its own testDir, a setup project
 * whose sign-in never answers (the others depend on it), an agents/ override, a .gitignore. Its
 * node_modules is Scribe's, so its config loads as it would in the user's own checkout.
 */
async function writeUserProject(root: string): Promise<void> {
  const unreachable = await closedUrl();
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: 'user-shop', private: true, devDependencies: { '@playwright/test': '^1.50.0' } }, null, 2)}\n`,
    'playwright.config.ts': `import { defineConfig, devices } from '@playwright/test';
export default defineConfig({
  testDir: './e2e',
  use: { baseURL: '${unreachable}' },
  projects: [
    { name: 'setup', testMatch: /.*\\.setup\\.ts/ },
    { name: 'chromium', use: { ...devices['Desktop Chrome'], storageState: 'playwright/.auth/user.json' }, dependencies: ['setup'] },
  ],
});
`,
    'e2e/auth.setup.ts': `import { test as setup } from '@playwright/test';
setup('sign in', async ({ page }) => {
  await page.goto('/login');
  await page.context().storageState({ path: 'playwright/.auth/user.json' });
});
`,
    'e2e/home.spec.ts': `import { test, expect } from '@playwright/test';
test('home', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Shop/);
});
`,
    'agents/critic.yaml': 'preset: recommended\nrules:\n  max-steps:\n    options:\n      max: 1\n',
    '.gitignore': 'node_modules/\n',
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'), 'dir');
}

/** Every entry under root (symlinks not followed) with a hash of its content: what "untouched" means. */
function snapshot(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      const stat = lstatSync(file);
      const key = path.relative(root, file);
      if (stat.isDirectory()) {
        entries[key] = 'dir';
        walk(file);
      } else if (stat.isSymbolicLink()) entries[key] = 'link';
      else entries[key] = `${stat.mtimeMs} ${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
    }
  };
  walk(root);
  return entries;
}

describe('scribe demo (npm run demo)', () => {
  // Three generations, each a run with its proof, through a real browser: slow on a shared machine.
  it("inside a user's Playwright project, passes in a project of its own and leaves every file of the user's byte-identical", async () => {
    await writeUserProject(dir);
    const before = snapshot(dir);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', SCRIBE_HOME: '' };
    const run = await scribe(['demo'], { cwd: dir, env });

    demoDir = /Demo project\S* (\S+)/.exec(run.stdout)?.[1];
    expect(run.stdout).toContain('the offline generator (no model configured)');
    expect(run.stdout).toContain('All 3 specs passed the rules, the Critic and a real run.');
    expect(run.stdout.match(/run {5}pass in/g)).toHaveLength(3);
    expect(run.code).toBe(0);
    expect(snapshot(dir)).toEqual(before);

    expect(demoDir).toBeDefined();
    expect(path.relative(dir, demoDir!).startsWith('..')).toBe(true);
    const specs = readdirSync(path.join(demoDir!, 'generated-tests'), { recursive: true }).map(String).filter((f) => f.endsWith('.spec.ts'));
    expect(specs).toHaveLength(3);
    const validate = await scribe(['validate', 'generated-tests'], { cwd: demoDir!, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    expect(validate.code).toBe(0);
  }, 600_000);
});
