// Runs one long install step quietly: its whole output goes to a log file under the git-ignored
// tools folder; the terminal gets one line when it ends (with the time it took), a progress line
// every 30 s while it runs (on a terminal only), and on failure the log's last lines and its path.
// Used by scripts/tools.mjs (code-server) and test/compat/kit/cli.ts (every agent CLI), both
// synchronous: runQuiet() runs this file as a child, whose own event loop keeps the progress going.
//
//   node scripts/quietRun.mjs <log file> <label> <prefix> <cwd|-> -- <command> [args...]
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const PROGRESS_MS = 30_000;
const TAIL_LINES = 30;

/** "42s", "3m05s": a measured duration, as every message states it. */
export function elapsed(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** The last `n` lines of a file (the whole file when shorter). */
export function tailLines(file, n = TAIL_LINES) {
  try {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    return lines.slice(-n).join('\n');
  } catch {
    return '';
  }
}

/**
 * Runs `cmd args` with its output appended to `log`; returns true when it exited 0. Prints, to
 * stderr with `prefix`: progress every 30 s on a terminal, the time taken, and on failure the
 * log's last lines and its path.
 */
export function runQuiet(cmd, args, { log, label, prefix, cwd, env, timeoutMs }) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), log, label, prefix, cwd ?? '-', '--', cmd, ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: env ?? process.env,
    ...(timeoutMs ? { timeout: timeoutMs } : {}),
  });
  return r.status === 0;
}

async function main(argv) {
  const sep = argv.indexOf('--');
  const [log, label, prefix, cwd] = argv.slice(0, sep);
  const [cmd, ...args] = argv.slice(sep + 1);
  const say = (m) => process.stderr.write(`${prefix} ${m}\n`);
  mkdirSync(dirname(log), { recursive: true });
  const fd = openSync(log, 'a');
  const t0 = Date.now();
  const child = spawn(cmd, args, { stdio: ['ignore', fd, fd], ...(cwd && cwd !== '-' ? { cwd } : {}) });
  const timer = process.stderr.isTTY
    ? setInterval(() => say(`  … ${label}: still running (${elapsed(Date.now() - t0)}; full output in ${log})`), PROGRESS_MS)
    : undefined;
  const code = await new Promise((res) => {
    child.on('error', (e) => {
      say(`${label}: could not start ${cmd}: ${e.message}`);
      res(127);
    });
    child.on('exit', (c, signal) => res(c ?? (signal ? 128 : 1)));
  });
  clearInterval(timer);
  closeSync(fd);
  if (code === 0) {
    say(`${label}: done in ${elapsed(Date.now() - t0)} (full output in ${log})`);
    return 0;
  }
  say(`${label}: FAILED after ${elapsed(Date.now() - t0)} (exit ${code}). The last lines of ${log}:`);
  process.stderr.write(`${tailLines(log)}\n`);
  say(`The whole output is in ${log}.`);
  return code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((c) => process.exit(c));
}
