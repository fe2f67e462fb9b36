// What the forwarding hook (forward.ts, in dist/cli.js) and the resident recorder (resident.ts) agree
// on: where a store's resident listens, the files it keeps in the store, and the messages. Kept
// free of the recording code, and of node:crypto and node:os: the forwarding hook loads this and
// nothing else of ours, and every module it loads is paid on every agent tool call.
//
// A conversation (one connection, one payload, one round trip):
//   hook     -> `{"v":2,"op":"hook","secret",…,"acceptBy":T,"size":N}\n` + N bytes of payload
//   resident -> `D <json {"context"}>\n`  done: appended, as the hook itself would have
//   resident -> `R <reason>\n`  refused (wrong secret, another bundle, too late): the hook records it itself
// Who records a payload is settled by one file, `<store>/resident-pending/<request id>`, made
// exclusively (claimPending): the resident makes it when it has the whole payload before `acceptBy`
// (the hook's clock, the same machine's), and the hook makes it when it stops waiting (at its accept
// deadline without an answer, or when the connection ends without `D`). Whoever makes it records; the
// other does not. Just before its one append to files.jsonl the resident writes the exact text into
// that file (a write-ahead copy), and removes it once `D` is out. So a payload is recorded once and
// never lost: a hook that finds the resident's claim waits for `D`; when the connection ends without
// it (the resident died), a copy with text is appended where the log lacks it (none, the torn rest, or
// all), an empty claim means nothing reached the log and the hook records the payload itself
// (forward.ts). A hook's own claim stays until a resident sweeps it a minute later: by then its
// `acceptBy` is long past, so no resident takes that payload any more. `{"op":"status"}` is answered
// with `S <json>`.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WIRE_VERSION = 2;

/** `AGENT_REWIND_RESIDENT=0`: hooks neither use nor start a resident recorder. */
export const residentOff = (env: NodeJS.ProcessEnv): boolean => env.AGENT_REWIND_RESIDENT === '0';

/** The per-store secret a hook presents (0600, made by the first resident). */
export const SECRET_FILE = 'resident.secret';
/** Made by the hook that starts a resident, removed by the resident once it listens: one start at a time. */
export const STARTING_FILE = 'resident.starting';

/**
 * 64 bits of FNV-1a (two 32-bit lanes) as 16 hex digits: names a socket after its store's path without
 * loading node:crypto in the hook (the socket folder is private, so a name need not resist a forger).
 */
export function hash16(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c ^ (a >>> 13), 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

export interface SocketPlace {
  platform: NodeJS.Platform;
  /** XDG_RUNTIME_DIR when set, else the temp folder. */
  runtimeDir: string;
  /** The user's id (POSIX), naming the private folder. */
  uid: number;
}

/**
 * os.tmpdir() on POSIX, without loading node:os in the hook (milliseconds of every start): the same
 * variables in the same order, a trailing slash dropped. Windows names pipes, not folders: os there.
 */
function tmpDir(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') return (require('node:os') as typeof import('node:os')).tmpdir();
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

export function socketPlace(env: NodeJS.ProcessEnv = process.env): SocketPlace {
  return {
    platform: process.platform,
    runtimeDir: env.XDG_RUNTIME_DIR || tmpDir(env),
    uid: typeof process.getuid === 'function' ? process.getuid() : 0,
  };
}

/** The private folder (0700) holding this user's resident sockets; undefined on Windows (named pipes). */
export function socketFolder(place: SocketPlace): string | undefined {
  return place.platform === 'win32' ? undefined : path.posix.join(place.runtimeDir, `agent-rewind-${place.uid}`);
}

/**
 * Where the resident of the store whose real path is `realStore` listens: a named pipe on Windows, a
 * Unix socket in the private folder otherwise — named by a hash, so the path stays far below
 * sun_path's ~104-108 bytes whatever the store's path.
 */
export function socketPathOf(realStore: string, place: SocketPlace): string {
  const folder = socketFolder(place);
  return folder === undefined
    ? path.win32.join('\\\\.\\pipe', `agent-rewind-${hash16(realStore.toLowerCase())}`)
    : path.posix.join(folder, `${hash16(realStore)}.sock`);
}

/** Which bundle a process runs: size, mtime and inode of the file (a rebuild or an update changes them). */
export interface BundleId {
  id: string;
  mtime: number;
}

export function bundleIdOf(file: string): BundleId {
  const st = fs.statSync(file);
  return { id: `${st.size}:${st.mtimeMs}:${st.ino}`, mtime: st.mtimeMs };
}

export interface HookRequest {
  v: number;
  op: 'hook';
  /** Random hex naming this request's pending copy. */
  id: string;
  secret: string;
  bundle: BundleId;
  /** The hook's arguments after `hook`: agent, event, options. */
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The hook's working folder. */
  cwd: string;
  /** Bytes of payload after the header line. */
  size: number;
  /** Epoch ms (the hook's clock): a payload whole at the resident only later is the hook's to record. */
  acceptBy: number;
}

export interface StatusRequest {
  v: number;
  op: 'status';
  secret: string;
}

export type Request = HookRequest | StatusRequest;

/** The resident's answer to `status`. */
export interface ResidentStatus {
  pid: number;
  since: number;
  roots: string[];
  watches: number;
  bundle: string;
  served: number;
}

/** The folder of claims and write-ahead copies of the resident's appends, one file per request. */
export const PENDING_DIR = 'resident-pending';
export const pendingFileOf = (dir: string, id: string) => path.join(dir, PENDING_DIR, id.replace(/[^0-9a-f]/g, ''));

/**
 * Claims request `id` for the caller: true when this call made its pending file (exclusively), false
 * when the other side made it first. Any other failure throws: the caller may not record it then.
 */
export function claimPending(dir: string, id: string): boolean {
  const file = pendingFileOf(dir, id);
  for (let tries = 0; ; tries++) {
    try {
      fs.closeSync(fs.openSync(file, 'wx', 0o600));
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'ENOENT' || tries > 0) throw e;
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    }
  }
}

/** Splits a stream of bytes into lines. */
export function lineReader(onLine: (line: string) => void): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      onLine(line);
    }
  };
}
