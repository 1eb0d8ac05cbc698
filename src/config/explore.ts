/**
 * The `explore:` section of agents/scribe.yaml, read on its own, so the explorer's settings can be
 * loaded without the rest of Scribe's configuration.
 */
import path from 'node:path';
import { ExploreSettings } from '../explore/settings.ts';
import { checkWithSchema, readYamlFile, type YamlSource } from './load.ts';
import { BUNDLED_AGENTS_DIR } from './paths.ts';

const SECTION = 'explore';

/** Reads only the `explore:` section of a scribe.yaml (the bundled one by default). */
export function loadExploreSettings(file: string = path.join(BUNDLED_AGENTS_DIR, 'scribe.yaml')): ExploreSettings {
  return exploreSettingsFrom(readYamlFile(file));
}

export function exploreSettingsFrom(source: YamlSource): ExploreSettings {
  const data = source.data;
  const section = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[SECTION] : undefined;
  return checkWithSchema(source, ExploreSettings, [SECTION], section);
}
