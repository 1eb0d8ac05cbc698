/**
 * The `settings` of agents/critic.yaml alone, without the rules: what playwright.config.ts and the Runner
 * need (the test id attribute), read without loading every rule and the TypeScript compiler.
 */
import path from 'node:path';
import { z } from 'zod';
import { checkWithSchema, readYamlFile } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';

/** An environment variable name, as a shell would accept it. */
const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name (letters, digits, _)');

/** The credentials contract: what each credential is (username, password, admin_password, …) → the variable holding it. */
export const DEFAULT_CREDENTIALS = { username: 'E2E_USERNAME', password: 'E2E_PASSWORD' } as const;

export const CriticSettings = z.strictObject({
  test_id_attribute: z.string().min(1),
  /** The environment variables that hold credentials; specs read only these, and their values never reach a model. */
  credentials: z.record(z.string().min(1), EnvName).default({ ...DEFAULT_CREDENTIALS }),
});
export type CriticSettings = z.infer<typeof CriticSettings>;

export function loadCriticSettings(file: string = path.join(BUNDLED_AGENTS_DIR, 'critic.yaml')): CriticSettings {
  return checkWithSchema(readYamlFile(file), z.looseObject({ settings: CriticSettings })).settings;
}
