import { fileURLToPath } from 'node:url';

/** Scribe's own agents/ folder, holding the embedded defaults. */
export const BUNDLED_AGENTS_DIR = fileURLToPath(new URL('../../agents/', import.meta.url));
