// Preloaded into every node client of the interception test (NODE_OPTIONS=--require): every
// connection attempt to anything but loopback, and every name looked up, is written to
// GUARD_LOG, so the test can show that a client went nowhere but the proxy.
const dns = require('node:dns');
const fs = require('node:fs');
const net = require('node:net');

const log = (line) => fs.appendFileSync(process.env.GUARD_LOG, `${process.pid} ${line}\n`);
const loopback = (host) => host === undefined || host === 'localhost' || /^127\./.test(host) || host === '::1';

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guarded(...args) {
  const first = args[0];
  const options = Array.isArray(first) ? first[0] : first;
  const host =
    typeof options === 'object' && options !== null ? options.host : typeof args[1] === 'string' ? args[1] : undefined;
  const path = typeof options === 'object' && options !== null ? options.path : undefined;
  if (path === undefined && !loopback(host)) log(`connect ${host}`);
  return connect.apply(this, args);
};
const lookup = dns.lookup;
dns.lookup = function guardedLookup(host, ...rest) {
  if (!loopback(host)) log(`lookup ${host}`);
  return lookup.call(this, host, ...rest);
};
