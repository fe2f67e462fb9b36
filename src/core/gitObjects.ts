// Read-only questions to git for shell capture and git compensations: where the repository is,
// which files are clean (their committed content is already in git's object store), and the
// content of a blob when a command changes a clean file. Nothing here writes to `.git`: every call
// runs with GIT_OPTIONAL_LOCKS=0 and only uses commands that read, except `startCachedStatus`,
// which writes our own copy of the index and nothing else. child_process is loaded on
// first use (the hook path for non-shell tools never needs it).
import type * as ChildProcess from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HeadInfo } from './effects/compensation';
import { crypto } from './blobs';
import { sleepMs } from './lock';

let cp: typeof ChildProcess | undefined;
function child(): typeof ChildProcess {
  return (cp ??= require('node:child_process') as typeof ChildProcess);
}
const ENV = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
delete (ENV as Record<string, string | undefined>).GIT_DIR;
delete (ENV as Record<string, string | undefined>).GIT_WORK_TREE;
delete (ENV as Record<string, string | undefined>).GIT_INDEX_FILE;

export interface GitResult {
  status: number;
  stdout: Buffer;
}

export function git(
  cwd: string,
  args: string[],
  opts: { input?: Buffer | string; timeout?: number; maxBuffer?: number; env?: NodeJS.ProcessEnv } = {},
): GitResult {
  const r = child().spawnSync('git', ['-C', cwd, ...args], {
    env: opts.env ?? ENV,
    input: opts.input,
    timeout: opts.timeout ?? 20000,
    maxBuffer: opts.maxBuffer ?? 1 << 30,
    stdio: ['pipe', 'pipe', 'ignore'],
    windowsHide: true,
  });
  return { status: r.error ? -1 : (r.status ?? -1), stdout: r.stdout ?? Buffer.alloc(0) };
}

/** HEAD of the repository at `dir` (with git's location options), for a compensation; null when not a repository. */
export function gitHead(dir: string, globals: string[] = []): HeadInfo | null {
  const sym = git(dir, [...globals, 'symbolic-ref', '-q', '--short', 'HEAD'], { timeout: 3000 });
  if (sym.status !== 0 && sym.status !== 1) return null; // not a repository (128) or git missing
  const rev = git(dir, [...globals, 'rev-parse', '--verify', '-q', 'HEAD'], { timeout: 3000 });
  const sha = rev.status === 0 ? rev.stdout.toString('utf8').trim() || null : null;
  return { sha, branch: sym.status === 0 ? sym.stdout.toString('utf8').trim() || null : null };
}

export interface RepoInfo {
  /** The work-tree root. */
  top: string;
  gitDir: string;
  objectFormat: 'sha1' | 'sha256';
  /** End-of-line conversion or content filters are configured: blobs are not the work-tree bytes. */
  filters: boolean;
  /** The global excludes file (core.excludesFile, or git's default location). */
  excludesFile: string | null;
}

/** The repository `dir` is in, or null (not a repository, or git is missing). */
export function repoInfo(dir: string): RepoInfo | null {
  const r = git(dir, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--show-object-format'], { timeout: 5000 });
  if (r.status !== 0) return null;
  const [top, gitDir, fmt] = r.stdout.toString('utf8').split('\n');
  if (!top || !gitDir) return null;
  const cfg = git(dir, ['config', '-z', '--get-regexp', '^(core\\.autocrlf|core\\.eol|core\\.excludesfile|filter\\..*)$'], {
    timeout: 5000,
  });
  let filters = false;
  let excludesFile: string | null = null;
  if (cfg.status === 0) {
    for (const entry of cfg.stdout.toString('utf8').split('\0')) {
      if (!entry) continue;
      const nl = entry.indexOf('\n');
      const key = (nl < 0 ? entry : entry.slice(0, nl)).toLowerCase();
      const val = nl < 0 ? '' : entry.slice(nl + 1);
      if (key === 'core.excludesfile') excludesFile = val.startsWith('~/') ? path.join(os.homedir(), val.slice(2)) : val;
      else if (key === 'core.autocrlf') filters ||= val === 'true' || val === 'input';
      else if (key.startsWith('filter.')) filters = true;
      else if (key === 'core.eol') filters ||= val === 'crlf';
    }
  }
  if (!excludesFile) {
    const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
    excludesFile = path.join(xdg, 'git', 'ignore');
  }
  // Attributes can ask for conversions too (text/eol/filter/ident/working-tree-encoding).
  if (!filters) filters = fs.existsSync(path.join(gitDir, 'info', 'attributes'));
  return { top, gitDir, objectFormat: fmt === 'sha256' ? 'sha256' : 'sha1', filters, excludesFile };
}

export interface IndexEntry {
  mode: string;
  id: string;
  /** The work tree may differ from the index without git's stat check noticing (assume-unchanged, skip-worktree) or the entry is conflicted. */
  untrusted: boolean;
}

/** The index entries under `dir` (paths relative to `dir`, `/`-separated). */
export function indexEntries(dir: string): Map<string, IndexEntry> | null {
  const r = git(dir, ['ls-files', '-z', '-s', '-v'], { timeout: 20000 });
  if (r.status !== 0) return null;
  const out = new Map<string, IndexEntry>();
  const text = r.stdout.toString('utf8');
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\0', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    // "<tag> <mode> <id> <stage>\t<path>"
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [tag, mode, id, stage] = line.slice(0, tab).split(' ');
    const p = line.slice(tab + 1);
    if (!tag || !mode || !id) continue;
    const untrusted = stage !== '0' || tag !== 'H' || out.has(p);
    out.set(p, { mode, id, untrusted });
  }
  return out;
}

const DIFF_FILES = ['diff-files', '-z', '--name-only', '--relative', '--ignore-submodules=all'];

function nameSet(out: Buffer): Set<string> {
  return new Set(out.toString('utf8').split('\0').filter(Boolean));
}

/** Tracked paths under `dir` whose work-tree file may differ from the index (git's stat check; false positives are fine). */
export function modifiedTracked(dir: string): Set<string> | null {
  const r = git(dir, DIFF_FILES, { timeout: 20000 });
  return r.status === 0 ? nameSet(r.stdout) : null;
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
function startGit<T>(dir: string, args: string[], tmpDir: string, parse: (out: Buffer) => T, env: NodeJS.ProcessEnv = ENV): PendingGit<T> {
  const now = (): PendingGit<T> => ({
    result: () => {
      const r = git(dir, args, { env });
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

/** `modifiedTracked`, started now and collected later (see `startGit`). */
export function startModifiedTracked(dir: string, tmpDir: string): PendingGit<Set<string>> {
  return startGit(dir, DIFF_FILES, tmpDir, nameSet);
}

export interface CachedStatus {
  /** Tracked paths whose work-tree file may differ from the index (or is gone). */
  modified: Set<string>;
  /** Untracked files, and (ending in `/`) folders git does not enter: nested repositories. */
  untracked: string[];
}

/**
 * `git status` of the whole work tree `dir` is in, against `indexFile`, a copy of the repository's index
 * that only we use: git refreshes its stat data and keeps its untracked cache there (folder stats,
 * so unchanged folders are not listed again), so a scan costs a fraction of a plain `git status`.
 * Paths are relative to the repository root. The real index is not read or written; this is the
 * one git call that writes (our copy), so it runs without GIT_OPTIONAL_LOCKS=0.
 */
export function startCachedStatus(dir: string, indexFile: string, tmpDir: string): PendingGit<CachedStatus> {
  const env: NodeJS.ProcessEnv = { ...ENV, GIT_INDEX_FILE: indexFile };
  delete env.GIT_OPTIONAL_LOCKS;
  const args = [
    // The cache is used only with the untracked-files mode it was made for; never a split or
    // sparse index (a split one would put its shared part in the repository), nor an fsmonitor.
    ...[
      '-c',
      'core.untrackedCache=true',
      '-c',
      'status.showUntrackedFiles=all',
      '-c',
      'core.splitIndex=false',
      '-c',
      'index.sparse=false',
      '-c',
      'core.fsmonitor=false',
    ],
    // No pathspec: git does not use the untracked cache with one.
    ...['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all', '--no-renames'],
  ];
  return startGit(
    dir,
    args,
    tmpDir,
    (out) => {
      const modified = new Set<string>();
      const untracked: string[] = [];
      for (const e of out.toString('utf8').split('\0')) {
        if (e.length < 4) continue;
        const p = e.slice(3);
        if (e.startsWith('??')) untracked.push(p);
        else if (e[1] !== ' ' || e[0] === 'U') modified.add(p);
      }
      return { modified, untracked };
    },
    env,
  );
}

/** The git object id of `data` as a blob (what `git hash-object` prints). */
export function gitBlobId(data: Uint8Array, format: 'sha1' | 'sha256' = 'sha1'): string {
  return crypto().createHash(format).update(`blob ${data.length}\0`).update(data).digest('hex');
}

/**
 * Reads blobs out of git in one process (`git cat-file --batch`). With `filters`, the content is
 * what a checkout would write for the given path (smudge filters, end-of-line conversion).
 * Missing objects map to null.
 */
export function readBlobs(dir: string, wanted: readonly { id: string; path: string }[], filters: boolean): Map<string, Buffer | null> {
  const out = new Map<string, Buffer | null>();
  if (wanted.length === 0) return out;
  const input = wanted.map((w) => (filters ? `${w.id} ${w.path}` : w.id)).join('\n') + '\n';
  const r = git(
    dir,
    ['cat-file', filters ? '--batch=%(objectname) %(objecttype) %(objectsize)' : '--batch', ...(filters ? ['--filters'] : [])],
    { input, timeout: 60000 },
  );
  if (r.status !== 0) {
    for (const w of wanted) out.set(`${w.id}\0${w.path}`, null);
    return out;
  }
  const buf = r.stdout;
  let pos = 0;
  for (const w of wanted) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) {
      out.set(`${w.id}\0${w.path}`, null);
      continue;
    }
    const header = buf.subarray(pos, nl).toString('utf8').split(' ');
    pos = nl + 1;
    if (header[1] !== 'blob') {
      out.set(`${w.id}\0${w.path}`, null);
      continue;
    }
    const size = Number(header[2]);
    out.set(`${w.id}\0${w.path}`, Buffer.from(buf.subarray(pos, pos + size)));
    pos += size + 1; // the content, then a newline
  }
  return out;
}
