/**
 * What the explorer says on the terminal, through the real CLI and a real Chromium: a page that never
 * renders anything to act on is named once the wait is over; a start page that asks for a password, with
 * no storage state to sign in with, is named with what was not explored behind it.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApp, type DemoApp } from '../../src/demo-app/server.ts';
import { serveDirectory, type StaticServer } from '../../src/demo-app/static-server.ts';
import { runCli } from '../commands/harness.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';

let app: StaticServer;
let demo: DemoApp;
let project: ScribeProject;

beforeAll(async () => {
  [app, demo] = await Promise.all([serveDirectory(fileURLToPath(new URL('../fixtures/late-render-app/', import.meta.url))), startDemoApp()]);
});
afterAll(() => Promise.all([app.close(), demo.close()]));
afterEach(() => project.remove());

describe('scribe generate: a page that shows nothing to act on', { timeout: 180_000 }, () => {
  it('says so on the terminal after waiting its bound', async () => {
    project = makeScribeProject({ 'explore.render_wait_ms': 500, 'explore.max_pages': 1 });
    const run = await runCli(['generate', 'log in and see the flows', '--url', `${app.url}/blank.html`, '--provider', 'offline', '--no-run'], { env: project.env('http://127.0.0.1:9'), cwd: project.dir });
    expect(run.stderr + run.stdout).toContain(`${app.url}/blank.html still shows nothing to act on (no link, button, field or test id) 0.5 s after it loaded`);
  });

  it('says when the start page is a sign-in page and nothing signed it in: the pages behind it were not explored', async () => {
    project = makeScribeProject({ 'explore.max_pages': 1 });
    const run = await runCli(['generate', 'log in and see the dashboard', '--url', `${demo.url}/login`, '--provider', 'offline', '--no-run'], { env: project.env('http://127.0.0.1:9'), cwd: project.dir });
    expect(run.stderr + run.stdout).toContain(
      `${demo.url}/login is a sign-in page and there is no storage state, no setup project, and the declared credentials (E2E_USERNAME, E2E_PASSWORD) are not set: the pages behind the login were not explored`,
    );
  });
});
