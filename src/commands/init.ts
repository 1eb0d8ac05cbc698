/**
 * `scribe init [--force] [--mcp <hosts>]`: writes a short, commented agents/ override for the project, says
 * what Scribe found there, adds `.scribe/` to .gitignore and, asked, lists `scribe mcp` in agent hosts' MCP
 * configs. Never overwrites a file without --force (exit 2 naming it); an edit keeps what a file holds.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomic } from '../util/fs.ts';
import { loadProject, type ProjectContext } from '../project/context.ts';
import { AGENT_HOSTS, gitignoreWithScribe, mcpConfigWithScribe, parseAgentHosts, type AgentHost, type FileEdit } from '../project/init-files.ts';
import { UsageError, type CliContext } from './context.ts';

interface InitFlags {
  force?: boolean;
  mcp?: string;
}

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('write a commented agents/ override for this project and say what Scribe found (Playwright config, testDir, test ids, baseURL)')
    .option('--force', 'overwrite existing agents/ files (and a different scribe server in an MCP config)')
    .option('--mcp <hosts>', `also list \`scribe mcp\` in agent hosts' MCP configs: ${Object.entries(AGENT_HOSTS).map(([host, { file }]) => `${host} (${file})`).join(', ')}, or all; comma-separated`)
    .action((flags: InitFlags) => init(flags, ctx));
}

async function init(flags: InitFlags, ctx: CliContext): Promise<void> {
  const files = {
    critic: path.join(ctx.cwd, 'agents', 'critic.yaml'),
    scribe: path.join(ctx.cwd, 'agents', 'scribe.yaml'),
  };
  const hosts = flags.mcp === undefined ? [] : agentHosts(flags.mcp);
  const taken = Object.values(files).filter((file) => existsSync(file));
  // Asked for MCP configs only, an initialised project keeps its agents/ files as they are.
  const keepAgents = taken.length > 0 && !flags.force && hosts.length > 0;
  if (taken.length > 0 && !flags.force && !keepAgents) throw new UsageError(`${taken.join(' and ')} already exist${taken.length === 1 ? 's' : ''}; pass --force to overwrite`);
  // Every edit is worked out before anything is written: a conflict writes nothing.
  const edits = [{ file: path.join(ctx.cwd, '.gitignore'), edit: gitignoreWithScribe(readIfThere(path.join(ctx.cwd, '.gitignore'))) }, ...hosts.map((host) => mcpEdit(host, ctx.cwd, flags.force === true))];
  const conflict = edits.find(({ edit }) => edit.status === 'conflict');
  if (conflict?.edit.status === 'conflict') throw new UsageError(`${conflict.file} ${conflict.edit.reason}`);

  // Read before writing: what is found is what the comments say, and a broken config writes nothing.
  const project = await loadProject({ cwd: ctx.cwd, env: ctx.env });
  if (!keepAgents) {
    writeFileAtomic(files.critic, criticOverride(project));
    writeFileAtomic(files.scribe, scribeOverride(project));
  }
  const written = edits.map(({ file, edit }) => {
    if (edit.status === 'created' || edit.status === 'updated') writeFileAtomic(file, edit.text);
    return `${path.relative(ctx.cwd, file)} ${edit.status === 'unchanged' ? 'already set' : edit.status}`;
  });
  const agents = keepAgents ? 'kept agents/ as it is' : `wrote ${Object.values(files).map((f) => path.relative(ctx.cwd, f)).join(', ')} (only what you change there overrides the bundled defaults)`;
  ctx.stdout.write(`${findings(project, ctx.cwd).join('\n')}\n${agents}\n${written.join('\n')}\n`);
}

function agentHosts(list: string): AgentHost[] {
  const parsed = parseAgentHosts(list);
  if (!parsed.ok) throw new UsageError(`--mcp: unknown agent host ${parsed.unknown.join(', ')}; use ${Object.keys(AGENT_HOSTS).join(', ')} or all`);
  return parsed.hosts;
}

function mcpEdit(host: AgentHost, cwd: string, force: boolean): { file: string; edit: FileEdit } {
  const file = path.join(cwd, AGENT_HOSTS[host].file);
  return { file, edit: mcpConfigWithScribe(host, readIfThere(file), force) };
}

function readIfThere(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

function findings(project: ProjectContext, cwd: string): string[] {
  const relative = (file: string) => path.relative(cwd, file) || '.';
  const pw = project.playwright;
  const credentials = project.agents.offline.credentials;
  const variable = (name: string) => `${name} (${project.env[name] ? 'set' : 'not set'})`;
  const setupReads = project.setupVariables();
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
    ...(setupReads.length > 0 ? [`setup reads        ${setupReads.map(variable).join(', ')} (passed to the runs Scribe contains, their values kept out of the evidence models see)`] : []),
    `your own suite     scribe validate ${pw ? relative(pw.project.testDir) : '<your tests>'} (the recommended preset: critic.yaml's settings.validate_preset)`,
  ];
}

function criticOverride(project: ProjectContext): string {
  const attribute = project.playwright?.project.use.testIdAttribute;
  return `# Scribe's rules for this project. Only what you write here changes; everything else keeps the bundled
# setting (node_modules/scribe-playwright/agents/critic.yaml lists every rule with its reason and options).
# Switching a safety rule off (no-forbidden-imports, no-dangerous-apis, no-eval, syntax, type-check) is
# reported on every run.
#
# The rule set \`scribe validate\` holds your own suite to: recommended (the rules that fit hand-written
# specs) rather than generated (every rule, for model-written ones).
settings:
  validate_preset: recommended
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
