// What the forwarding hook (forward.ts, in dist/cli.js) and the resident recorder (resident.ts) agree
// on: where a store's resident listens, the files it keeps in the store, and the messages. Kept
// free of the recording code: the forwarding hook loads this and nothing else of ours.
//
// A conversation (one connection, one payload):
//   hook     -> `{"v":1,"op":"hook","secret",…,"size":N}\n` + N bytes of payload
//   resident -> `A\n`   accepted: it has the whole payload and will record it once the hook says go
//   hook     -> `G\n`   go (sent only while the hook has not given up waiting for `A`)
//   resident -> `D <json {"context"}>\n`  done: appended, as the hook itself would have
//   resident -> `R <reason>\n`  refused (wrong secret, another bundle): the hook records it itself
// Just before its one append to files.jsonl, the resident writes the exact text to
// `<store>/resident-pending/<request id>` (removed once `D` is out): a write-ahead copy.
// So a payload is recorded once: without `A` in time the hook never says go, and the resident drops
// it. After go, when the resident dies without `D`, the hook finishes its work: with a pending copy,
// it appends what of that text the log lacks (none, the torn rest, or all); without one, nothing
// reached the log and it records the payload itself (forward.ts). `{"op":"status"}` is answered with
// `S <json>`.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const WIRE_VERSION = 1;

/** `AGENT_REWIND_RESIDENT=0`: hooks neither use nor start a resident recorder. */
export const residentOff = (env: NodeJS.ProcessEnv): boolean => env.AGENT_REWIND_RESIDENT === '0';

/** The per-store secret a hook presents (0600, made by the first resident). */
export const SECRET_FILE = 'resident.secret';
/** Made by the hook that starts a resident, removed by the resident once it listens: one start at a time. */
export const STARTING_FILE = 'resident.starting';

const hash16 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

export interface SocketPlace {
  platform: NodeJS.Platform;
  /** XDG_RUNTIME_DIR when set, else the temp folder. */
  runtimeDir: string;
  /** The user's id (POSIX), naming the private folder. */
  uid: number;
}

export function socketPlace(env: NodeJS.ProcessEnv = process.env): SocketPlace {
  return {
    platform: process.platform,
    runtimeDir: env.XDG_RUNTIME_DIR || os.tmpdir(),
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

/** The folder of write-ahead copies of the resident's appends, one file per request. */
export const PENDING_DIR = 'resident-pending';
export const pendingFileOf = (dir: string, id: string) => path.join(dir, PENDING_DIR, id.replace(/[^0-9a-f]/g, ''));

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
