/**
 * Hostile model answers through the whole pipeline (`generateSpec` with a scripted model on 127.0.0.1,
 * against the demo app): the model answers the same hostile spec on every attempt. The host is checked
 * afterwards — no marker under /tmp/scribe-hostile, no request at all to the listener, no spec written, no
 * host file's text or project session in any request to the model — and the gate's finding is asserted.
 * bench/hostile-pipeline.ts runs the whole corpus this way; bench/containment.ts runs it past the gate.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateSpec } from '../../src/workflow/pipeline.ts';
import { startDemoApp, DEMO_ACCOUNT, type DemoApp } from '../../src/demo-app/server.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { fenced } from '../fixtures/model-answers.ts';
import { makeScribeProject } from '../fixtures/scribe-project.ts';

const HOSTILE = fileURLToPath(new URL('../fixtures/hostile/', import.meta.url));
const MARKERS = '/tmp/scribe-hostile';
const SECRET = 'sk-hostile-pipeline-key-20c4';
/**
 * One of each kind of payload: host code, load-time code, the browser executable, a secret sent out, a file
 * written out, a host file read; then the gate's own blind spots (issue 24): an element-access call, a
 * protocol-relative URL, the runner's configuration, a project data file, a redefined matcher, a getter run
 * at load time, a credential handed to the page.
 */
const SAMPLE = [
  '01-process-getbuiltinmodule', '14-top-level-code', '18-use-launchoptions-sh', '23-request-api-key', '28-screenshot-parent-path', '34-goto-file-join',
  '102-element-access-new-context-base-url', '105-protocol-relative-goto', '113-test-info-project-use', '115-import-auth-state-json',
  '118-expect-extend-redefine-builtin', '120-spread-getter-load-time', '130-credential-btoa-evaluate',
];
/** A session a project keeps beside its specs (playwright/.auth/user.json): it never reaches the model. */
const SESSION = 'session-cookie-pipeline-9b2e';

let fake: FakeOpenAI;
let app: DemoApp;
let listener: Server;
const seen: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  app = await startDemoApp();
  listener = createServer((req, res) => {
    seen.push(req.url ?? '');
    req.resume().on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await fake.close();
  await app.close();
  listener.close();
  rmSync(MARKERS, { recursive: true, force: true });
});
beforeEach(() => {
  rmSync(MARKERS, { recursive: true, force: true });
  seen.length = 0;
  fake.requests.length = 0;
});

describe('hostile model answers through the pipeline', () => {
  it.each(SAMPLE)('%s: the gate refuses every attempt, nothing runs, nothing reaches the host or the model', async (name) => {
    const sink = `127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const text = readFileSync(path.join(HOSTILE, `${name}.spec.ts`), 'utf8').replaceAll('127.0.0.1:9', sink);
    const rule = /\/\/ gate: ([a-z-]+)$/m.exec(text)![1]!;
    const project = makeScribeProject();
    mkdirSync(path.join(project.dir, 'playwright', '.auth'), { recursive: true });
    writeFileSync(path.join(project.dir, 'playwright', '.auth', 'user.json'), JSON.stringify({ cookies: [{ name: 'sid', value: SESSION }], origins: [] }));
    try {
      fake.reply({ text: fenced(text) }, { text: fenced(text) }, { text: fenced(text) });
      const env = { ...project.env(fake.url), OPENAI_API_KEY: SECRET, E2E_USERNAME: DEMO_ACCOUNT.username, E2E_PASSWORD: DEMO_ACCOUNT.password };
      const { document, exitCode } = await generateSpec({ description: 'log in with valid credentials and see the dashboard', feature: 'login', url: `${app.url}/login` }, { cwd: project.dir, env });

      expect(exitCode).toBe(1);
      expect(document).toMatchObject({ success: false, testPath: null, runner: null, attempts: 3 });
      expect(document.issues.map((issue) => issue.rule)).toContain(rule);
      expect(fake.pending()).toBe(0);
      expect(existsSync(MARKERS) ? readdirSync(MARKERS) : []).toEqual([]);
      expect(seen).toEqual([]);
      expect(existsSync(path.join(project.dir, 'generated-tests'))).toBe(false);
      const toModel = JSON.stringify(fake.requests.map((r) => r.body));
      expect(toModel).not.toContain(SECRET);
      expect(toModel).not.toContain(SESSION);
      // The payload that reads /etc/hostname: its text (when long enough not to occur by chance) never reaches the model.
      const hostText = (existsSync('/etc/hostname') ? readFileSync('/etc/hostname', 'utf8').trim() : '') || hostname();
      if (hostText.length >= 6) expect(toModel).not.toContain(hostText);
    } finally {
      project.remove();
    }
    // A whole generation (explore, three attempts): slow on a loaded machine, never a measure of anything.
  }, 300_000);
});
