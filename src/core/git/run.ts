// The one way this code base runs git. Every call runs with GIT_OPTIONAL_LOCKS=0 (git then never
// refreshes or locks the user's index while answering), no terminal prompt, the C locale, and
// without inherited GIT_DIR/GIT_WORK_TREE/GIT_INDEX_FILE; and only subcommands that read are
// allowed (a test pins both). The one exception is git status against an index file of our own
// (shell capture's copy in the store): git keeps its caches there, so that call may write it —
// that file and nothing else. child_process is loaded on first use (the hook path for non-shell
// tools never needs it).
import type * as ChildProcess from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sleepMs } from '../storeFiles/lock';
import { AgentRewindError } from '../errors';

let cp: typeof ChildProcess | undefined;
function child(): typeof ChildProcess {
  return (cp ??= require('node:child_process') as typeof ChildProcess);
}

/** Subcommands that only read (`config` only with --get…, checked below). */
export const READ_ONLY_SUBCOMMANDS = new Set(['rev-parse', 'symbolic-ref', 'config', 'ls-files', 'diff-files', 'status', 'cat-file']);

export const GIT_ENV: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
delete GIT_ENV.GIT_DIR;
delete GIT_ENV.GIT_WORK_TREE;
delete GIT_ENV.GIT_INDEX_FILE;

/** The subcommand of a git argument list (after `-c k=v`, `-C dir` and other global options). */
export function subcommandOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-C' || a === '--git-dir' || a === '--work-tree' || a === '--namespace') i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** Throws unless `args` only reads: the guard every call goes through. */
export function assertReadOnly(args: readonly string[]): void {
  const sub = subcommandOf(args);
  if (!sub || !READ_ONLY_SUBCOMMANDS.has(sub)) throw new AgentRewindError('git-write-refused', { sub, why: 'not-read-only' });
  if (sub === 'config' && !args.some((a) => a.startsWith('--get')))
    throw new AgentRewindError('git-write-refused', { sub, why: 'config-write' });
}

export interface RunOptions {
  input?: Buffer | string;
  timeout?: number;
  maxBuffer?: number;
  /** `git status` against this index file of ours (never the repository's): git may write it, and only it. */
  privateIndex?: string;
}

/** The environment for one call: GIT_OPTIONAL_LOCKS=0, except for a status on our own index copy. */
export function envFor(args: readonly string[], privateIndex?: string): NodeJS.ProcessEnv {
  assertReadOnly(args);
  if (!privateIndex) return GIT_ENV;
  if (subcommandOf(args) !== 'status') throw new AgentRewindError('git-write-refused', { sub: subcommandOf(args), why: 'private-index' });
  const env: NodeJS.ProcessEnv = { ...GIT_ENV, GIT_INDEX_FILE: privateIndex };
  delete env.GIT_OPTIONAL_LOCKS;
  return env;
}

export interface GitResult {
  status: number;
  stdout: Buffer;
}

/** Runs git synchronously in `cwd` (the hook and the CLI are synchronous). */
export function git(cwd: string, args: string[], opts: RunOptions = {}): GitResult {
  const env = envFor(args, opts.privateIndex);
  const r = child().spawnSync('git', ['-C', cwd, ...args], {
    env,
    input: opts.input,
    timeout: opts.timeout ?? 20000,
    maxBuffer: opts.maxBuffer ?? 1 << 30,
    stdio: ['pipe', 'pipe', 'ignore'],
    windowsHide: true,
  });
  return { status: r.error ? -1 : (r.status ?? -1), stdout: r.stdout ?? Buffer.alloc(0) };
}

/** Runs git without blocking (the extension host never waits on git synchronously). */
export function gitAsync(cwd: string, args: string[], opts: Omit<RunOptions, 'input' | 'privateIndex'> = {}): Promise<GitResult> {
  const env = envFor(args);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let proc: ChildProcess.ChildProcess;
    try {
      proc = child().spawn('git', ['-C', cwd, ...args], {
        env,
        stdio: ['ignore', 'pipe', 'ignore'],
        windowsHide: true,
        timeout: opts.timeout ?? 20000,
      });
    } catch {
      resolve({ status: -1, stdout: Buffer.alloc(0) });
      return;
    }
    proc.stdout!.on('data', (d: Buffer) => {
      size += d.length;
      if (size <= (opts.maxBuffer ?? 1 << 30)) chunks.push(d);
      else proc.kill('SIGKILL');
    });
    proc.on('error', () => resolve({ status: -1, stdout: Buffer.alloc(0) }));
    proc.on('close', (code) => resolve({ status: code ?? -1, stdout: Buffer.concat(chunks) }));
  });
}

export interface PendingGit<T> {
  /** Waits for git (at most `timeoutMs`) and returns its parsed output, or null. */
  result(timeoutMs?: number): T | null;
  /** Not needed after all: stops git and cleans up. */
  cancel(): void;
}

/**
 * A git command started now and collected later, so the caller's own work runs while git runs
 * (on another core). Hooks are synchronous, so git's end is seen through a status file its wrapper
 * shell writes when git exits; its output goes to a file beside it in `tmpDir`.
 */
export function startGit<T>(dir: string, args: string[], tmpDir: string, parse: (out: Buffer) => T, privateIndex?: string): PendingGit<T> {
  const env = envFor(args, privateIndex);
  const now = (): PendingGit<T> => ({
    result: () => {
      const r = git(dir, args, privateIndex ? { privateIndex } : {});
      return r.status === 0 ? parse(r.stdout) : null;
    },
    cancel: () => {},
  });
  if (process.platform === 'win32') return now();
  const base = path.join(tmpDir, `git-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
  const files = [`${base}.out`, `${base}.status`];
  let fds: number[] = [];
  let proc: ChildProcess.ChildProcess;
  const cleanup = () => {
    for (const fd of fds) fs.closeSync(fd);
    fds = [];
    for (const f of files) fs.rmSync(f, { force: true });
  };
  try {
    fs.mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
    fds = files.map((f) => fs.openSync(f, 'w+', 0o600));
    proc = child().spawn('sh', ['-c', 'umask 077; git "$@"; echo $? >&3', 'sh', '-C', dir, ...args], {
      env,
      stdio: ['ignore', fds[0]!, 'ignore', fds[1]!],
    });
    proc.unref();
  } catch {
    cleanup();
    return now();
  }
  return {
    result(timeoutMs = 20000) {
      try {
        const deadline = Date.now() + timeoutMs;
        while (fs.fstatSync(fds[1]!).size === 0) {
          if (Date.now() > deadline) {
            proc.kill('SIGKILL');
            return null;
          }
          sleepMs(1);
        }
        if (fs.readFileSync(files[1]!, 'utf8').trim() !== '0') return null;
        return parse(fs.readFileSync(files[0]!));
      } catch {
        return null;
      } finally {
        cleanup();
      }
    },
    cancel() {
      try {
        proc.kill('SIGKILL');
      } catch {
        /* gone */
      }
      cleanup();
    },
  };
}
