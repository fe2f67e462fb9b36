// The compat kit's test-only hook recorder, for every agent CLI: appends what one hook run received as
// one JSON line to the log file named by argv[2] — the event named on the command line (argv[3], what
// the settings said), argv, the hook's cwd, the agent's environment variables (CLAUDE_*, CODEX_*,
// GEMINI_*, QWEN_*, … and AGENT_REWIND_*) plus the names of all the others, whether the payload's
// transcript_path exists yet and how big it is, and the stdin payload. Installed next to ours in a
// test workspace, never by Connect. Exits 0; prints nothing unless a reply is set for the event:
//   - argv[4] names a JSON file `{ "<event>": <reply> }`: a string reply is printed as is, anything
//     else as JSON; `"<event>:sleepMs": n` there makes the hook sleep n ms first (to see what a hook
//     timeout does; the line is written first, and a second `woke` line after the sleep);
//   - otherwise a file `<log>.reply.<event>` beside the log is printed as is.
//
//   node test/compat/kit/recordHook.mjs <log.jsonl> [<event>] [<replies.json>]
import * as fs from 'node:fs';

const AGENT_ENV = /^(CLAUDE|CODEX|GEMINI|QWEN|OPENCODE|FACTORY|DROID|AUGMENT|AUGGIE|AGENT_REWIND)/;
const [out, event, repliesFile] = process.argv.slice(2);

function readStdin() {
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
  return Buffer.concat(chunks).toString('utf8');
}

function parse(raw) {
  try {
    return JSON.parse(raw);
  } catch {
    return { unparsed: raw };
  }
}

/** Whether the file named by the payload's transcript_path is on disk yet, and how big, when the hook runs. */
function transcriptState(payload) {
  if (typeof payload?.transcript_path !== 'string') return null;
  try {
    return { exists: true, bytes: fs.statSync(payload.transcript_path).size };
  } catch {
    return { exists: false };
  }
}

/** What to print for this event, and how long to sleep first. */
function replyFor() {
  if (repliesFile) {
    try {
      const replies = JSON.parse(fs.readFileSync(repliesFile, 'utf8'));
      return { reply: replies[event], sleepMs: Number(replies[`${event}:sleepMs`] ?? 0) };
    } catch {
      return { sleepMs: 0 };
    }
  }
  const file = out && event ? `${out}.reply.${event}` : '';
  return { reply: file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined, sleepMs: 0 };
}

const payload = parse(readStdin());
const env = {};
for (const [k, v] of Object.entries(process.env)) if (AGENT_ENV.test(k)) env[k] = v;
const otherEnv = Object.keys(process.env)
  .filter((k) => !(k in env))
  .sort();
const { reply, sleepMs } = replyFor();
if (out) {
  const line = {
    at: Date.now(),
    pid: process.pid,
    ppid: process.ppid,
    event,
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    env,
    otherEnv,
    transcript: transcriptState(payload),
    payload,
    ...(reply ? { replied: reply } : {}),
    ...(sleepMs ? { sleptMs: sleepMs } : {}),
  };
  fs.appendFileSync(out, JSON.stringify(line) + '\n');
}
if (sleepMs > 0) {
  // Recorded first: a hook killed by the agent's timeout must still leave its line; `woke` says it was not.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, sleepMs);
  if (out) fs.appendFileSync(out, JSON.stringify({ at: Date.now(), pid: process.pid, event, woke: true }) + '\n');
}
if (reply) process.stdout.write(typeof reply === 'string' ? reply : JSON.stringify(reply));
