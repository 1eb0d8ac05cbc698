/**
 * A project's agents/*.yaml: each file is an override holding only what the user changes, merged over
 * the bundled default of the same name. Mappings merge key by key (rules by id, a rule's keys one by
 * one); lists and scalars replace. A rule the user does not name keeps its bundled setting.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { criticConfigFrom, SAFETY_RULES, type CriticConfig } from './critic.ts';
import { hasKey, isMapping } from './key-paths.ts';
import { ConfigError, readYamlFile, type ConfigProblem, type YamlSource } from './load.ts';
import { offlineVocabularyFrom, type OfflineVocabulary } from './offline.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';
import type { Renamed } from './renamed-keys.ts';
import { runnerConfigFrom, type RunnerConfig } from './runner.ts';
import { renamedScribeKeys, scribeConfigFrom, type ScribeConfig } from './scribe.ts';
import { serverConfigFrom, type ServerConfig } from './server.ts';
import { renamedWorkflowNames, workflowFrom, type WorkflowManifest } from './workflow.ts';

export type AgentFileName = 'critic.yaml' | 'scribe.yaml' | 'runner.yaml' | 'offline.yaml' | 'server.yaml' | 'workflow.yaml';

/** A merged file and the user's override it came from (absent when the project has none). */
export interface AgentsSource {
  merged: YamlSource;
  /** The override as written. */
  override: YamlSource | undefined;
  /** The override's data with its deprecated keys under their current names (what was merged). */
  overrideRead: unknown;
  /** The override's deprecated keys and names, each read as the current one. */
  deprecations: ConfigProblem[];
}

/** The files whose keys or names were renamed: their old spellings are read, and reported. */
const RENAMED: Partial<Record<AgentFileName, (source: YamlSource) => Renamed>> = {
  'scribe.yaml': renamedScribeKeys,
  'workflow.yaml': renamedWorkflowNames,
};

export interface Agents {
  critic: CriticConfig;
  scribe: ScribeConfig;
  runner: RunnerConfig;
  offline: OfflineVocabulary;
  server: ServerConfig;
  /** Checked against the workers' contract (src/config/worker-contracts.ts), the Critic's gate included. */
  workflow: WorkflowManifest;
  /** The user's override files that were read. */
  overrides: string[];
  /** Safety rules the user's critic.yaml switches off: reported on every run. */
  disabledSafetyRules: string[];
  /** Old keys and names the user's overrides still write (read as the current ones): reported on every run. */
  deprecations: ConfigProblem[];
  /** Whether the user's override of `file` sets this key, under this name or an older one (a value it names beats the Playwright config's). */
  named(file: AgentFileName, keyPath: readonly string[]): boolean;
}

export interface AgentsOptions {
  /** An explicit critic.yaml (`scribe validate --config`), read as an override like the project's own. */
  criticFile?: string;
  /** The Playwright config's `use.testIdAttribute`: below critic.yaml's own setting, above the bundled one. */
  testIdAttribute?: string;
}

/** Reads every agents/*.yaml of the project once, each merged over its bundled default. */
export function loadAgents(cwd: string, options: AgentsOptions = {}): Agents {
  const critic = agentsSource('critic.yaml', cwd, options.criticFile);
  const sources = {
    scribe: agentsSource('scribe.yaml', cwd),
    runner: agentsSource('runner.yaml', cwd),
    offline: agentsSource('offline.yaml', cwd),
    server: agentsSource('server.yaml', cwd),
    workflow: agentsSource('workflow.yaml', cwd),
  };
  const problems: ConfigError['problems'] = [];
  const collect = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const criticConfig = collect(() => criticConfigFrom(critic.merged));
  const scribe = collect(() => scribeConfigFrom(sources.scribe.merged));
  const runner = collect(() => runnerConfigFrom(sources.runner.merged));
  const offline = collect(() => offlineVocabularyFrom(sources.offline.merged));
  const server = collect(() => serverConfigFrom(sources.server.merged));
  const workflow = collect(() => workflowFrom(sources.workflow.merged));
  // Every file's problems at once: a user fixing agents/ should not meet them one run at a time.
  if (problems.length > 0) throw new ConfigError(problems);
  const agents: Agents = {
    critic: criticConfig!,
    scribe: scribe!,
    runner: runner!,
    offline: offline!,
    server: server!,
    workflow: workflow!,
    overrides: [critic, ...Object.values(sources)].flatMap((s) => (s.override ? [s.override.file] : [])),
    disabledSafetyRules: disabledSafetyRules(criticConfig!),
    deprecations: [critic, ...Object.values(sources)].flatMap((s) => s.deprecations),
    named: (file, keyPath) => {
      const source = file === 'critic.yaml' ? critic : Object.values(sources).find((s) => path.basename(s.merged.file) === file && s.override);
      return hasKey(source?.override?.data, keyPath) || hasKey(source?.overrideRead, keyPath);
    },
  };
  return withPlaywrightTestIdAttribute(agents, options.testIdAttribute);
}

/** The agents with the Playwright config's test id attribute, unless the project's critic.yaml names its own. */
export function withPlaywrightTestIdAttribute(agents: Agents, fromPlaywright: string | undefined): Agents {
  if (!fromPlaywright || agents.named('critic.yaml', ['settings', 'test_id_attribute'])) return agents;
  return { ...agents, critic: { ...agents.critic, testIdAttribute: fromPlaywright } };
}

/**
 * The file as the project sees it: an explicit path, else <cwd>/agents/<name>, merged over the bundled
 * default. Without an override (or when the project is Scribe itself) the bundled file alone.
 */
export function agentsSource(name: AgentFileName, cwd: string, explicit?: string): AgentsSource {
  const bundledFile = path.join(BUNDLED_AGENTS_DIR, name);
  const bundled = readYamlFile(bundledFile);
  const overrideFile = explicit ? path.resolve(cwd, explicit) : path.join(cwd, 'agents', name);
  const bundledOnly = { merged: bundled, override: undefined, overrideRead: undefined, deprecations: [] };
  if (!explicit && !existsSync(overrideFile)) return bundledOnly;
  if (existsSync(overrideFile) && realpathSync(overrideFile) === realpathSync(bundledFile)) return bundledOnly;
  const override = readYamlFile(overrideFile);
  // Renamed before merging, so an old key the user writes replaces the bundled value of its current name.
  const read = RENAMED[name]?.(override) ?? { source: override, deprecations: [] };
  return { merged: mergeOverride(bundled, read.source), override, overrideRead: read.source.data, deprecations: read.deprecations };
}

/** The override's values over the bundled ones; problems point into the override (the file a user edits). */
export function mergeOverride(bundled: YamlSource, override: YamlSource): YamlSource {
  if (override.data === null || override.data === undefined) return { ...bundled, file: override.file, lineOf: override.lineOf, writtenAs: override.writtenAs };
  if (!isMapping(override.data)) {
    throw new ConfigError([{ file: override.file, key: '', line: override.lineOf([]), message: 'an agents/ override holds a mapping of the keys it changes' }]);
  }
  return { file: override.file, data: deepMerge(bundled.data, override.data), lineOf: override.lineOf, writtenAs: override.writtenAs };
}

/** Mappings merge key by key; anything else (lists included) in the override replaces the base. */
export function deepMerge(base: unknown, override: unknown): unknown {
  if (!isMapping(base) || !isMapping(override)) return override === undefined ? base : override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = deepMerge(base[key], value);
  return merged;
}

function disabledSafetyRules(critic: CriticConfig): string[] {
  return critic.criteria.filter((c) => SAFETY_RULES.includes(c.id) && c.severity === 'off').map((c) => c.id);
}

/** The warning every run prints while a safety rule is off. */
export function safetyWarning(agents: Pick<Agents, 'critic' | 'disabledSafetyRules'>): string | undefined {
  if (agents.disabledSafetyRules.length === 0) return undefined;
  const rules = agents.disabledSafetyRules.join(', ');
  return `${agents.critic.file} switches off safety rule${agents.disabledSafetyRules.length === 1 ? '' : 's'} ${rules}: model-written code is not checked for ${agents.disabledSafetyRules.length === 1 ? 'it' : 'them'} before it runs`;
}
