/**
 * The `settings` of agents/critic.yaml alone, without the rules: what playwright.config.ts and the Runner
 * need (the test id attribute), read without loading every rule and the TypeScript compiler.
 */
import path from 'node:path';
import { z } from 'zod';
import { checkWithSchema, readYamlFile } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';

export const CriticSettings = z.strictObject({
  test_id_attribute: z.string().min(1),
});
export type CriticSettings = z.infer<typeof CriticSettings>;

export function loadCriticSettings(file: string = path.join(BUNDLED_AGENTS_DIR, 'critic.yaml')): CriticSettings {
  return checkWithSchema(readYamlFile(file), z.looseObject({ settings: CriticSettings })).settings;
}
