#!/usr/bin/env node
// `scribe validate` against eslint + eslint-plugin-playwright (recommended preset) on the same N specs, in a
// user-like project (its own playwright.config.ts and tsconfig.json), whole process each time, side by side,
// median of R runs. Modes: the rules alone, with the type check (native and JavaScript compilers), and warm
// caches (eslint --cache, scribe --cache). Peak RSS per run from /proc (VmHWM, sampled).
//
//   node bench/validate-speed.mjs [N=1000] [R=3] [--busy]
//
// --busy keeps one core busy meanwhile (a bounded node loop in a child process), as CI's other jobs would.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { busyCore, median } from './load.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [count = 1000, runs = 3] = process.argv.slice(2).filter((a) => !a.startsWith('--')).map(Number);
const busy = process.argv.includes('--busy');
const spec = readFileSync(path.join(root, 'bench', 'fixtures', 'realistic.spec.ts'), 'utf8');

/** A project such as a user has: tests/ with the specs, a Playwright config, a tsconfig, node_modules. */
function userProject() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scribe-validate-bench-'));
  mkdirSync(path.join(dir, 'tests'));
  for (let i = 0; i < count; i++) writeFileSync(path.join(dir, 'tests', `checkout-${i}.spec.ts`), spec.replaceAll('checkout', `checkout${i}`));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'shop-e2e', private: true, type: 'module' }));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true } }));
  writeFileSync(path.join(dir, 'playwright.config.ts'), "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: './tests', use: { testIdAttribute: 'data-testid' } });\n");
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** Runs a command to its end; its wall time and its peak resident memory (the highest VmHWM sampled). */
function timed(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let peakKb = 0;
    let stderr = '';
    const sample = () => {
      try {
        const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // the process has just ended
      }
    };
    const sampler = setInterval(sample, 20);
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      // 0 clean, 1 findings: both are timed runs; anything else is a broken bench.
      if (code !== 0 && code !== 1) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ seconds, peakMb: peakKb / 1024 });
    });
  });
}

async function measure(label, command, args, cwd, prepare) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    prepare?.();
    results.push(await timed(command, args, cwd));
  }
  const seconds = median(results.map((r) => r.seconds));
  const peakMb = Math.max(...results.map((r) => r.peakMb));
  console.log(`${label.padEnd(52)} ${seconds.toFixed(2).padStart(6)} s  ${peakMb.toFixed(0).padStart(5)} MB  (runs: ${results.map((r) => r.seconds.toFixed(2)).join(', ')})`);
  return seconds;
}

const node = process.execPath;
const eslint = [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--no-config-lookup', '-c', path.join(root, 'bench', 'eslint.config.mjs')];
const scribe = [path.join(root, 'bin', 'scribe.js'), 'validate', '--json', '--preset', 'recommended'];
const project = userProject();
const stopBusy = busy ? busyCore() : () => {};
try {
  const eslintCache = path.join(project, '.eslintcache');
  const scribeCache = path.join(project, '.scribe', 'validate-cache.json');
  // Each tool's first start pays for compiling its sources (Scribe's dev bundle, V8's caches): not timed.
  await timed(node, [...scribe, 'tests/checkout-0.spec.ts'], project);
  console.log(`${count} specs (bench/fixtures/realistic.spec.ts, ${spec.split('\n').length} lines each) in a user project; median of ${runs}${busy ? '; one core kept busy' : ''}\n`);
  const lint = await measure('eslint + eslint-plugin-playwright (recommended)', node, [...eslint, 'tests'], project);
  const rules = await measure('scribe validate --no-type-check', node, [...scribe, '--no-type-check', 'tests'], project);
  const native = await measure('scribe validate (type check, native TypeScript 7)', node, [...scribe, '--type-checker', 'native', 'tests'], project);
  const javascript = await measure('scribe validate (type check, JavaScript compiler)', node, [...scribe, '--type-checker', 'javascript', 'tests'], project);
  await timed(node, [...eslint, '--cache', '--cache-location', eslintCache, 'tests'], project);
  const lintWarm = await measure('eslint --cache, warm', node, [...eslint, '--cache', '--cache-location', eslintCache, 'tests'], project);
  rmSync(scribeCache, { force: true });
  await timed(node, [...scribe, '--cache', 'tests'], project);
  const scribeWarm = await measure('scribe validate --cache (type check), warm', node, [...scribe, '--cache', 'tests'], project);

  const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
  console.log('\nspeed-up over eslint (higher is better):');
  console.log(`  rules alone (--no-type-check)    ${ratio(lint, rules)}  (target >= ${busy ? 3 : 5}x)`);
  console.log(`  with the type check, native      ${ratio(lint, native)}  (target >= 2x)`);
  console.log(`  with the type check, JavaScript  ${ratio(lint, javascript)}`);
  console.log(`  warm cache vs eslint --cache     ${ratio(lintWarm, scribeWarm)}  (target >= 5x)`);
} finally {
  stopBusy();
  rmSync(project, { recursive: true, force: true });
}
