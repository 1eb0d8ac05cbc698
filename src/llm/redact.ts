/**
 * The credentials contract's last line: the values of the declared credential variables never reach a
 * model. Every message of every model call passes through here, whatever it quotes (run output, error
 * messages, page snapshots, console lines).
 */
import type { ChatMessage } from './types.ts';

export interface Secret {
  variable: string;
  value: string;
}

/** The values the declared variables hold in this environment (unset and empty ones hold nothing to hide). */
export function secretsOf(credentials: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): Secret[] {
  return Object.values(credentials).flatMap((variable) => {
    const value = env[variable];
    return value ? [{ variable, value }] : [];
  });
}

/** The text with every occurrence of a secret (as written, JSON-escaped or URL-encoded) replaced by its variable's name. */
export function redact(text: string, secrets: readonly Secret[]): string {
  const forms = secrets
    .flatMap(({ variable, value }) => [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)].map((form) => ({ form, marker: `[redacted ${variable}]` })))
    .sort((a, b) => b.form.length - a.form.length);
  let out = text;
  for (const { form, marker } of forms) out = out.split(form).join(marker);
  return out;
}

export function redactMessages(messages: readonly ChatMessage[], secrets: readonly Secret[]): ChatMessage[] {
  return secrets.length === 0 ? [...messages] : messages.map((message) => ({ ...message, content: redact(message.content, secrets) }));
}
