// The compat tier (`node test/compat/run.mjs`, `npm run test:compat`, tier `compat` of scripts/test.mjs):
// our hooks, store and CLI against the REAL agent CLIs, offline against scripted model servers. Each
// client is installed pinned, once, into .vscode-test/ (never a project dependency), then run under tsx:
// Claude Code (test/compat/compat.ts), then Codex CLI (test/compat/codex/compat.ts), then Gemini CLI
// (test/compat/gemini/compat.ts). Every client prints
// one line `<agent> <version>: <n> checks, <n> passed, <n> failed`; the tier fails if any run fails.
// Bounded in time: COMPAT_TIMEOUT_S (default 1500 s for all clients, installs included).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const limit = Number(process.env.COMPAT_TIMEOUT_S || 1500);
const t0 = Date.now();
const steps = [join(here, 'compat.ts'), join(here, 'codex', 'compat.ts'), join(here, 'gemini', 'compat.ts')];

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
for (const s of steps) if ((await runStep(s)) !== 0) failed++;
clearTimeout(timer);
console.log(`compat tier: ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
process.exit(failed ? 1 : 0);
