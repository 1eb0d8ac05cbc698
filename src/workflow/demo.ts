/**
 * The demo: the bundled app on a free loopback port, three requests through the whole pipeline
 * (the offline generator unless a model is configured), and what became of each. It runs in a project
 * of its own, a fresh temporary folder with the bundled settings and its own statistics, so the folder
 * it is started from (a user's Playwright project, with its config, setup projects and agents/) is
 * neither read nor written.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GenerateResult } from '../contracts.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../demo-app/server.ts';
import { loadProject } from '../project/context.ts';
import { generateSpec } from './pipeline.ts';
import { progressReporter } from './progress-reporter.ts';
import type { PipelineEvent } from '../contracts.ts';

export interface DemoRequest {
  description: string;
  feature: string;
  /** The page the request starts on. */
  path: string;
}

export const DEMO_REQUESTS: readonly DemoRequest[] = [
  { description: 'log in with valid credentials and see the dashboard', feature: 'demo login', path: '/login' },
  { description: 'add a todo "Water the plants" and see it in the list', feature: 'demo todos', path: '/todos' },
  { description: 'search for playwright and see results', feature: 'demo search', path: '/search' },
];

export interface DemoOutcome {
  request: DemoRequest;
  document: GenerateResult;
  exitCode: number;
}

export interface DemoOptions {
  /** The caller's environment: its model settings are used; its SCRIBE_HOME is not (the demo keeps its own). */
  env: NodeJS.ProcessEnv;
  onStart?: (request: DemoRequest, index: number, appUrl: string) => void;
  onEvent?: (event: PipelineEvent) => void;
}

export interface DemoRun {
  /** The demo's own project, kept afterwards: its specs in generated-tests/, its statistics in .scribe/. */
  dir: string;
  /** The environment its generations ran with (SCRIBE_HOME is the demo's .scribe/), for reading its statistics. */
  env: NodeJS.ProcessEnv;
  outcomes: DemoOutcome[];
}

/** Runs every demo request against a fresh demo app, in a new temporary project of its own. */
export async function runDemo(options: DemoOptions): Promise<DemoRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'scribe-demo-'));
  const home = { ...options.env, SCRIBE_HOME: path.join(dir, '.scribe') };
  const project = await loadProject({ cwd: dir, env: home });
  const credentials = project.agents.offline.credentials;
  // The specs read the account from the environment, never from literals.
  const env = { ...home, [credentials.username_env]: DEMO_ACCOUNT.username, [credentials.password_env]: DEMO_ACCOUNT.password };
  const app = await startDemoApp();
  try {
    const outcomes: DemoOutcome[] = [];
    for (const [index, request] of DEMO_REQUESTS.entries()) {
      options.onStart?.(request, index, app.url);
      const { document, exitCode } = await generateSpec(
        { description: request.description, feature: request.feature, url: `${app.url}${request.path}`, force: true },
        { cwd: dir, env, project: { ...project, env }, reporters: [options.onEvent && progressReporter(dir, options.onEvent, 'the terminal')] },
      );
      outcomes.push({ request, document, exitCode });
    }
    return { dir, env: home, outcomes };
  } finally {
    await app.close();
  }
}
