// The entry of the JavaScript type checker's thread. Scribe runs its TypeScript sources without a build step; a
// worker starts with a bare loader, so it loads the checker through tsx.
import { tsImport } from 'tsx/esm/api';

await tsImport('./javascript-check-thread.ts', import.meta.url);
