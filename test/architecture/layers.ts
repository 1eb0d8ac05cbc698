/**
 * Which part of src/ may import which: each folder, and each file at the top of src/, with the parts
 * it may import. Imports inside a part are always allowed. As with Playwright's DEPS.list files, this
 * table is where a new arrow between parts is decided: added here on purpose, or not at all. It reads
 * from the bottom up; an arrow pointing at a part further down the table runs back up, and the
 * layering test refuses it.
 */

/** Helpers with no notion of Scribe, and the zod contracts at every boundary: any part may use them. */
const FOUNDATION = ['util', 'contracts.ts'];

export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  util: [],
  'contracts.ts': [],
  // The demo app's pages and its static server: self-contained, `scribe demo` serves it.
  'demo-app': [],
  // What a spec is: the value analysis, Playwright's API facts, suppression comments, test steps, the duration estimate.
  analysis: [...FOUNDATION],
  // A live page's inventory. It owns its settings' schema, as a rule owns its options, so it needs no config.
  explore: [...FOUNDATION],
  // Pure checks over the analysis, (spec, options) -> findings; they know nothing of YAML.
  rules: [...FOUNDATION, 'analysis', 'explore'],
  // agents/*.yaml read and checked; critic.yaml's rule ids are bound to the rule registry here.
  config: [...FOUNDATION, 'explore', 'rules'],
  llm: [...FOUNDATION, 'config'],
  stats: [...FOUNDATION, 'config'],
  // The user's project as Playwright and Scribe read it; what its setup projects' files read from the environment is analysis's.
  project: [...FOUNDATION, 'analysis', 'config', 'llm'],
  // Runs the rules on parsed specs, type-checks, autofixes, reports.
  validate: [...FOUNDATION, 'analysis', 'config', 'rules'],
  // The stages. They reach the rules through the validator, never a rule's file.
  agents: [...FOUNDATION, 'analysis', 'config', 'explore', 'llm', 'stats', 'validate'],
  // Where specs end up: the accepted one with its provenance, the ones kept for review outside the project's
  // testMatch. It writes the stages' candidates (so it sits above agents) and needs the project's testMatch
  // (which agents never see); the workflow decides what it writes.
  store: [...FOUNDATION, 'agents', 'project', 'stats'],
  workflow: [...FOUNDATION, 'agents', 'config', 'demo-app', 'explore', 'llm', 'project', 'stats', 'store', 'validate'],
  // `scribe heal`: the user's specs run, and the failing ones healed by the Medic.
  heal: [...FOUNDATION, 'agents', 'analysis', 'config', 'explore', 'llm', 'project', 'stats', 'validate'],
  // `scribe report`: the statistics, provenance records, batches and heals as one HTML page.
  report: [...FOUNDATION, 'heal', 'stats', 'store', 'workflow'],
  // What both servers that speak HTTP share (the API and MCP over HTTP): the bearer token and the Origin/Host
  // check, JSON bodies, field errors, the access log, paths inside the project. Neither server imports the other.
  endpoint: [...FOUNDATION, 'project', 'store', 'workflow'],
  http: [...FOUNDATION, 'config', 'endpoint', 'llm', 'project', 'report', 'stats', 'store', 'validate', 'workflow'],
  // The shared queue (BullMQ on Redis): a JobBackend for the API (http's interface) and the worker that runs its jobs.
  queue: [...FOUNDATION, 'config', 'endpoint', 'http', 'project', 'stats', 'workflow'],
  mcp: [...FOUNDATION, 'agents', 'config', 'endpoint', 'heal', 'llm', 'project', 'stats', 'validate', 'workflow'],
  'server.ts': [...FOUNDATION, 'agents', 'config', 'endpoint', 'http', 'project', 'queue', 'stats'],
  commands: [...FOUNDATION, 'agents', 'config', 'endpoint', 'heal', 'http', 'report', 'llm', 'mcp', 'project', 'queue', 'server.ts', 'stats', 'validate', 'workflow'],
  'cli.ts': [...FOUNDATION, 'commands', 'config', 'project'],
  // The library's Scribe: the agent's attempt loop, and execute, which runs the pipeline (an agent cannot import workflow).
  'library.ts': [...FOUNDATION, 'agents', 'config', 'project', 'workflow'],
  // The library's API.
  'index.ts': [...FOUNDATION, 'agents', 'analysis', 'config', 'library.ts', 'llm', 'mcp', 'project', 'stats', 'store', 'validate', 'workflow'],
  'bin.ts': ['cli.ts'],
};
