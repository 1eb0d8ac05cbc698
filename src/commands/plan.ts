import path from 'node:path';
import type { Command } from 'commander';
import { loadProject } from '../project/context.ts';
import { StatsLog } from '../stats/log.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { isMarkdownPlan, renderPlan } from '../workflow/plan-file.ts';
import { signInLine } from '../workflow/explore-signed-in.ts';
import { PlanError, planTests } from '../workflow/plan.ts';
import { printWarnings, UsageError, type CliContext } from './context.ts';
import { withWebServerInterruptibly } from './serving.ts';
import { createProgress } from './progress.ts';
import { appUrl } from './run.ts';

interface PlanFlags {
  url?: string;
  out?: string;
  json?: boolean;
}

export function registerPlan(program: Command, ctx: CliContext): void {
  program
    .command('plan')
    .description('explore the app and write a test plan: scenarios, each a request `generate --plan` can take')
    .option('--url <url>', "where to start exploring (default: BASE_URL, else the Playwright config's use.baseURL)")
    .option('--out <file>', 'where to write the plan: .md for Markdown, else YAML (default: print it)')
    .option('--json', 'print the plan as one JSON document')
    .action((flags: PlanFlags) => runPlan(flags, ctx));
}

async function runPlan(flags: PlanFlags, ctx: CliContext): Promise<void> {
  if (flags.out !== undefined && !/\.(ya?ml|md|markdown)$/i.test(flags.out)) throw new UsageError(`--out ${flags.out}: a plan is .yaml, .yml or .md`);
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  const url = appUrl(flags.url, project.baseURL);
  if (!flags.json) printWarnings(ctx, project.warnings);
  const progress = createProgress(ctx, flags.json === true);
  let plan;
  try {
    progress.start(`planning tests for ${url}`);
    const planning = (signal: AbortSignal) => planTests({ project, url, stats: StatsLog.at(ctx.env, ctx.cwd), signal, onProgress: (message) => progress.start(message), onSignIn: (signIn) => progress.info(signInLine(signIn)) });
    // The app as `npx playwright test` has it: the config's webServer started (or reused) for the exploring.
    plan = await withWebServerInterruptibly(project, (note) => progress.info(note), planning);
  } catch (error) {
    progress.fail();
    if (error instanceof PlanError) {
      ctx.stderr.write(`scribe: ${error.message}\n`);
      ctx.exitCode = 1;
      return;
    }
    throw error;
  } finally {
    progress.stop();
  }
  const summary = `${plan.scenarios.length} scenarios by ${plan.planner}; ${plan.unreachable.length} page${plan.unreachable.length === 1 ? '' : 's'} not reached`;
  if (flags.out) {
    const file = path.resolve(ctx.cwd, flags.out);
    writeFileAtomic(file, renderPlan(plan, isMarkdownPlan(file)));
    progress.succeed(`${summary}: ${path.relative(ctx.cwd, file)}`);
  }
  if (flags.json) ctx.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  else if (!flags.out) ctx.stdout.write(renderPlan(plan, true));
  else ctx.stdout.write(`${path.relative(ctx.cwd, path.resolve(ctx.cwd, flags.out))}\n`);
}
