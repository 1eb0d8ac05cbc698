/**
 * The whole Test-Fix cycle end to end: a scripted model, the real validator, Critic, Runner (Playwright and
 * Chromium against a page on 127.0.0.1) and Medic, walked through agents/workflow.yaml.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRITIC_PATH } from '../../src/config/critic.ts';
import { StatsLog } from '../../src/stats/log.ts';
import { computeStats } from '../../src/stats/aggregate.ts';
import { generateSpec, type GenerateRequest } from '../../src/workflow/pipeline.ts';
import { progressReporter } from '../../src/workflow/progress-reporter.ts';
import type { PipelineEvent } from '../../src/contracts.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { chatty, fenced, STRICT_MODE, STRICT_MODE_DROPPED, STRICT_MODE_HEALED, STRICT_MODE_LINE, STRICT_MODE_LOOSENED } from '../fixtures/model-answers.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { serveDirectory, type StaticServer } from '../../src/demo-app/static-server.ts';
import { closedUrl } from '../fixtures/closed-url.ts';

const medicApp = fileURLToPath(new URL('../fixtures/medic-app/', import.meta.url));

const FAILING = STRICT_MODE;
const FAILING_LINE = STRICT_MODE_LINE;
const HEALED = STRICT_MODE_HEALED;
const DROPPED = STRICT_MODE_DROPPED;
const LOOSENED = STRICT_MODE_LOOSENED;
/** Clicks Home and expects Dashboard: an assertion on a real element that fails, an app bug. */
const WRONG_TEXT = FAILING.replace(FAILING_LINE, "await page.getByTestId('nav-link').filter({ hasText: 'Home' }).click();");

const REQUEST: GenerateRequest = { description: 'open the dashboard from the navigation', feature: 'Navigation' };
const TARGET = path.join('generated-tests', 'navigation', 'open-the-dashboard-from-the-navigation.spec.ts');

let fake: FakeOpenAI;
let app: StaticServer;
let project: ScribeProject;
let events: PipelineEvent[];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  app = await serveDirectory(medicApp);
});
afterAll(async () => {
  await fake.close();
  await app.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  project = makeScribeProject();
  events = [];
});
afterEach(() => project.remove());

function generate(request: Partial<GenerateRequest> = {}) {
  return generateSpec({ ...REQUEST, url: app.url, ...request }, { cwd: project.dir, env: project.env(fake.url), reporters: [progressReporter(project.dir, (e) => events.push(e))] });
}

const stages = () => events.filter((e) => e.status === 'done' || e.status === 'failed').map((e) => `${e.stage}:${e.status}`);
const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const read = (file: string) => readFileSync(path.join(project.dir, file), 'utf8');

describe('the Test-Fix cycle', () => {
  it('shows each heal round its own run: the second fix request carries the second run’s error, not the first', async () => {
    // The first heal fixes the strict-mode violation but misspells the link's text: a different test bug.
    const misspelled = STRICT_MODE_HEALED.replace("hasText: 'Dashboard'", "hasText: 'Dashbord'");
    fake.reply({ text: fenced(FAILING) }, { text: fenced(misspelled) }, { text: fenced(HEALED) });
    const { document, exitCode } = await generate();

    expect(exitCode).toBe(0);
    expect(document.runner).toMatchObject({ classification: 'pass' });
    expect(stages()).toEqual(['explore:done', 'scribe:done', 'critic:done', 'run:failed', 'medic:done', 'critic:done', 'run:failed', 'medic:done', 'critic:done', 'run:done', 'proof:done', 'write:done']);
    const fixRequest = (n: number) => fake.requests[n]!.body.messages!.map((m) => m.content).join('\n');
    expect(fixRequest(1)).toContain('strict mode violation');
    expect(fixRequest(1)).not.toContain('Dashbord');
    // The second round shows the spec that ran last and the error of that run.
    expect(fixRequest(2)).toContain("hasText: 'Dashbord'");
    expect(fixRequest(2)).not.toContain('strict mode violation');
    expect(fixRequest(2)).toMatch(/Timeout|waiting for/);
    expect(read(TARGET)).toBe(HEALED);
  });

  it('heals a strict-mode violation in one Medic round, from the Runner’s error, and writes the healed spec', async () => {
    fake.reply({ text: chatty(FAILING) }, { text: `Narrow the link by its text.\n\n${fenced(HEALED)}` });
    const { document, exitCode } = await generate();

    expect(exitCode).toBe(0);
    expect(document).toMatchObject({ success: true, testPath: TARGET, attempts: 1, error: null });
    expect(document.runner).toMatchObject({ status: 'pass', classification: 'pass' });
    expect(document.critic).toMatchObject({ status: 'approved' });
    expect(stages()).toEqual(['explore:done', 'scribe:done', 'critic:done', 'run:failed', 'medic:done', 'critic:done', 'run:done', 'proof:done', 'write:done']);
    // The fix request carries the Runner's evidence.
    const fixRequest = fake.requests[1]!.body.messages!.map((m) => m.content).join('\n');
    expect(fixRequest).toContain('strict mode violation');
    expect(fixRequest).toContain(FAILING_LINE);
    expect(read(TARGET)).toBe(HEALED);
    const provenance = JSON.parse(read(TARGET.replace('.spec.ts', '.provenance.json')));
    expect(provenance).toMatchObject({ status: 'accepted', runner: { classification: 'pass' }, critic: { status: 'approved' } });
    // Each stage's time, in the document and the provenance record: both runs and the heal are in it.
    const timings = document.timings_ms!;
    for (const stage of ['explore', 'scribe', 'critic', 'run', 'medic']) expect(timings[stage], stage).toBeGreaterThan(0);
    expect(timings.total).toBeGreaterThanOrEqual(timings.explore! + timings.scribe! + timings.critic! + timings.run! + timings.medic!);
    expect(timings.run).toBeGreaterThanOrEqual(document.runner!.duration_ms);
    expect(Object.keys(provenance.timings_ms)).toEqual(expect.arrayContaining(['explore', 'scribe', 'critic', 'run', 'medic', 'total']));

    const stats = computeStats(new StatsLog(project.home).read());
    expect(stats).toMatchObject({ heal_attempts: 1, heal_successes: 1, weakening_heals_refused: 0 });
    expect(stats.runner_pass_rate).toBe(0.5);
  });

  it('refuses every heal that drops or loosens the assertion, exits 1, and writes no weakened spec', async () => {
    fake.reply({ text: chatty(FAILING) }, { text: fenced(DROPPED) }, { text: fenced(LOOSENED) }, { text: fenced(DROPPED) });
    const { document, exitCode } = await generate();

    expect(exitCode).toBe(1);
    expect(document.success).toBe(false);
    expect(fake.requests).toHaveLength(4);
    expect(events.filter((e) => e.stage === 'medic' && e.status === 'failed')).toHaveLength(3);
    expect(existsSync(path.join(project.dir, TARGET))).toBe(false);
    // The best validated spec is kept for a person, outside Playwright's testMatch, with the assertion intact.
    const kept = document.testPath!;
    expect(kept).toMatch(/\.needs-review\.ts$/);
    expect(read(kept)).toBe(FAILING);
    expect(document.error).toMatch(/needs human review: still failing after 3 heal attempts/);
    for (const file of filesIn(path.join(project.dir, path.dirname(TARGET)))) expect(read(path.join(path.dirname(TARGET), file))).not.toContain('toBeVisible');
    expect(computeStats(new StatsLog(project.home).read())).toMatchObject({ heal_attempts: 3, weakening_heals_refused: 3, heal_successes: 0 });
  });

  it('reports an app bug as a possible regression without healing it', async () => {
    fake.reply({ text: chatty(WRONG_TEXT) });
    const { document, exitCode } = await generate();

    expect(exitCode).toBe(1);
    expect(document.runner).toMatchObject({ status: 'fail', classification: 'app_bug' });
    expect(document.error).toMatch(/^possible regression/);
    expect(fake.requests).toHaveLength(1);
    expect(events.some((e) => e.stage === 'medic')).toBe(false);
    expect(existsSync(path.join(project.dir, TARGET))).toBe(false);
    expect(read(document.testPath!)).toBe(WRONG_TEXT);
  });

  it('keeps the validated spec as not run when the app is unreachable, overwriting nothing', async () => {
    const url = await closedUrl();
    const existing = path.join(project.dir, path.dirname(TARGET), 'other.spec.ts');
    mkdirSync(path.dirname(existing), { recursive: true });
    writeFileSync(existing, '// a spec someone owns\n');
    fake.reply({ text: chatty(HEALED) });
    const { document, exitCode } = await generate({ url });

    expect(exitCode).toBe(1);
    expect(document.runner).toMatchObject({ classification: 'environment' });
    expect(document.testPath).toMatch(/\.not-run\.ts$/);
    expect(read(document.testPath!)).toBe(HEALED);
    const provenance = JSON.parse(read(document.testPath!.replace(/\.ts$/, '.provenance.json')));
    expect(provenance).toMatchObject({ status: 'not_run' });
    expect(provenance.note).toMatch(/environment/);
    expect(readFileSync(existing, 'utf8')).toBe('// a spec someone owns\n');
    expect(events.some((e) => e.stage === 'medic')).toBe(false);
  });

  it('--no-run stops after the Critic', async () => {
    fake.reply({ text: chatty(HEALED) });
    const { document, exitCode } = await generate({ run: false });
    expect(exitCode).toBe(0);
    expect(document).toMatchObject({ success: true, testPath: TARGET, runner: null, critic: { status: 'approved' } });
    expect(stages()).not.toContain('run:done');
  });

  it('sends a Critic rejection back to Scribe with the reasons, and never runs the rejected spec', async () => {
    const critic = readFileSync(DEFAULT_CRITIC_PATH, 'utf8').replace(/review:\n  enabled: false/, 'review:\n  enabled: true');
    writeFileSync(path.join(project.dir, 'agents', 'critic.yaml'), critic);
    const fail = JSON.stringify({ verdict: 'fail', reason: 'it never checks the dashboard heading', missing: ['dashboard heading'] });
    const pass = JSON.stringify({ verdict: 'pass', reason: 'checks the dashboard', missing: [] });
    fake.reply({ text: chatty(HEALED) }, { text: fail }, { text: chatty(HEALED) }, { text: pass });
    const { document, exitCode } = await generate({ run: false });

    expect(exitCode).toBe(0);
    expect(document.critic).toMatchObject({ status: 'approved' });
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests[2]!.body.messages!.at(-1)!.content).toContain('it never checks the dashboard heading');
    expect(stages()).toEqual(['explore:done', 'scribe:done', 'critic:failed', 'scribe:done', 'critic:done', 'write:done']);
  });
});
