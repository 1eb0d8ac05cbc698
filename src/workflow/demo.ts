/**
 * The demo: the bundled app on a free loopback port, three requests through the whole pipeline
 * (the offline generator unless a model is configured), and what became of each.
 */
import type { GenerateResult } from '../contracts.ts';
import { DEMO_ACCOUNT, startDemoApp } from '../demo-app/server.ts';
import { loadProject } from '../project/context.ts';
import { generateSpec } from './pipeline.ts';
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
  cwd: string;
  env: NodeJS.ProcessEnv;
  onStart?: (request: DemoRequest, index: number, appUrl: string) => void;
  onEvent?: (event: PipelineEvent) => void;
}

/** Runs every demo request against a fresh demo app; the specs land in generated-tests/ (replacing the demo's own). */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome[]> {
  const project = await loadProject({ cwd: options.cwd, env: options.env });
  const credentials = project.agents.offline.credentials;
  // The specs read the account from the environment, never from literals.
  const env = { ...options.env, [credentials.username_env]: DEMO_ACCOUNT.username, [credentials.password_env]: DEMO_ACCOUNT.password };
  const app = await startDemoApp();
  try {
    const outcomes: DemoOutcome[] = [];
    for (const [index, request] of DEMO_REQUESTS.entries()) {
      options.onStart?.(request, index, app.url);
      const { document, exitCode } = await generateSpec(
        { description: request.description, feature: request.feature, url: `${app.url}${request.path}`, force: true },
        { cwd: options.cwd, env, project: { ...project, env }, onEvent: options.onEvent },
      );
      outcomes.push({ request, document, exitCode });
    }
    return outcomes;
  } finally {
    await app.close();
  }
}
