#!/usr/bin/env node
// `scribe validate --json` (type check on, the default preset) and eslint with eslint-plugin-playwright's
// recommended config on the same spec files of public suites Scribe was not written against
// (bench/corpus/sources.json). Fetches nothing: the suites must already be in FOLDER, one subfolder per
// source name holding that repository's tree at the listed commit.
//
// Prints, per part (tuning, held-out): findings per rule for each tool, both wall times, crashes, and on the
// rules both tools have, the eslint findings Scribe has no finding for at the same line and, per rule, how many
// of them are judged true (Scribe's misses, which should be none). It draws a sample
// of findings with a fixed seed for labelling (--sample FILE writes them with their line of code), and with
// the labels in bench/corpus/labels.json it prints each rule's sampled precision and the precision over all
// findings (each rule's precision weighted by its count).
//
//   node bench/unseen-suites.mjs FOLDER [--part tuning|held-out] [--seed 26] [--sample FILE] [--type-checker auto|native|javascript] [--measured DIR]
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const folder = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
if (!folder) {
  process.stderr.write('usage: node bench/unseen-suites.mjs FOLDER [--part tuning|held-out] [--seed N] [--sample FILE]\n');
  process.exit(2);
}
const onlyPart = option('part');
const seed = Number(option('seed', '26'));
const sampleFile = option('sample');
const typeChecker = option('type-checker', 'auto');
// --measured DIR keeps each part's findings and times (DIR/<part>.json) and, when they are there, reads them
// instead of running both tools again: the tables are printed anew with the labels as they are now.
const measuredDir = option('measured');
/** About how many findings per tool and part are drawn for labelling. */
const SAMPLE_SIZE = 100;
/** How many of each shared rule's eslint findings with no Scribe finding are drawn for labelling. */
const MISSED_SAMPLE = 40;
// The suites are fetched without their node_modules; a user's install has @playwright/test, which their
// Playwright config imports. It is linked in once above the suites (Scribe's own copy), nothing else is.
// A link left by another checkout (which may be gone) is pointed at this one.
const linked = path.join(folder, 'node_modules', '@playwright', 'test');
const ownPlaywright = path.join(root, 'node_modules', '@playwright', 'test');
if (lstatIfPresent(linked) && readlinkIfLink(linked) !== ownPlaywright) rmSync(linked, { recursive: true, force: true });
if (!lstatIfPresent(linked)) {
  mkdirSync(path.dirname(linked), { recursive: true });
  symlinkSync(ownPlaywright, linked, 'dir');
}
// A suite whose Playwright config Playwright cannot load here (it imports a package of the suite that is not
// installed) is validated with Playwright's defaults instead: an empty config named with -c. The files are named
// one by one either way, so both tools check the same files, and Scribe still refuses that config (exit 2, the
// file named) when a user runs it as it is; the bench says which suites it did this for.
const defaultsConfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'scribe-unseen-')), 'playwright.config.mjs');
writeFileSync(defaultsConfig, 'export default {};\n');
const { sources } = JSON.parse(readFileSync(path.join(root, 'bench', 'corpus', 'sources.json'), 'utf8'));
const labelsFile = path.join(root, 'bench', 'corpus', 'labels.json');
/** finding id → { ok, why } per tool, judged by hand on the sample this script draws; none yet is no precision. */
const labels = existsSync(labelsFile) ? JSON.parse(readFileSync(labelsFile, 'utf8')) : { scribe: {}, eslint: {} };

/** Rules of both tools: eslint-plugin-playwright's name → Scribe's. */
/** Map.groupBy, which Node 20 lacks. */
function lstatIfPresent(file) {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

function readlinkIfLink(file) {
  return lstatIfPresent(file)?.isSymbolicLink() ? readlinkSync(file) : undefined;
}

function groupBy(list, key) {
  const groups = new Map();
  for (const item of list) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(item);
  }
  return groups;
}

const SHARED = {
  'playwright/no-wait-for-timeout': 'no-wait-for-timeout',
  'playwright/no-skipped-test': 'no-skipped-test',
  'playwright/no-focused-test': 'no-focused-test',
  'playwright/no-force-option': 'no-force-option',
  'playwright/no-networkidle': 'no-networkidle',
  'playwright/no-element-handle': 'no-element-handle',
  'playwright/no-eval': 'no-eval',
  'playwright/no-page-pause': 'no-page-pause',
  'playwright/no-conditional-in-test': 'no-conditional-in-test',
  'playwright/missing-playwright-await': 'missing-playwright-await',
  'playwright/prefer-web-first-assertions': 'prefer-web-first-assertions',
  'playwright/expect-expect': 'expect-expect',
  'playwright/no-wait-for-navigation': 'no-wait-for-navigation',
  'playwright/no-nth-methods': 'no-nth-methods',
};

function specFiles(source) {
  const cwd = path.join(folder, source.name, source.cwd);
  const include = new RegExp(source.include);
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === '.git') continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (include.test(path.relative(cwd, full).split(path.sep).join('/'))) found.push(path.relative(cwd, full));
    }
  };
  walk(cwd);
  return { cwd, files: found.sort() };
}

function run(command, commandArgs, cwd) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [command, ...commandArgs], { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  return { ...result, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

/** Every finding of both tools on one source, with stable ids (tool|source|file|line|rule). */
function measure(source) {
  const { cwd, files } = specFiles(source);
  // Without files both tools would check the whole folder (or nothing) and the counts would compare nothing.
  if (files.length === 0) throw new Error(`${source.name}: no file under ${cwd} matches ${source.include}; a snapshot can leave tests out (export-ignore in .gitattributes): extract them from the commit's blobs`);
  const scribeArgs = (config) => ['validate', ...config, '--json', '--type-checker', typeChecker, ...files];
  let scribe = run(path.join(root, 'bin', 'scribe.js'), scribeArgs([]), cwd);
  // Exit 2 with "configuration error": the suite's Playwright config does not load here (its packages are not
  // installed), which Scribe reports as bad input; the same files are then validated with Playwright's defaults.
  const configRefused = scribe.status === 2 && /configuration error/.test(scribe.stderr);
  if (configRefused) scribe = run(path.join(root, 'bin', 'scribe.js'), scribeArgs(['-c', defaultsConfig]), cwd);
  const eslint = run(path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), ['--no-config-lookup', '-c', path.join(root, 'bench', 'corpus', 'eslint.config.mjs'), '--format', 'json', ...files], cwd);
  const findings = [];
  let crashes = 0;
  if (scribe.status !== 0 && scribe.status !== 1) crashes += 1;
  let scribeWarnings = [];
  let scribeFiles = 0;
  let eslintFiles = 0;
  try {
    const report = JSON.parse(scribe.stdout);
    scribeWarnings = report.warnings ?? [];
    scribeFiles = report.files.length;
    for (const file of report.files) {
      const rel = path.relative(cwd, path.resolve(cwd, file.file)).split(path.sep).join('/');
      for (const issue of file.issues) {
        if (issue.rule === 'internal-error') crashes += 1;
        findings.push({ tool: 'scribe', source: source.name, file: rel, line: issue.line, rule: issue.rule, severity: issue.severity, message: issue.message });
      }
    }
  } catch {
    crashes += 1;
    process.stderr.write(`scribe on ${source.name}: exit ${scribe.status}\n${scribe.stderr.slice(0, 2000)}\n`);
  }
  try {
    const report = JSON.parse(eslint.stdout);
    eslintFiles = report.length;
    for (const file of report) {
      const rel = path.relative(cwd, file.filePath).split(path.sep).join('/');
      for (const message of file.messages) {
        findings.push({ tool: 'eslint', source: source.name, file: rel, line: message.line, rule: message.ruleId ?? 'parse-error', severity: message.severity === 2 ? 'error' : 'warning', message: message.message });
      }
    }
  } catch {
    process.stderr.write(`eslint on ${source.name}: exit ${eslint.status}\n${eslint.stderr.slice(0, 2000)}\n`);
  }
  for (const f of findings) f.id = `${f.tool}|${f.source}|${f.file}|${f.line}|${f.rule}`;
  return { source, cwd, files: files.length, scribeFiles, eslintFiles, findings, crashes, configRefused, scribeSeconds: scribe.seconds, eslintSeconds: eslint.seconds, scribeWarnings };
}

/** mulberry32: the same sample for the same seed and findings. */
function random(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Per rule: at least 6 (or all), and more for frequent rules, about SAMPLE_SIZE in all per tool. */
function sample(findings) {
  const next = random(seed);
  const shuffled = [...findings].sort((a, b) => (a.id < b.id ? -1 : 1)).map((f) => ({ f, k: next() })).sort((a, b) => a.k - b.k).map((x) => x.f);
  const byRule = groupBy(shuffled, (f) => f.rule);
  return [...byRule.values()].flatMap((list) => list.slice(0, Math.max(6, Math.round((SAMPLE_SIZE * list.length) / findings.length))));
}

function precisionTable(tool, findings) {
  const counts = groupBy(findings, (f) => f.rule);
  const drawn = groupBy(sample(findings), (f) => f.rule);
  const rows = [];
  let weighted = 0;
  let weight = 0;
  let judged = 0;
  for (const [rule, list] of [...counts].sort((a, b) => b[1].length - a[1].length)) {
    const judgedHere = (drawn.get(rule) ?? []).map((f) => labels[tool]?.[f.id]).filter((l) => l !== undefined);
    const trueOnes = judgedHere.filter((l) => l.ok).length;
    const precision = judgedHere.length > 0 ? trueOnes / judgedHere.length : undefined;
    judged += judgedHere.length;
    if (precision !== undefined) {
      weighted += precision * list.length;
      weight += list.length;
    }
    rows.push(`  ${rule.padEnd(42)} ${String(list.length).padStart(6)}  ${precision === undefined ? '   -' : `${(precision * 100).toFixed(0).padStart(3)}%`} (${trueOnes}/${judgedHere.length} judged)`);
  }
  const overall = weight > 0 ? weighted / weight : undefined;
  return { rows, overall, judged, unjudgedCount: findings.length - [...counts].filter(([rule]) => (drawn.get(rule) ?? []).some((f) => labels[tool]?.[f.id])).reduce((n, [, l]) => n + l.length, 0) };
}

function lineOf(cwd, file, line) {
  try {
    return readFileSync(path.join(cwd, file), 'utf8').split('\n')[line - 1]?.trim().slice(0, 200) ?? '';
  } catch {
    return '';
  }
}

const parts = ['tuning', 'held-out'].filter((p) => !onlyPart || p === onlyPart);
const drawnForLabelling = [];
for (const part of parts) {
  const measuredFile = measuredDir && path.join(measuredDir, `${part}.json`);
  const measured = measuredFile && existsSync(measuredFile)
    ? JSON.parse(readFileSync(measuredFile, 'utf8'))
    : sources.filter((s) => s.part === part).map((source) => {
        process.stderr.write(`${part}: ${source.name}…\n`);
        return measure(source);
      });
  if (measuredFile && !existsSync(measuredFile)) writeFileSync(measuredFile, JSON.stringify(measured));
  const all = measured.flatMap((m) => m.findings);
  const scribe = all.filter((f) => f.tool === 'scribe');
  const eslint = all.filter((f) => f.tool === 'eslint');
  const files = measured.reduce((n, m) => n + m.files, 0);
  const scribeSeconds = measured.reduce((n, m) => n + m.scribeSeconds, 0);
  const eslintSeconds = measured.reduce((n, m) => n + m.eslintSeconds, 0);
  const crashes = measured.reduce((n, m) => n + m.crashes, 0);
  const scribeAt = new Set(scribe.map((f) => `${f.source}|${f.file}|${f.line}|${f.rule}`));
  const refused = measured.filter((m) => m.configRefused).map((m) => m.source.name);
  const missed = eslint.filter((f) => SHARED[f.rule] && !scribeAt.has(`${f.source}|${f.file}|${f.line}|${SHARED[f.rule]}`));
  const scribeFiles = measured.reduce((n, m) => n + m.scribeFiles, 0);
  const eslintFiles = measured.reduce((n, m) => n + m.eslintFiles, 0);
  console.log(`\n=== ${part}: ${measured.length} suites, ${files} spec files (${measured.map((m) => `${m.source.name} ${m.files}`).join(', ')})`);
  console.log(`wall time: scribe validate (type check) ${scribeSeconds.toFixed(1)} s, eslint ${eslintSeconds.toFixed(1)} s (ratio ${(scribeSeconds / eslintSeconds).toFixed(2)})`);
  console.log(`crashes (scribe exit other than 0/1, unreadable report or internal-error findings): ${crashes}`);
  console.log(`files checked: scribe ${scribeFiles}, eslint ${eslintFiles}${scribeFiles === eslintFiles && scribeFiles === files ? ' (the same files)' : ' — NOT THE SAME FILES'}`);
  for (const m of measured.filter((x) => x.scribeFiles !== x.eslintFiles)) console.log(`  ${m.source.name}: scribe ${m.scribeFiles}, eslint ${m.eslintFiles} of ${m.files}`);
  if (refused.length > 0) console.log(`Playwright config refused here (exit 2, a configuration error: its imports are not installed), validated with Playwright's defaults (-c an empty config): ${refused.join(', ')}`);
  for (const m of measured) for (const w of m.scribeWarnings) console.log(`scribe warning (${m.source.name}): ${w}`);
  for (const [tool, findings] of [['scribe', scribe], ['eslint', eslint]]) {
    const table = precisionTable(tool, findings);
    console.log(`\n${tool}: ${findings.length} findings; precision over all findings ${table.overall === undefined ? '-' : `${(table.overall * 100).toFixed(1)}%`} (${table.judged} judged)`);
    console.log(`  ${'rule'.padEnd(42)} ${'count'.padStart(6)}  precision`);
    for (const row of table.rows) console.log(row);
  }
  console.log(`\nshared rules: eslint findings with no Scribe finding of the same rule at the same line: ${missed.length}`);
  // Up to 20 of each rule, so a rule with few misses is not hidden behind one with many; an eslint finding
  // judged false by hand (labels.json, with why) is not a miss of Scribe's, one judged true is.
  const missedByRule = groupBy(missed, (f) => f.rule);
  for (const [rule, list] of missedByRule) {
    const falseForEslint = list.filter((f) => labels.eslint?.[f.id]?.ok === false);
    const trueForEslint = list.filter((f) => labels.eslint?.[f.id]?.ok === true);
    console.log(`  ${rule}: ${list.length} (${falseForEslint.length} judged false for eslint, ${trueForEslint.length} judged true, ${list.length - falseForEslint.length - trueForEslint.length} not judged)`);
    for (const f of list.slice(0, 20)) {
      const label = labels.eslint?.[f.id];
      console.log(`    ${f.source}/${f.file}:${f.line} ${lineOf(measured.find((m) => m.source.name === f.source).cwd, f.file, f.line)}${label ? `  [${label.ok ? 'true' : 'false'}: ${label.why}]` : ''}`);
    }
  }
  // What "Scribe finds at least what eslint finds" asks: per shared rule, eslint's findings judged true that Scribe
  // has no finding for at the same line, and how many of eslint's findings Scribe lacks are not judged yet.
  console.log(`\nshared rules: eslint's true findings Scribe misses (judged by hand; should be 0)`);
  for (const [eslintRule, scribeRule] of Object.entries(SHARED)) {
    const list = missedByRule.get(eslintRule) ?? [];
    const trueOnes = list.filter((f) => labels.eslint?.[f.id]?.ok === true);
    const unjudged = list.filter((f) => labels.eslint?.[f.id] === undefined);
    if (list.length === 0 && !eslint.some((f) => f.rule === eslintRule)) continue;
    console.log(`  ${scribeRule.padEnd(30)} ${String(trueOnes.length).padStart(4)} missed${unjudged.length > 0 ? ` (${unjudged.length} of eslint's findings Scribe lacks not judged)` : ''}`);
  }
  // The misses are judged too (are they true for eslint, so Scribe should find them?): a fixed-seed draw of
  // MISSED_SAMPLE of each shared rule's misses, besides the ones already labelled.
  const missedDrawn = [...groupBy(missed, (f) => f.rule).values()].flatMap((list) => sample(list).slice(0, MISSED_SAMPLE));
  for (const f of [...sample(scribe), ...sample(eslint), ...missedDrawn]) {
    const cwd = measured.find((m) => m.source.name === f.source).cwd;
    if (drawnForLabelling.some((d) => d.id === f.id)) continue;
    drawnForLabelling.push({ id: f.id, part, message: f.message, code: lineOf(cwd, f.file, f.line), label: labels[f.tool]?.[f.id] });
  }
}
if (sampleFile) {
  writeFileSync(sampleFile, `${JSON.stringify(drawnForLabelling, null, 2)}\n`);
  console.log(`\n${drawnForLabelling.length} sampled findings written to ${sampleFile} (${drawnForLabelling.filter((d) => !d.label).length} unlabelled)`);
}
rmSync(path.dirname(defaultsConfig), { recursive: true, force: true });
