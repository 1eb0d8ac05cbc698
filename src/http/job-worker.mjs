// The entry of a job's worker thread. Scribe runs its TypeScript sources without a build step; a worker
// starts with a bare loader, so it loads the job code through tsx.
import { tsImport } from 'tsx/esm/api';

await tsImport('./job-worker.ts', import.meta.url);
