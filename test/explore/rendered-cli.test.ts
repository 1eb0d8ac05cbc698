/**
 * `scribe generate` on a page that never renders anything to act on, through the real CLI and a real
 * Chromium: the explorer waits its bound, then says the page shows nothing to act on (the terminal's
 * progress), and stays quiet about it under --json.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveDirectory, type StaticServer } from '../../src/demo-app/static-server.ts';
import { runCli } from '../commands/harness.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';

let app: StaticServer;
let project: ScribeProject;

beforeAll(async () => {
  app = await serveDirectory(fileURLToPath(new URL('../fixtures/late-render-app/', import.meta.url)));
});
afterAll(() => app.close());
afterEach(() => project.remove());

describe('scribe generate: a page that shows nothing to act on', { timeout: 180_000 }, () => {
  it('says so on the terminal after waiting its bound', async () => {
    project = makeScribeProject({ 'explore.render_wait_ms': 500, 'explore.max_pages': 1 });
    const run = await runCli(['generate', 'log in and see the flows', '--url', `${app.url}/blank.html`, '--provider', 'offline', '--no-run'], { env: project.env('http://127.0.0.1:9'), cwd: project.dir });
    expect(run.stderr + run.stdout).toContain(`${app.url}/blank.html still shows nothing to act on (no link, button, field or test id) 0.5 s after it loaded`);
  });
});
