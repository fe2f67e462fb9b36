// Test-only Codex hook: appends what one hook run received — the event named on the command line,
// argv, the hook's cwd, its environment, the stdin payload and whether the payload's transcript_path
// exists yet — as one JSON line to the file named by argv[2]. Exits 0. Prints nothing, unless a reply file for the event exists beside the log:
// `<log>.reply.<Event>` is printed to stdout as is (plain text or a JSON hook output), so a test
// can check what of a hook's stdout reaches the model.
//
//   node recordHook.mjs <log.jsonl> <Event>
import * as fs from 'node:fs';

const [out, event] = process.argv.slice(2);
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
// Whether the rollout named by transcript_path is on disk yet, and how big, when the hook runs.
let transcript = null;
if (typeof payload.transcript_path === 'string') {
  try {
    transcript = { exists: true, bytes: fs.statSync(payload.transcript_path).size };
  } catch {
    transcript = { exists: false };
  }
}
const line = {
  at: Date.now(),
  pid: process.pid,
  ppid: process.ppid,
  event,
  argv: process.argv.slice(1),
  cwd: process.cwd(),
  env: { ...process.env },
  transcript,
  payload,
};
if (out) fs.appendFileSync(out, JSON.stringify(line) + '\n');
const reply = out && event ? `${out}.reply.${event}` : '';
if (reply && fs.existsSync(reply)) process.stdout.write(fs.readFileSync(reply));
