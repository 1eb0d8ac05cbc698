/**
 * The library's Scribe: the Scribe agent (its attempt loop, `generate`) with the library's one call,
 * `execute`, which runs the whole pipeline as `scribe generate` does (Scribe, the Critic, the Runner when
 * an app URL is known, the Medic, then the spec store) and answers with an AgentResult. The agent itself
 * cannot run the pipeline: the stages sit below the workflow that joins them.
 *
 * The options of the attempt loop alone (stream, typeCheck, autofix, inventory) do not reach `execute`:
 * the pipeline settles those from the project and the page it explores.
 */
import path from 'node:path';
import { Scribe as ScribeAgent, type ScribeOptions } from './agents/scribe.ts';
import { loadCriticConfig } from './config/critic.ts';
import { loadScribeConfig } from './config/scribe.ts';
import type { AgentResult, ScribeTask } from './contracts.ts';
import { loadProject, type ProjectContext } from './project/context.ts';
import { generateSpec, type GenerateRequest, type PipelineResult } from './workflow/pipeline.ts';

export interface LibraryScribeOptions extends Omit<ScribeOptions, 'config' | 'critic'>, Partial<Pick<ScribeOptions, 'config' | 'critic'>> {
  /**
   * The project, read once (loadProject): `execute` works in it, with `config`, `critic` and `offline`,
   * where given, in place of its own. Default: read from cwd and env when `execute` first needs it.
   */
  project?: ProjectContext;
  /** Overwrite an existing spec. */
  force?: boolean;
  /** Run the spec against the app (default true; needs the task's URL or the project's base URL). */
  run?: boolean;
}

export class Scribe extends ScribeAgent {
  private readonly given: LibraryScribeOptions;
  private project: Promise<ProjectContext> | undefined;

  constructor(options: LibraryScribeOptions = {}) {
    // The attempt loop works from the project's folder and agents too, unless told otherwise.
    const project = options.project;
    super({
      ...options,
      cwd: options.cwd ?? project?.cwd,
      env: options.env ?? project?.env,
      // The agent takes its configuration; the library loads the bundled one when neither is given.
      config: options.config ?? project?.agents.scribe ?? loadScribeConfig(),
      critic: options.critic ?? project?.agents.critic ?? loadCriticConfig(),
      offline: options.offline ?? project?.agents.offline,
    });
    this.given = options;
  }

  /**
   * Generates a spec through the whole pipeline and writes it only once the Critic approved it and (with
   * an app URL) it ran green; `data.testPath` is where it was written, or kept for review when it was not
   * accepted. `metadata` holds `attemptsUsed`, `finalIssues`, the pipeline's exit code and the Critic's
   * verdict, the run, the stage timings and the project's warnings of the `generate --json` document.
   */
  async execute(task: ScribeTask): Promise<AgentResult> {
    const project = await this.projectToWorkIn();
    const { provider, stats, reporter, validator } = this.given;
    const result = await generateSpec(this.requestOf(task), { cwd: project.cwd, env: this.env, project, provider, stats, reporters: [reporter], validator });
    return agentResultOf(result, project.cwd);
  }

  private requestOf(task: ScribeTask): GenerateRequest {
    const { providerName, force, run, selfValidation } = this.given;
    return { description: task.taskDescription, feature: task.featureName, outputPath: task.outputPath, url: task.url, complexity: task.complexity, provider: providerName, force, run, selfValidation };
  }

  /** The project with the agents this Scribe was given in place of its own. */
  private projectToWorkIn(): Promise<ProjectContext> {
    this.project ??= (async () => {
      const project = this.given.project ?? (await loadProject({ cwd: this.cwd, env: this.env, provider: this.given.providerName }));
      const { config, critic, offline } = this.given;
      const agents = { ...project.agents, scribe: config ?? project.agents.scribe, critic: critic ?? project.agents.critic, offline: offline ?? project.agents.offline };
      return { ...project, agents };
    })();
    return this.project;
  }
}

/** The pipeline's outcome as the library's AgentResult (src/contracts.ts); the spec's path absolute, as the library's callers read it. */
function agentResultOf({ document, exitCode }: PipelineResult, cwd: string): AgentResult {
  const { success, testPath, attempts, issues, error, ...evidence } = document;
  return {
    success,
    ...(testPath === null ? {} : { data: { testPath: path.resolve(cwd, testPath) } }),
    ...(error === null ? {} : { error }),
    metadata: { attemptsUsed: attempts, finalIssues: issues, exitCode, ...evidence },
  };
}
