#!/usr/bin/env node
// Packs Scribe as `npm publish` would, installs the tarball into a fresh project, and reports what
// ships (files, packed and unpacked size) and how long `scribe --help` and `scribe validate` (one spec)
// take to start from the installed package: median of R runs after one warm-up (the V8 code cache is
// written on the first run). Usage: node bench/installed-package.mjs [R]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 5);
const work = path.join(root, 'bench', 'work', 'installed');
const project = path.join(work, 'project');

rmSync(work, { recursive: true, force: true });
mkdirSync(project, { recursive: true });
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--pack-destination', work, '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'bench-project', version: '1.0.0', private: true, type: 'module' }));
execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, packed.filename)], { cwd: project, stdio: 'ignore' });
writeFileSync(
  path.join(project, 'home.spec.ts'),
  "import { test, expect } from '@playwright/test';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await expect(page.getByTestId('title')).toBeVisible();\n  await page.screenshot({ path: 'home.png' });\n});\n",
);

const scribe = path.join(project, 'node_modules', '.bin', 'scribe');
function median(args) {
  execFileSync(scribe, args, { cwd: project, stdio: 'ignore' });
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    execFileSync(scribe, args, { cwd: project, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]);
}

const help = median(['--help']);
const validate = median(['validate', 'home.spec.ts']);
// The same with a playwright.config.ts, which Scribe reads with Playwright's own loader in a child process.
writeFileSync(path.join(project, 'playwright.config.ts'), "import { defineConfig } from '@playwright/test';\n\nexport default defineConfig({ testDir: '.', use: { testIdAttribute: 'data-test' } });\n");
const withConfig = median(['validate', 'home.spec.ts']);
console.log(`npm pack: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(1)} kB packed, ${(packed.unpackedSize / 1024).toFixed(1)} kB unpacked`);
console.log(`installed scribe --help: median ${help} ms of ${runs}`);
console.log(`installed scribe validate (1 spec, type-check on): median ${validate} ms of ${runs}; with a playwright.config.ts: ${withConfig} ms`);
rmSync(work, { recursive: true, force: true });
