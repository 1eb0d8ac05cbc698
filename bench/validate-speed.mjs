#!/usr/bin/env node
// Times `scribe validate` against eslint + eslint-plugin-playwright (recommended) on the same N copies of a
// realistic 60-line spec, whole process each, best of R runs. Usage: node bench/validate-speed.mjs [N] [R]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const count = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 3);
const work = path.join(root, 'bench', 'work', 'specs');
const spec = readFileSync(path.join(root, 'bench', 'fixtures', 'realistic.spec.ts'), 'utf8');

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
for (let i = 0; i < count; i++) writeFileSync(path.join(work, `checkout-${i}.spec.ts`), spec.replaceAll('checkout', `checkout${i}`));

function best(label, command, args) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    try {
      execFileSync(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 28 });
    } catch (error) {
      // A lint exit code of 1 (problems found) is still a timed run; anything else is a broken bench.
      if (error.status !== 1) throw error;
    }
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  const seconds = Math.min(...times);
  console.log(`${label.padEnd(44)} ${seconds.toFixed(2)} s  (runs: ${times.map((t) => t.toFixed(2)).join(', ')})`);
  return seconds;
}

const node = process.execPath;
const scribe = path.join(root, 'bin', 'scribe.js');
console.log(`${count} copies of bench/fixtures/realistic.spec.ts (${spec.split('\n').length} lines), best of ${runs}\n`);
const eslint = best('eslint + eslint-plugin-playwright (recommended)', node, [
  path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--no-config-lookup', '-c', path.join(root, 'bench', 'eslint.config.mjs'), work,
]);
const fast = best('scribe validate --no-type-check', node, [scribe, 'validate', '--no-type-check', '--json', work]);
const full = best('scribe validate (with type-check)', node, [scribe, 'validate', '--json', work]);
console.log(`\nspeed-up without type-check: ${(eslint / fast).toFixed(2)}x (target 5x, i.e. <= ${(eslint / 5).toFixed(2)} s)`);
console.log(`with type-check: ${full.toFixed(2)} s (target <= 3.5 s), ${(eslint / full).toFixed(2)}x eslint`);
rmSync(path.join(root, 'bench', 'work'), { recursive: true, force: true });
