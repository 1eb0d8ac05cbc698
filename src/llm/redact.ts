/**
 * The one secret policy: which values never reach a model. The declared secret credentials' values, hidden from
 * every message of every model call (secretsOf), and an untrusted run's evidence, which carries no secret-looking
 * variable's value either (secretValues).
 * Every message of every model call passes through here, whatever it quotes (run output, error messages,
 * page snapshots, console lines).
 *
 * Only whole values are redacted: a value inside a word (`secret` in `secret_names`) is not that value.
 * System messages are Scribe's own words (agents/*.yaml and the rules), holding nothing of the environment
 * or the page, and are sent as they are. Texts the caller keeps (the user's own request, what the page
 * itself shows as labels, names and headings) are left whole: the model is told nothing by hiding a word
 * the page or the user says, and a garbled request or label would mislead it.
 */
import type { PageInventory } from '../contracts.ts';
import type { ChatMessage } from './types.ts';

export interface Secret {
  variable: string;
  value: string;
}

/** What a model call hides, and what it leaves whole. */
export interface Redaction {
  secrets: readonly Secret[];
  /** Texts sent as they are wherever they occur: the user's own request. */
  keep: readonly string[];
  /**
   * What the page shows (its labels, names, headings), left whole in the first `messages` messages: the
   * prompt that presents the page. Later messages quote the run (errors, output), where the same word may
   * be the value typed in.
   */
  shown?: { texts: readonly string[]; messages: number };
}

/** Credential roles that say who signs in, not a secret: their values are not hidden unless a role is declared as secret. */
const IDENTITY_ROLE = /^(user(_?name)?|login|e?mail|account|user_?id)$/i;

/** The values the declared secret variables hold in this environment (unset and empty ones hold nothing to hide). */
export function secretsOf(credentials: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): Secret[] {
  return Object.entries(credentials).flatMap(([role, variable]) => {
    const value = env[variable];
    return value && !IDENTITY_ROLE.test(role) ? [{ variable, value }] : [];
  });
}

/** Variables whose values are never shown to a model from an untrusted run's evidence: the caller's keys and tokens, and the declared credentials. */
const SECRET_ENV = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|USERNAME|AUTH)/i;
/** Shorter values would blank out ordinary words of a message. */
const MIN_SECRET_CHARS = 4;

/** The values an untrusted run's evidence must not carry: every secret-looking variable's, the declared ones included. */
export function secretValues(env: Readonly<Record<string, string | undefined>>, allowed: readonly string[]): Secret[] {
  const names = Object.keys(env).filter((key) => SECRET_ENV.test(key) || (allowed.includes(key) && key !== 'BASE_URL'));
  return names.flatMap((variable) => {
    const value = env[variable] ?? '';
    return value.length >= MIN_SECRET_CHARS ? [{ variable, value }] : [];
  });
}

/** Short common words: redacting them safely is impossible (they are everywhere), guessing them easy. */
const COMMON = new Set(['password', 'passw0rd', 'secret', 'admin', 'test', 'changeme', 'letmein', 'qwerty', 'welcome', 'default', 'guest', 'user', 'demo', 'root', 'pass', 'login']);

/** A warning for each declared secret whose value is a short common word (or digits only). */
export function weakSecretWarnings(credentials: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): string[] {
  return secretsOf(credentials, env)
    .filter(({ value }) => COMMON.has(value.toLowerCase()) || (value.length < 8 && /^[a-z]+$|^\d+$/i.test(value)))
    .map(({ variable }) => `${variable} holds a short common word: it is redacted only as a whole word from what models are sent, and it cannot be hidden where the page or your request says it; use a longer test password`);
}

/** What the page itself shows: labels, names, texts, headings, link texts, titles (kept whole in prompts). */
export function shownTexts(inventory: PageInventory | undefined): string[] {
  if (!inventory) return [];
  return [inventory, ...(inventory.pages ?? [])].flatMap((page) => [
    page.title,
    ...page.testIds.flatMap((t) => [t.text, t.label]),
    ...page.roles.map((r) => r.name),
    ...page.fields.flatMap((f) => [f.label, f.placeholder, f.name]),
    ...page.headings.map((h) => h.text),
    ...page.links.map((l) => l.text),
  ]).filter((text): text is string => typeof text === 'string' && text.trim() !== '');
}

/** The forms a value may take in text: as written, JSON-escaped, URL-encoded, base64 (standard and URL-safe), reversed. */
function formsOf(value: string): string[] {
  const base64 = Buffer.from(value, 'utf8').toString('base64').replace(/=+$/, '');
  const forms = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), base64, base64.replace(/\+/g, '-').replace(/\//g, '_'), [...value].reverse().join('')];
  return [...new Set(forms)].filter((form) => form.length > 0);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with every whole occurrence of a secret, in any of its forms, replaced by its variable's name; kept texts left whole. */
export function redact(text: string, secrets: readonly Secret[], keep: readonly string[] = []): string {
  if (secrets.length === 0) return text;
  const forms = secrets.flatMap(({ variable, value }) => formsOf(value).map((form) => ({ form, marker: `[redacted ${variable}]` }))).sort((a, b) => b.form.length - a.form.length);
  const markers = new Map(forms.map(({ form, marker }) => [form, marker]));
  // A form counts only whole: not preceded or followed by a letter, digit or underscore.
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${forms.map(({ form }) => escapeRegExp(form)).join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
  const kept = keptSpans(text, keep);
  return text.replace(pattern, (match, offset: number) => (kept.some(([start, end]) => offset >= start && offset < end) ? match : markers.get(match)!));
}

/** Where the kept texts occur in `text`, as [start, end) offsets. */
function keptSpans(text: string, keep: readonly string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const kept of new Set(keep)) {
    for (let at = text.indexOf(kept); at !== -1; at = text.indexOf(kept, at + kept.length)) spans.push([at, at + kept.length]);
  }
  return spans;
}

export function redactMessages(messages: readonly ChatMessage[], redaction: Redaction): ChatMessage[] {
  if (redaction.secrets.length === 0) return [...messages];
  const { secrets, keep, shown } = redaction;
  return messages.map((message, index) => {
    if (message.role === 'system') return message;
    const kept = shown && index < shown.messages ? [...keep, ...shown.texts] : keep;
    return { ...message, content: redact(message.content, secrets, kept) };
  });
}
