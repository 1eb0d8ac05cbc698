import { describe, expect, it } from 'vitest';
import { ConfigError, parseYaml } from '../../src/config/load.ts';
import { DEFAULT_SCRIBE_PATH, loadScribeConfig, modelFor, renderTemplate, scribeConfigFrom } from '../../src/config/scribe.ts';
import { readFileSync } from 'node:fs';

const bundled = readFileSync(DEFAULT_SCRIBE_PATH, 'utf8');

function problemsOf(text: string) {
  try {
    scribeConfigFrom(parseYaml('agents/scribe.yaml', text));
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('agents/scribe.yaml', () => {
  it('loads the bundled file with max_retries 3', () => {
    const config = loadScribeConfig();
    expect(config.generation.max_retries).toBe(3);
    expect(Object.keys(config.provider.models)).toEqual(['easy', 'medium', 'hard']);
  });

  it('picks the model per complexity, SCRIBE_MODEL overriding', () => {
    const config = loadScribeConfig();
    expect(modelFor(config, 'hard', {})).toBe(config.provider.models.hard);
    expect(modelFor(config, 'easy', { SCRIBE_MODEL: 'llama3.1:8b' })).toBe('llama3.1:8b');
  });

  it('reports an unknown placeholder with the file, the key and the line', () => {
    const text = bundled.replace('Request: {{request}}', 'Request: {{reqest}} {{request}}');
    const line = text.split('\n').findIndex((l) => l.includes('user: |')) + 1;
    expect(problemsOf(text)).toEqual([
      { file: 'agents/scribe.yaml', key: 'prompts.user', line, message: expect.stringContaining('unknown placeholder {{reqest}}') },
    ]);
  });

  it('requires the placeholders a template cannot do without', () => {
    const text = bundled.replace(/^(\s+){{issues}}$/m, '$1the issues');
    expect(problemsOf(text)).toEqual([expect.objectContaining({ key: 'prompts.feedback', message: 'the template must contain {{issues}}' })]);
  });

  it('reports a wrong type where it stands', () => {
    const text = bundled.replace('max_attempts: 3', 'max_retries: three');
    const line = text.split('\n').findIndex((l) => l.includes('max_retries: three')) + 1;
    expect(problemsOf(text)).toEqual([expect.objectContaining({ key: 'generation.max_retries', line })]);
  });

  it('renders placeholders, spaces inside the braces allowed', () => {
    expect(renderTemplate('a {{ x }} b {{y}}', { x: '1', y: '2' })).toBe('a 1 b 2');
  });
});
