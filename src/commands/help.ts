/** What `scribe --help` says besides the commands: the environment variables Scribe reads. */

/** Each variable Scribe reads, with what it does; `--help` lists them. */
export const ENVIRONMENT: ReadonlyArray<readonly [name: string, meaning: string]> = [
  ['BASE_URL', "the app under test (over the Playwright config's use.baseURL; --url over both)"],
  ['OPENAI_API_KEY', 'the model key; with it, or OPENAI_BASE_URL, the provider is openai, else offline'],
  ['OPENAI_BASE_URL', 'an OpenAI-compatible endpoint (Azure, Ollama, vLLM, LM Studio…)'],
  ['SCRIBE_MODEL', 'the model name (over agents/scribe.yaml)'],
  ['SCRIBE_BROWSER', 'the Chromium executable (else Playwright\'s own browser, else a system Chromium)'],
  ['SCRIBE_HOME', 'where statistics, caches and eval runs go (default: .scribe/ of the working directory)'],
  ['SCRIBE_API_TOKEN', 'the bearer token `scribe serve` and `scribe mcp --port` require'],
  ['SCRIBE_CALLBACK_SECRET', "the key of the HTTP API's callback signatures (HMAC-SHA256)"],
];

export function environmentHelp(): string {
  const width = Math.max(...ENVIRONMENT.map(([name]) => name.length));
  return `\nEnvironment variables:\n${ENVIRONMENT.map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`).join('\n')}\n`;
}
