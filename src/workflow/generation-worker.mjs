// The entry of a generation's worker thread. Scribe runs its TypeScript sources without a build step; a worker
// starts with a bare loader, so it loads the pipeline through tsx.
import { tsImport } from 'tsx/esm/api';

await tsImport('./generation-worker.ts', import.meta.url);
