// Preloaded into a node-based agent CLI (NODE_OPTIONS=--require …: Gemini CLI, Qwen Code) by the compat tier: logs every
// DNS lookup and TCP connect to a host other than loopback, one JSON line each, to the file named
// by AGENT_REWIND_NET_LOG. Nothing is blocked (the machine has no route out anyway); the log
// proves that a run with our settings talks to nobody but the local scripted model.
const fs = require('node:fs');
const dns = require('node:dns');
const net = require('node:net');

const out = process.env.AGENT_REWIND_NET_LOG;
const loopback = (h) => !h || h === 'localhost' || h === '::1' || /^127\./.test(h) || h === '0.0.0.0';
const note = (kind, host, port) => {
  if (!out || loopback(String(host))) return;
  try {
    fs.appendFileSync(out, JSON.stringify({ pid: process.pid, kind, host: String(host), port: port ?? null }) + '\n');
  } catch {
    /* never break the CLI */
  }
};

const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  note('dns', host);
  return lookup.call(this, host, ...rest);
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  try {
    let o = args[0];
    if (Array.isArray(o)) o = o[0];
    if (o && typeof o === 'object' && !o.path) note('connect', o.host, o.port);
    else if (typeof o === 'number') note('connect', args[1], o);
  } catch {
    /* never break the CLI */
  }
  return connect.apply(this, args);
};
