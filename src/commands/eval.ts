import type { Command } from 'commander';
import path from 'node:path';
import { loadProject } from '../project/context.ts';
import { runEval, loadEvalRequests, type EvalReport } from '../workflow/eval.ts';
import type { CliContext } from './context.ts';
import { playwrightChoice, withPlaywrightOptions, type PlaywrightFlags } from './options.ts';
import { createProgress } from './progress.ts';
import { withWebServerInterruptibly } from './serving.ts';

interface EvalFlags extends PlaywrightFlags {
  url?: string;
  selfValidation: boolean;
  json?: boolean;
}

export function registerEval(program: Command, ctx: CliContext): void {
  const command = program
    .command('eval')
    .description("run a list of requests through the whole pipeline with the configured model and measure it (the Playwright config's webServer is started; specs go under $SCRIBE_HOME/eval/; exit 1 when none is accepted)")
    .argument('<requests.yaml>', 'requests: [{ description, feature?, url?, complexity? }]');
  withPlaywrightOptions(command)
    .option('--url <url>', 'the app for requests without their own url (default: BASE_URL)')
    .option('--no-self-validation', "send the model's first answer straight to the Critic and the Runner (measures what self-validation buys)")
    .option('--json', 'print one JSON document')
    .action((file: string, flags: EvalFlags) => runEvalCommand(file, flags, ctx));
}

async function runEvalCommand(file: string, flags: EvalFlags, ctx: CliContext): Promise<void> {
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env, playwrightChoice: playwrightChoice(flags) });
  const { http } = project.agents.server;
  const requests = loadEvalRequests(path.resolve(ctx.cwd, file), { maxDescriptionChars: http.max_description_chars, maxFieldChars: http.max_field_chars });
  const progress = createProgress(ctx, flags.json === true);
  let report: EvalReport;
  try {
    // The app is started as generate starts it (the config's webServer), once for all the requests; a Ctrl-C
    // stops the request being generated, then the app, and exits 130.
    report = await withWebServerInterruptibly(project, (note) => progress.info(note), (signal) => runEval(requests, {
      signal,
      cwd: ctx.cwd,
      env: ctx.env,
      project,
      url: flags.url,
      selfValidation: flags.selfValidation,
      onEvent: (index, event) => {
        if (event.status === 'started') progress.start(`[${index + 1}/${requests.length}] ${event.message}`);
        else if (event.status === 'done') progress.succeed(`[${index + 1}/${requests.length}] ${event.message}`);
        else if (event.status === 'failed') progress.fail(`[${index + 1}/${requests.length}] ${event.message}`);
      },
    }));
  } finally {
    progress.stop();
  }
  ctx.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatEval(report));
  // An eval in which no spec was accepted measured a setup that does not work: a script must see it.
  ctx.exitCode = report.requests.some((row) => row.accepted) ? 0 : 1;
}

function formatEval(report: EvalReport): string {
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
  const lines = [`self-validation: ${report.self_validation ? 'on' : 'off'}`, ''];
  lines.push(['#', 'attempts', 'rules', 'critic', 'run', 'heals', 'calls', 'tokens', 'time', 'request'].join('\t'));
  report.requests.forEach((row, index) => {
    lines.push([index + 1, row.attempts, row.rules_passed ? 'pass' : 'fail', row.critic ?? '-', row.run ?? '-', row.heals, row.model_calls, row.tokens, `${(row.duration_ms / 1000).toFixed(1)}s`, row.description].join('\t'));
  });
  const t = report.totals;
  lines.push(
    '',
    `requests ${t.requests}, attempts ${t.attempts}, model calls ${t.model_calls}, tokens ${t.tokens}, heals ${t.heals}, critic rejections ${t.critic_rejections}, time ${(t.duration_ms / 1000).toFixed(1)}s`,
    `first-attempt pass ${percent(t.first_attempt_pass_rate)}, accepted and green ${percent(t.accepted_and_green_rate)}, model calls per accepted spec ${t.model_calls_per_accepted_spec === null ? '-' : t.model_calls_per_accepted_spec.toFixed(2)}, max retries hit ${percent(t.max_retries_hit_rate)}`,
    `specs in ${report.specs_dir}`,
    '',
  );
  return lines.join('\n');
}
