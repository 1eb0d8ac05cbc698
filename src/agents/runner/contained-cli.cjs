// Starts Playwright's CLI for a contained run: `node contained-cli.cjs <playwright cli.js> test …`.
// This process runs under Node's permission model as NODE_OPTIONS set it (it may start Playwright's
// worker processes); the workers it starts inherit the stricter set in SCRIBE_WORKER_NODE_OPTIONS
// (no child processes). The flags travel in NODE_OPTIONS, not in argv, because Playwright starts its
// workers with this process's argv flags: they would carry the runner's own permissions.
'use strict';
process.env.NODE_OPTIONS = process.env.SCRIBE_WORKER_NODE_OPTIONS ?? '';
delete process.env.SCRIBE_WORKER_NODE_OPTIONS;
const cli = process.argv[2];
process.argv.splice(1, 2, cli);
require(cli);
