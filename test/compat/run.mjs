// The compat tier (`node test/compat/run.mjs`, `npm run test:compat`, tier `compat` of scripts/test.mjs):
// our hooks, store and CLI against the REAL Claude Code CLI. Installs the pinned version once into
// .vscode-test/claude-code-<version>/ (CLAUDE_CODE_VERSION=<x> to try another), then runs
// test/compat/compat.ts under tsx; then the Gemini CLI tier (test/compat/gemini/compat.ts, pinned 0.61.0, installed into
// .vscode-test/ the same way). Bounded in time together: COMPAT_TIMEOUT_S (default 600 s, installs included).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const limit = Number(process.env.COMPAT_TIMEOUT_S || 600);
const t0 = Date.now();
/** Runs one tier's script under tsx in its own process group; resolves with its exit status. */
function tier(script) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, script)], { stdio: 'inherit', detached: true, env: process.env });
    const timer = setTimeout(
      () => {
        console.error(`\ncompat: gave up after ${limit} s (COMPAT_TIMEOUT_S); killing the run.`);
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      },
      Math.max(1, limit * 1000 - (Date.now() - t0)),
    );
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const claude = await tier('compat.ts');
// The Gemini CLI tier (test/compat/gemini/compat.ts): runs even when Claude's failed, so both lines print.
const gemini = await tier(join('gemini', 'compat.ts'));
console.log(`compat tier: ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
process.exit(claude || gemini);
