import type { Command } from 'commander';
import pc from 'picocolors';
import { chooseProviderName } from '../llm/provider.ts';
import { readStats } from '../stats/index.ts';
import { DEMO_REQUESTS, runDemo, type DemoRun } from '../workflow/demo.ts';
import type { CliContext } from './context.ts';
import { createProgress } from './progress.ts';
import { printable } from '../util/terminal.ts';

export function registerDemo(program: Command, ctx: CliContext): void {
  program
    .command('demo')
    .description('start the bundled demo app and generate, check and run specs for three requests, in a temporary project of its own')
    .action(() => demo(ctx));
}

async function demo(ctx: CliContext): Promise<void> {
  const c = pc.createColors(ctx.stdout.isTTY === true);
  const progress = createProgress(ctx, false);
  const provider = chooseProviderName(ctx.env);
  ctx.stdout.write(`${c.bold('Scribe demo')}: ${DEMO_REQUESTS.length} requests, ${provider === 'offline' ? 'the offline generator (no model configured)' : 'the configured model'}\n`);
  let run: DemoRun;
  try {
    run = await runDemo({
      env: ctx.env,
      onStart: (request, index, url) => progress.info(`${index + 1}/${DEMO_REQUESTS.length} "${request.description}" on ${url}${request.path}`),
      onEvent: (event) => {
        if (event.status === 'started') progress.start(`${event.stage}: ${event.message}`);
        else if (event.status === 'done') progress.succeed(`${event.stage}: ${event.message}`);
        else if (event.status === 'failed') progress.fail(`${event.stage}: ${event.message}`);
        else progress.info(`${event.stage}: ${event.message}`);
      },
    });
  } finally {
    progress.stop();
  }

  const { outcomes } = run;
  ctx.stdout.write(`\n${c.bold('Summary')}\n`);
  for (const { request, document } of outcomes) {
    const mark = document.success ? c.green('✔') : c.red('✖');
    const errors = document.issues.filter((i) => i.severity === 'error').length;
    const warnings = document.issues.length - errors;
    ctx.stdout.write(`${mark} ${request.description}\n`);
    ctx.stdout.write(`    spec    ${document.testPath ?? '(none)'}\n`);
    ctx.stdout.write(`    rules   ${errors === 0 ? 'passed' : `${errors} errors`}${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''} after ${document.attempts} attempt${document.attempts === 1 ? '' : 's'}\n`);
    if (document.critic) ctx.stdout.write(`    critic  ${document.critic.status} (estimated ${(document.critic.estimated_duration_ms / 1000).toFixed(1)} s a run)\n`);
    if (document.runner) ctx.stdout.write(`    run     ${document.runner.classification} in ${(document.runner.duration_ms / 1000).toFixed(1)} s\n`);
    if (document.error) ctx.stdout.write(`    error   ${printable(document.error)}\n`);
  }

  const stats = readStats(run.env, run.dir);
  ctx.stdout.write(
    `\n${c.bold('Statistics')} (the demo's generations; scribe stats in the demo project for more)\n` +
      `    validation attempts ${stats.validation_attempts}, success rate ${stats.success_rate}, first-attempt pass rate ${stats.first_attempt_pass_rate}\n` +
      `    critic rejection rate ${stats.critic_rejection_rate}, runner pass rate ${stats.runner_pass_rate}\n`,
  );
  const passed = outcomes.filter((o) => o.document.success).length;
  ctx.stdout.write(`\n${c.bold('Demo project')} ${printable(run.dir)} (kept for you to look at; this folder was left untouched)\n`);
  ctx.stdout.write(`\n${passed === outcomes.length ? c.green(`All ${passed} specs passed the rules, the Critic and a real run.`) : c.red(`${outcomes.length - passed} of ${outcomes.length} requests failed.`)}\n`);
  ctx.exitCode = passed === outcomes.length ? 0 : 1;
}
