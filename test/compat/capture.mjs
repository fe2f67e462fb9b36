// Test-only hook (compat tier): appends the raw hook payload from stdin, with the hook's cwd and the
// Claude-specific environment variables it received, as one JSON line to the file named by argv[2].
// Installed next to ours in the test workspace's settings, never by Connect. Exits 0, prints nothing.
import * as fs from 'node:fs';

const out = process.argv[2];
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
for (const [k, v] of Object.entries(process.env)) if (/^CLAUDE/.test(k) || k === 'AGENT_REWIND_STORE') env[k] = v;
if (out) fs.appendFileSync(out, JSON.stringify({ at: Date.now(), pid: process.pid, cwd: process.cwd(), env, payload }) + '\n');
