// Starts Playwright's CLI for a contained run: `node contained-cli.cjs <playwright cli.js> test …`.
// This process runs under Node's permission model as NODE_OPTIONS set it (it may start Playwright's
// worker processes and the browser); the workers it starts inherit the stricter set in
// SCRIBE_WORKER_NODE_OPTIONS (no child processes). The flags travel in NODE_OPTIONS, not in argv,
// because Playwright starts its workers with this process's argv flags: they would carry the runner's
// own permissions.
//
// SCRIBE_CONTAINED_RUN (JSON) says what else this process does before Playwright starts:
// - routes: in the OS sandbox, listen on each app origin's address and port of the sandbox's loopback
//   and pipe every connection to its socket, whose other end Scribe pipes to the real origin
//   (app-network.ts): the only network the run has.
// - browser: launch the run's browser here, inside the boundary, with the run's own Playwright, so that
//   whatever executes Playwright's protocol for the test (page.request, downloads, artifacts' saveAs)
//   has this process's permissions and network, not Scribe's. Its endpoint is a port of this loopback
//   behind a front that lets through only the one path Scribe chose and no request with an Origin
//   header (a page's WebSocket always has one; Playwright's client never sends one).
//
// The process may be started before its spec is written (a generation starts it while it explores and
// asks the model): it sets up, launches the browser and loads Playwright's runner, then waits for a line
// on stdin, which Scribe writes once the run folder holds the spec and its config; only then does
// Playwright's CLI start, and stdin is closed.
'use strict';
const net = require('node:net');
const path = require('node:path');
const { warmUpTransform } = require('./transform-warm-up.cjs');

process.env.NODE_OPTIONS = process.env.SCRIBE_WORKER_NODE_OPTIONS ?? '';
delete process.env.SCRIBE_WORKER_NODE_OPTIONS;
const setup = JSON.parse(process.env.SCRIBE_CONTAINED_RUN ?? '{}');
delete process.env.SCRIBE_CONTAINED_RUN;
const cli = process.argv[2];
process.argv.splice(1, 2, cli);

/** The most a WebSocket handshake's head may take before it is refused. */
const MAX_HEAD_BYTES = 16 * 1024;

function pipe(inbound, outbound) {
  inbound.on('error', () => outbound.destroy());
  outbound.on('error', () => inbound.destroy());
  inbound.pipe(outbound).pipe(inbound);
}

function listen(server, port, address) {
  // Playwright exits when its run is over: nothing here keeps it alive.
  server.unref();
  return new Promise((resolve, reject) => server.once('error', reject).listen(port, address, resolve));
}

function relay(route) {
  return listen(net.createServer((inbound) => pipe(inbound, net.connect(route.socket))), route.port, route.address);
}

/** The handshake's head is read whole first: its request line and headers decide, then it is passed on. */
function browserFront(browser, launched) {
  return net.createServer((inbound) => {
    let head = Buffer.alloc(0);
    const refuse = () => inbound.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
    inbound.on('error', () => inbound.destroy());
    const onData = (chunk) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) refuse();
        return;
      }
      inbound.off('data', onData);
      inbound.pause();
      const lines = head.subarray(0, end).toString('latin1').split('\r\n');
      const [, target] = lines[0].split(' ');
      if (target !== browser.path || lines.slice(1).some((line) => /^origin\s*:/i.test(line))) return refuse();
      launched.then(
        (server) => {
          const outbound = net.connect(Number(new URL(server.wsEndpoint()).port), '127.0.0.1');
          outbound.write(head);
          pipe(inbound, outbound);
          inbound.resume();
        },
        () => inbound.destroy(),
      );
    };
    inbound.on('data', onData);
  });
}

async function start() {
  await Promise.all((setup.routes ?? []).map(relay));
  if (setup.browser) {
    // The run folder's own link to the Playwright whose CLI runs (workspace.ts).
    const { chromium } = require(path.join(process.env.SCRIBE_RUN_FOLDER, 'node_modules', '@playwright', 'test'));
    const launched = chromium.launchServer({ ...setup.browser.launch, host: '127.0.0.1', port: 0, wsPath: setup.browser.path });
    launched.catch((error) => {
      process.stderr.write(`Scribe could not start the browser inside the run's boundary: ${error.message}\n`);
      process.exit(1);
    });
    await listen(browserFront(setup.browser, launched), setup.browser.port, '127.0.0.1');
  }
  warmRunner();
  await runFolderReady();
  require(cli);
}

/**
 * Loads Playwright's runner and warms its TypeScript transform (transform-warm-up.cjs) while the spec is not
 * written yet; its CLI then finds them ready. Only a head start: a layout without them is loaded by the CLI.
 */
function warmRunner() {
  try {
    require(require.resolve('playwright/lib/program', { paths: [path.dirname(cli)] }));
  } catch {
    // another Playwright layout: the CLI loads what it needs
  }
  try {
    const { babelTransform } = require(require.resolve('playwright/lib/transform/babelBundle', { paths: [path.dirname(cli)] }));
    warmUpTransform(babelTransform, process.env.SCRIBE_RUN_FOLDER ?? process.cwd());
  } catch {
    // another Playwright layout: its transform warms on the spec
  }
}

/** Resolves on Scribe's line on stdin (the run folder is written); a closed stdin without it ends the run unstarted. */
function runFolderReady() {
  return new Promise((resolve) => {
    let received = '';
    const onData = (chunk) => {
      received += chunk;
      if (!received.includes('\n')) return;
      process.stdin.off('data', onData).off('end', onEnd).destroy();
      resolve();
    };
    const onEnd = () => process.exit(0);
    process.stdin.setEncoding('utf8').on('data', onData).on('end', onEnd);
  });
}

start().catch((error) => {
  process.stderr.write(`Scribe could not set up the contained run: ${error.message}\n`);
  process.exit(1);
});
