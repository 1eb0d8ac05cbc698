// Starts Playwright's CLI for a contained run: `node contained-cli.cjs <playwright cli.js> test …`.
// This process runs under Node's permission model as NODE_OPTIONS set it (it may start Playwright's
// worker processes); the workers it starts inherit the stricter set in SCRIBE_WORKER_NODE_OPTIONS
// (no child processes). The flags travel in NODE_OPTIONS, not in argv, because Playwright starts its
// workers with this process's argv flags: they would carry the runner's own permissions.
//
// In the OS sandbox there is no network but the sandbox's own loopback: SCRIBE_BROWSER_RELAY ("<socket>
// <port>") has this process listen on 127.0.0.1:<port> there and pipe each connection to the socket,
// whose other end Scribe pipes to its browser on that same port, so the test's wsEndpoint works as is.
'use strict';
const net = require('node:net');

process.env.NODE_OPTIONS = process.env.SCRIBE_WORKER_NODE_OPTIONS ?? '';
delete process.env.SCRIBE_WORKER_NODE_OPTIONS;
const relay = process.env.SCRIBE_BROWSER_RELAY;
delete process.env.SCRIBE_BROWSER_RELAY;
const cli = process.argv[2];
process.argv.splice(1, 2, cli);

if (relay) {
  const [socket, port] = relay.split(' ');
  const server = net.createServer((inbound) => {
    const outbound = net.connect(socket);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
    inbound.pipe(outbound).pipe(inbound);
  });
  // Playwright exits when its run is over: the relay does not keep it alive.
  server.unref();
  server.listen(Number(port), '127.0.0.1', () => require(cli));
} else {
  require(cli);
}
