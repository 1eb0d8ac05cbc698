/**
 * The JavaScript compiler's own thread (type-checker-javascript.ts): it parses the library's, Node's and
 * Playwright's types once for its life, as the validator's own JavaScriptPrograms does, so a generation's
 * first type check can be readied while the model is asked rather than on the way to the run. Each batch
 * is parsed as the validator parses it and checked in one program; the answer is each spec's diagnostics,
 * by its resolved path (a spec too deep to parse has none: the validator reports it).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { TypeDiagnostic } from '../analysis/type-diagnostic.ts';
import type { ProjectDeclarations } from './project-types.ts';

type Spec = { file: string; text: string };
type Check = (specs: readonly Spec[]) => Array<[string, TypeDiagnostic[]]>;

const require = createRequire(import.meta.url);
const { answering } = require('./check-thread-port.cjs') as { answering: (port: unknown, signal: Int32Array) => (message: unknown) => void };
const data = workerData as { port: unknown; signal: Int32Array; options: Record<string, unknown>; project: ProjectDeclarations };
// First, before the compiler loads: whatever fails from here on, a caller waiting for an answer gets one.
const answer = answering(data.port, data.signal);

const checking: Promise<Check> = Promise.all([import('../analysis/parsed-spec.ts'), import('../analysis/type-diagnostic.ts'), import('./type-checker.ts')]).then(
  ([{ ParsedSpec }, { fromCompilerDiagnostic }, { compilerOptionsFor, JavaScriptPrograms }]) => {
    const programs = new JavaScriptPrograms(compilerOptionsFor(data.options), data.project);
    return (specs) => {
      const trees = specs.flatMap((spec) => {
        try {
          return [ParsedSpec.parse(spec.file, spec.text)];
        } catch {
          return [];
        }
      });
      const program = programs.program(trees);
      return trees.map((tree) => [path.resolve(tree.fileName), program.getSemanticDiagnostics(tree).map(fromCompilerDiagnostic)]);
    };
  },
);
// Read by each batch below; until then a failure must not count as unhandled.
checking.catch(() => undefined);

/** Answers a batch once the compiler is ready; batches are answered in the order they came. */
async function answerBatch(message: { id: number; specs: Spec[] }): Promise<void> {
  try {
    const check = await checking;
    answer({ id: message.id, diagnostics: check(message.specs) });
  } catch (error) {
    answer({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
}

parentPort!.on('message', (message: { type: 'check'; id: number; specs: Spec[] } | { type: 'close' }) => {
  if (message.type === 'close') parentPort!.close();
  else void answerBatch(message);
});
