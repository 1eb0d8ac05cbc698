/**
 * agents/offline.yaml: the words the offline generator understands. They are data, so a user can
 * teach it a new verb or synonym without touching code.
 */
import path from 'node:path';
import { z } from 'zod';
import { checkWithSchema, readYamlFile, type YamlSource } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';

export const DEFAULT_OFFLINE_PATH = path.join(BUNDLED_AGENTS_DIR, 'offline.yaml');

const word = z.string().trim().min(1).transform((w) => w.toLowerCase());
const words = z.array(word);
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name: letters, digits and _');

const OfflineFile = z.strictObject({
  version: z.literal(1),
  credentials: z.strictObject({ username_env: envName, password_env: envName }),
  actions: z.record(word, words),
  synonyms: z.record(word, words),
  outcome_markers: words.min(1),
  credential_words: words,
  wrong_value_words: words,
  stop_words: words,
  generic_words: words,
});

export type OfflineVocabulary = z.infer<typeof OfflineFile> & { file: string };

export function loadOfflineVocabulary(file: string = DEFAULT_OFFLINE_PATH): OfflineVocabulary {
  return offlineVocabularyFrom(readYamlFile(file));
}

export function offlineVocabularyFrom(source: YamlSource): OfflineVocabulary {
  return { ...checkWithSchema(source, OfflineFile), file: source.file };
}
