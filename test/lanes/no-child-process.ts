/**
 * The unit lane's setup: no test in it may start a child process (a browser is one). Every way Node's
 * child_process module starts one throws instead, naming the lane, so a unit test that starts one fails
 * at once rather than slowing the lane; test/lanes/lanes.test.ts shows it does.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const STARTERS = ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const;

for (const name of STARTERS) {
  Object.defineProperty(childProcess, name, {
    configurable: true,
    writable: true,
    value: () => {
      throw new Error(`child_process.${name}: a unit-lane test starts no child process or browser; list its file in vitest.config.ts's E2E`);
    },
  });
}
// ES imports of node:child_process (import { spawn } from …) see the replacements too.
syncBuiltinESMExports();
