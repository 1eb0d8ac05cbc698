/**
 * Redaction of declared secrets from what a model is sent: whole values only, in every form a value takes
 * in text, never inside words or Scribe's own rule text, never of the page's own labels or the user's request;
 * user names are not secrets; weak values are warned about. The prompts are the real ones (agents/*.yaml,
 * the bundled rules), built as Scribe builds them.
 */
import { describe, expect, it } from 'vitest';
import { feedbackMessages, INITIAL_MESSAGES, initialMessages } from '../../src/agents/scribe-prompt.ts';
import { loadCriticConfig } from '../../src/config/critic.ts';
import { loadScribeConfig } from '../../src/config/scribe.ts';
import type { PageInventory } from '../../src/contracts.ts';
import { redact, redactMessages, secretsOf, shownTexts, weakSecretWarnings } from '../../src/llm/redact.ts';

const critic = loadCriticConfig();
const scribe = loadScribeConfig();

/** A sign-in page whose password field is labelled "Password". */
const INVENTORY: PageInventory = {
  url: 'http://127.0.0.1:3000/login',
  title: 'Sign in',
  testIdAttribute: 'data-testid',
  testIds: [{ testId: 'password', tag: 'input', role: 'textbox', text: null, label: 'Password', count: 1, visible: true }],
  roles: [{ role: 'button', name: 'Sign in', count: 1 }],
  fields: [{ type: 'password', label: 'Password', placeholder: 'Your secret', name: 'password', testId: 'password' }],
  headings: [{ level: 1, text: 'Sign in' }],
  links: [],
  truncated: [],
  estimatedTokens: 100,
};

const request = { description: 'sign in as the admin user and see the dashboard', feature: 'login', complexity: 'medium' as const, file: '/tmp/x.spec.ts', url: INVENTORY.url };

/** The messages of a second attempt: the first attempt's run failed quoting the value, as Playwright's errors do. */
function conversation(value: string) {
  const initial = initialMessages(scribe, critic, request, INVENTORY);
  const failed = `Error: expect(locator).toHaveValue(expected)\nExpected: "${value}"\nReceived: ""\n  url: /login?p=${encodeURIComponent(value)}\n  auth: ${Buffer.from(value).toString('base64')}\n  echo: ${[...value].reverse().join('')}`;
  return feedbackMessages(scribe, initial, { previous: 'await page.fill("x", "y");', code: undefined, issues: [{ rule: 'run', severity: 'error', message: failed, line: 0, column: 0 }] as never, autofixedRules: [], nextAttempt: 2, maxAttempts: 3 });
}

const sent = (value: string, env: Record<string, string>) => {
  const messages = conversation(value);
  return { messages, redacted: redactMessages(messages, { secrets: secretsOf(critic.credentials, env), keep: [request.description], shown: { texts: shownTexts(INVENTORY), messages: INITIAL_MESSAGES } }) };
};

describe('redaction of a declared secret', () => {
  it.each(['secret', 'Password'])('with E2E_PASSWORD=%s: rule text, labels and the request intact, the value in the run’s error nowhere', (value) => {
    const { messages, redacted } = sent(value, { E2E_PASSWORD: value, E2E_USERNAME: 'admin' });
    // Scribe's own words are sent as they are: the rule text (secret_names…) and the system prompt.
    expect(redacted[0]).toEqual(messages[0]);
    expect(redacted[0]!.content).toContain('secret_names');
    // The prompt that presents the page: the request and the page's own labels whole.
    expect(redacted[1]).toEqual(messages[1]);
    expect(redacted[1]!.content).toContain(request.description);
    expect(redacted[1]!.content).toMatch(/Password/);
    expect(redacted[1]!.content).toContain('Your secret');
    // The value as the run quoted it, URL-encoded, base64 and reversed: gone.
    const feedback = redacted.at(-1)!.content;
    expect(feedback).toContain('Expected: "[redacted E2E_PASSWORD]"');
    expect(feedback).toContain('p=[redacted E2E_PASSWORD]');
    expect(feedback).toContain('auth: [redacted E2E_PASSWORD]');
    expect(feedback).toContain('echo: [redacted E2E_PASSWORD]');
    expect(feedback).not.toContain(`"${value}"`);
    expect(feedback).not.toContain(Buffer.from(value).toString('base64'));
  });

  it('redacts whole values only: never inside a word', () => {
    const secrets = [{ variable: 'E2E_PASSWORD', value: 'secret' }];
    expect(redact('secret_names: [secret, token]; top-secret; secrets; secret.', secrets)).toBe('secret_names: [[redacted E2E_PASSWORD], token]; top-[redacted E2E_PASSWORD]; secrets; [redacted E2E_PASSWORD].');
    expect(redact('a Password label', [{ variable: 'E2E_PASSWORD', value: 'Password' }], ['a Password label'])).toBe('a Password label');
  });

  it('a user name is not a secret unless declared as one; a short common word is warned about', () => {
    expect(secretsOf({ username: 'E2E_USERNAME', password: 'E2E_PASSWORD' }, { E2E_USERNAME: 'admin', E2E_PASSWORD: 'lovelace-42' })).toEqual([{ variable: 'E2E_PASSWORD', value: 'lovelace-42' }]);
    expect(secretsOf({ admin_token: 'ADMIN_TOKEN' }, { ADMIN_TOKEN: 'tok-123456789' })).toEqual([{ variable: 'ADMIN_TOKEN', value: 'tok-123456789' }]);
    const { redacted } = sent('lovelace-42', { E2E_USERNAME: 'admin', E2E_PASSWORD: 'lovelace-42' });
    expect(redacted.map((m) => m.content).join('\n')).toContain('sign in as the admin user');

    expect(weakSecretWarnings(critic.credentials, { E2E_PASSWORD: 'secret' })).toEqual([expect.stringMatching(/^E2E_PASSWORD holds a short common word/)]);
    expect(weakSecretWarnings(critic.credentials, { E2E_PASSWORD: 'Password' })).toHaveLength(1);
    expect(weakSecretWarnings(critic.credentials, { E2E_PASSWORD: 'lovelace-42', E2E_USERNAME: 'admin' })).toEqual([]);
  });
});
