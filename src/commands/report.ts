import path from 'node:path';
import type { Command } from 'commander';
import { loadProject } from '../project/context.ts';
import { reportHtml } from '../report/report.ts';
import { writeFileAtomic } from '../util/fs.ts';
import type { CliContext } from './context.ts';

export function registerReport(program: Command, ctx: CliContext): void {
  program
    .command('report')
    .description('write one self-contained HTML page of the generations, batches and heals in the statistics, with charts')
    .option('--out <file>', 'where to write it', '.scribe/report.html')
    .action((flags: { out: string }) => runReport(flags, ctx));
}

async function runReport(flags: { out: string }, ctx: CliContext): Promise<void> {
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  const file = path.resolve(ctx.cwd, flags.out);
  writeFileAtomic(file, reportHtml({ cwd: project.cwd, env: ctx.env, specRoots: [project.outputDir] }));
  ctx.stdout.write(`${path.relative(ctx.cwd, file) || file}\n`);
}
