// Test-only Gemini CLI hook: appends one JSON line per call to the file named by argv[2] with the
// event named in argv[3] (what the settings said), the whole argv, the raw stdin payload, the
// hook's cwd, the environment variables Gemini adds (GEMINI_*, CLAUDE_*) plus AGENT_REWIND_*, and
// the names of all the others. Exits 0.
//
// Replies: when argv[4] names a JSON file `{ "<event>": <object> }`, the object for this event is
// printed on stdout (e.g. `{"hookSpecificOutput":{"additionalContext":"…"}}`; a string as plain text), to test what Gemini
// does with a hook's output; otherwise it prints nothing. `"<event>:sleepMs": n` in that file makes
// the hook sleep n ms first (to see what a hook timeout does).
import * as fs from 'node:fs';

const [out, event, repliesFile] = process.argv.slice(2);
const chunks = [];
for (;;) {
  const buf = Buffer.alloc(65536);
  let n = 0;
  try {
    n = fs.readSync(0, buf, 0, buf.length, null);
  } catch (e) {
    if (e.code === 'EAGAIN') continue;
    if (e.code === 'EOF') break;
    throw e;
  }
  if (n === 0) break;
  chunks.push(buf.subarray(0, n));
}
const raw = Buffer.concat(chunks).toString('utf8');
let payload;
try {
  payload = JSON.parse(raw);
} catch {
  payload = { unparsed: raw };
}
const env = {};
for (const [k, v] of Object.entries(process.env)) if (/^(GEMINI|CLAUDE|AGENT_REWIND)/.test(k)) env[k] = v;
const otherEnv = Object.keys(process.env)
  .filter((k) => !(k in env))
  .sort();
let reply;
let sleepMs = 0;
if (repliesFile) {
  try {
    const replies = JSON.parse(fs.readFileSync(repliesFile, 'utf8'));
    reply = replies[event];
    sleepMs = Number(replies[`${event}:sleepMs`] ?? 0);
  } catch {
    /* no replies file: print nothing */
  }
}
if (out) {
  const line = {
    at: Date.now(),
    pid: process.pid,
    event,
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    env,
    otherEnv,
    payload,
    ...(reply ? { replied: reply } : {}),
    ...(sleepMs ? { sleptMs: sleepMs } : {}),
  };
  fs.appendFileSync(out, JSON.stringify(line) + '\n');
}
if (sleepMs > 0) {
  // Recorded first: a hook killed by Gemini's timeout must still leave its line; `woke` says it was not.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, sleepMs);
  if (out) fs.appendFileSync(out, JSON.stringify({ at: Date.now(), pid: process.pid, event, woke: true }) + '\n');
}
// A string reply is printed as it is (plain text), anything else as JSON.
if (reply) process.stdout.write(typeof reply === 'string' ? reply : JSON.stringify(reply));
