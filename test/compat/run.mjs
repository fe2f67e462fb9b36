// The compat tier (`node test/compat/run.mjs`, `npm run test:compat`, tier `compat` of scripts/test.mjs):
// our hooks, store and CLI against the REAL agent CLIs, offline against scripted model servers. Each
// client is installed pinned, once, into .vscode-test/ (never a project dependency), then run under tsx:
// Claude Code (test/compat/compat.ts), Codex CLI (codex/compat.ts), Gemini CLI (gemini/compat.ts),
// OpenCode (opencode/compat.ts), Qwen Code (qwen/compat.ts) and Factory Droid (droid/compat.ts), one after the other, all on the same
// kit (test/compat/kit/: one scripted model server, one CLI driver, one hook recorder) and the same
// tools folder. Every client prints one line `<agent> <version>: <n> checks, <n> passed, <n> failed`
// and its time; the tier fails if any run fails. COMPAT_ONLY=opencode,qwen runs some of them.
// Bounded in time: COMPAT_TIMEOUT_S (default 1800 s for all clients, installs included).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const limit = Number(process.env.COMPAT_TIMEOUT_S || 1800);
const t0 = Date.now();
const CLIENTS = {
  claude: join(here, 'compat.ts'),
  codex: join(here, 'codex', 'compat.ts'),
  gemini: join(here, 'gemini', 'compat.ts'),
  opencode: join(here, 'opencode', 'compat.ts'),
  qwen: join(here, 'qwen', 'compat.ts'),
  droid: join(here, 'droid', 'compat.ts'),
};
const only = (process.env.COMPAT_ONLY ?? '').split(',').filter(Boolean);
const unknown = only.filter((c) => !(c in CLIENTS));
if (unknown.length) {
  console.error(`compat: COMPAT_ONLY names ${unknown.join(', ')}; known: ${Object.keys(CLIENTS).join(', ')}`);
  process.exit(2);
}
const steps = Object.entries(CLIENTS).filter(([name]) => !only.length || only.includes(name));

let child = null;
const timer = setTimeout(() => {
  console.error(`\ncompat: gave up after ${limit} s (COMPAT_TIMEOUT_S); killing the run.`);
  try {
    if (child) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child?.kill('SIGKILL');
  }
  process.exit(1);
}, limit * 1000);

function runStep(file) {
  return new Promise((resolve) => {
    child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit', detached: true, env: process.env });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

let failed = 0;
for (const [name, file] of steps) {
  const t = Date.now();
  const code = await runStep(file);
  if (code !== 0) failed++;
  console.log(`compat ${name}: ${((Date.now() - t) / 1000).toFixed(1)} s${code ? ' (failed)' : ''}`);
}
clearTimeout(timer);
console.log(`compat tier: ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
process.exit(failed ? 1 : 0);
