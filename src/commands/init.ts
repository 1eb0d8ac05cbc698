/**
 * `scribe init [--force]`: writes a short, commented agents/ override for the project and says what
 * Scribe found there. Never overwrites a file without --force (exit 2 naming it).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomic } from '../util/fs.ts';
import { loadProject, type ProjectContext } from '../project/context.ts';
import { UsageError, type CliContext } from './context.ts';

interface InitFlags {
  force?: boolean;
}

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('write a commented agents/ override for this project and say what Scribe found (Playwright config, testDir, test ids, baseURL)')
    .option('--force', 'overwrite existing agents/ files')
    .action((flags: InitFlags) => init(flags, ctx));
}

async function init(flags: InitFlags, ctx: CliContext): Promise<void> {
  const files = {
    critic: path.join(ctx.cwd, 'agents', 'critic.yaml'),
    scribe: path.join(ctx.cwd, 'agents', 'scribe.yaml'),
  };
  const taken = Object.values(files).filter((file) => existsSync(file));
  if (taken.length > 0 && !flags.force) throw new UsageError(`${taken.join(' and ')} already exist${taken.length === 1 ? 's' : ''}; pass --force to overwrite`);

  // Read before writing: what is found is what the comments say, and a broken config writes nothing.
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  writeFileAtomic(files.critic, criticOverride(project));
  writeFileAtomic(files.scribe, scribeOverride(project));
  ctx.stdout.write(`${findings(project, ctx.cwd).join('\n')}\nwrote ${Object.values(files).map((f) => path.relative(ctx.cwd, f)).join(', ')} (only what you change there overrides the bundled defaults)\n`);
}

function findings(project: ProjectContext, cwd: string): string[] {
  const relative = (file: string) => path.relative(cwd, file) || '.';
  const pw = project.playwright;
  const credentials = project.agents.offline.credentials;
  const variable = (name: string) => `${name} (${project.env[name] ? 'set' : 'not set'})`;
  return [
    `Playwright config  ${pw ? relative(pw.configFile) : 'none (specs go to generated-tests/; run them with your own config)'}`,
    ...(pw
      ? [
          `project            ${pw.project.name || '(the only one)'}${pw.project.dependencies.length > 0 ? `, after ${pw.project.dependencies.join(', ')}` : ''}`,
          `testDir            ${relative(pw.project.testDir)}`,
          `storageState       ${pw.project.use.storageState ? relative(pw.project.use.storageState) : 'none'}`,
          `webServer          ${pw.webServers.map((w) => w.command).join('; ') || 'none'}`,
        ]
      : []),
    `specs go to        ${relative(project.outputDir)}/<feature>/`,
    `test id attribute  ${project.agents.critic.testIdAttribute}`,
    `baseURL            ${project.baseURL ?? 'none (pass --url or set BASE_URL)'}`,
    `credentials        ${variable(credentials.username_env)}, ${variable(credentials.password_env)}`,
  ];
}

function criticOverride(project: ProjectContext): string {
  const attribute = project.playwright?.project.use.testIdAttribute;
  return `# Scribe's rules for this project. Only what you write here changes; everything else keeps the bundled
# setting (node_modules/scribe-playwright/agents/critic.yaml lists every rule with its reason and options).
# Switching a safety rule off (no-forbidden-imports, no-dangerous-apis, no-eval, syntax, type-check) is
# reported on every run.
#
# settings:
#   test_id_attribute: ${project.agents.critic.testIdAttribute}   # default: ${attribute ? `use.testIdAttribute of ${path.basename(project.playwright!.configFile)}` : 'the bundled data-testid'}
#
# rules:
#   max-steps:
#     options:
#       max: 15
#   require-screenshot:
#     severity: warning
`;
}

function scribeOverride(project: ProjectContext): string {
  return `# Scribe's generation settings for this project, merged over the bundled agents/scribe.yaml.
#
# generation:
#   output_dir: ${path.relative(project.cwd, project.outputDir) || '.'}   # default: ${project.playwright ? '<testDir>/generated of the Playwright config' : 'generated-tests'}
#   max_attempts: 3
# provider:
#   models: { easy: gpt-4o-mini, medium: gpt-4o, hard: gpt-4o }
`;
}
