// The compat tier (`node test/compat/run.mjs`, `npm run test:compat`, tier `compat` of scripts/test.mjs):
// our hooks, store and CLI against the REAL Claude Code CLI. Installs the pinned version once into
// .vscode-test/claude-code-<version>/ (CLAUDE_CODE_VERSION=<x> to try another), then runs
// test/compat/compat.ts under tsx. Bounded in time: COMPAT_TIMEOUT_S (default 600 s, install included).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const limit = Number(process.env.COMPAT_TIMEOUT_S || 600);
const t0 = Date.now();
const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'compat.ts')], { stdio: 'inherit', detached: true, env: process.env });
const timer = setTimeout(() => {
  console.error(`\ncompat: gave up after ${limit} s (COMPAT_TIMEOUT_S); killing the run.`);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}, limit * 1000);
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  console.log(`compat tier: ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
  process.exit(code ?? (signal ? 1 : 0));
});
