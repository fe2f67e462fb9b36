// What the forwarding hook (forward.ts, in dist/cli.js) and the resident recorder (resident.ts) agree
// on: the files through which a hook hands its payload over, and what they hold. Kept free of the
// recording code, and of node:crypto, node:os and node:net: the forwarding hook loads this and nothing
// else of ours, and every module it loads is paid on every agent tool call.
//
// Why files, not a socket (measured, README "The resident recorder"): the forwarding hook's whole cost
// is node's start plus what it adds, and a node process that opens any socket or stream (node:net,
// process.stdin on a pipe) loads node's stream machinery — about 5 ms of a 60 ms start, over the 10%
// the hook may add. Files in the store's own private folder need none of it, reach no other user (the
// folder is 0700; nothing listens anywhere, no port, no socket), and cost a few system calls.
//
// A conversation, all in `<store>/resident-pending/` (PENDING_DIR), one request id per hook:
//   hook     -> `<id>.req`: `{"v":3,"op":"hook",…,"acceptBy":T,"size":N}\n` + N bytes of payload, made whole
//               by a rename; the resident sees it through a watch on the folder (and a look at start).
//   resident -> `<id>.ans`: `D <json {"context"}>` done: appended, as the hook itself would have;
//               `R <reason>`: refused (another bundle, another store): the hook records it itself;
//               `S <json>`: its status, for `{"op":"status"}`.
//   The hook waits for the answer without an event loop (a few system calls a millisecond), then
//   removes its files.
// Who records a payload is settled by one file, `<id>` (the claim), made exclusively (claimPending): the
// resident makes it when it has the whole request before `acceptBy` (the hook's clock, the same
// machine's), and the hook makes it when it stops waiting (at its accept deadline without an answer, or
// when the resident is gone). Whoever makes it records; the other does not. Just before its one append
// to files.jsonl the resident writes the exact text into its claim (a write-ahead copy), and removes it
// once its answer is written. So a payload is recorded once and never lost: a hook that finds the
// resident's claim waits for `D`; when the resident dies without it, a copy with text is appended where
// the log lacks it (none, the torn rest, or all), an empty claim means nothing reached the log and the
// hook records the payload itself (forward.ts). A hook's own claim stays until a resident sweeps it a
// minute later: by then its `acceptBy` is long past, so no resident takes that payload any more.
// A claim is not a promise to be quick: a resident stopped or starved after its claim would leave the hook
// to exit unrecorded at its deadline, and the agent to go on — a PreToolUse recorded after the edit it
// precedes keeps the edited content, not what was there before. So a second exclusive file, `<id>.go`,
// settles who records once more: the resident makes it just before it starts recording, the hook at
// TAKEOVER (forward.ts) when the resident has not; whoever makes it records, the other does not.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Fallbacks } from '../core/capture/narrowing';
import { writeFileAtomic } from '../core/storeFiles/fsx';
import { claimMarker, inMarkerFolder } from '../core/storeFiles/markerFiles';
import { STORE_FILE } from '../core/storeFiles/names';

export const WIRE_VERSION = 3;

/**
 * What a resident writes as the operation of its `resident.lock`: a hook that finds another (a resident of
 * an older build, which listens on a socket) records by itself at once instead of waiting for an answer
 * that will not come; that resident exits when idle and the next hook starts one of this build.
 */
export const RESIDENT_OP = `resident (wire ${WIRE_VERSION})`;

/** `AGENT_REWIND_RESIDENT=0`: hooks neither use nor start a resident recorder. */
export const residentOff = (env: NodeJS.ProcessEnv): boolean => env.AGENT_REWIND_RESIDENT === '0';

/** Made by the hook that starts a resident, removed by the resident once it watches for requests: one start at a time. */
export const STARTING_FILE = STORE_FILE.residentStarting;

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
  /** 16 hex digits naming this request's files. */
  id: string;
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
  id: string;
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
  /** What the file watcher could not narrow since the resident started (core/capture/narrowing.ts). */
  fallbacks?: Fallbacks;
}

/** The folder of requests, answers, claims and write-ahead copies of the resident's appends (0700). */
export const PENDING_DIR = STORE_FILE.residentPending;
const ID = /^[0-9a-f]{16}$/;
const safe = (id: string) => id.replace(/[^0-9a-f]/g, '');
/** The claim (and, once the resident writes into it, the write-ahead copy) of request `id`. */
export const pendingFileOf = (dir: string, id: string) => path.join(dir, PENDING_DIR, safe(id));
export const requestFileOf = (dir: string, id: string) => path.join(dir, PENDING_DIR, `${safe(id)}.req`);
export const answerFileOf = (dir: string, id: string) => path.join(dir, PENDING_DIR, `${safe(id)}.ans`);
/** The request id a file of the folder is the request of (`.req`), or undefined. */
export const requestIdOf = (name: string) => idOf(name, '.req');

function idOf(name: string, suffix: string): string | undefined {
  const id = name.endsWith(suffix) ? name.slice(0, -suffix.length) : '';
  return ID.test(id) ? id : undefined;
}

/** A request id: 16 hex digits, unique among live processes (the pid) and across a pid's reuse (random bits). */
export function newRequestId(): string {
  const rand = Math.floor(Math.random() * 0x100000000);
  return (process.pid >>> 0).toString(16).padStart(8, '0').slice(-8) + rand.toString(16).padStart(8, '0');
}

/** Puts a request in place, whole (the resident never reads half of one). */
export function putRequest(dir: string, request: Request, payload: Buffer = Buffer.alloc(0)): void {
  const data = Buffer.concat([Buffer.from(JSON.stringify(request) + '\n', 'utf8'), payload]);
  inMarkerFolder(path.join(dir, PENDING_DIR), () => writeFileAtomic(requestFileOf(dir, request.id), data));
}

/** A request read whole, or undefined when it is gone (taken, withdrawn) or not ours. */
export function readRequest(dir: string, id: string): { request: Request; payload: Buffer } | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(requestFileOf(dir, id));
  } catch {
    return undefined;
  }
  const nl = data.indexOf(0x0a);
  if (nl < 0) return undefined;
  try {
    const request = JSON.parse(data.toString('utf8', 0, nl)) as Request;
    return request.id === id ? { request, payload: data.subarray(nl + 1) } : undefined;
  } catch {
    return undefined;
  }
}

/** The resident's answer to request `id`, whole (written beside it, then renamed into place). */
export function putAnswer(dir: string, id: string, line: string): void {
  writeFileAtomic(answerFileOf(dir, id), line + '\n');
}

export type Answer = { kind: 'D'; context: string } | { kind: 'R'; reason: string } | { kind: 'S'; status: ResidentStatus | null };

/** The answer to request `id`, when there is one yet. */
export function readAnswer(dir: string, id: string): Answer | undefined {
  let line: string;
  try {
    line = fs.readFileSync(answerFileOf(dir, id), 'utf8').replace(/\n$/, '');
  } catch {
    return undefined;
  }
  const sp = line.indexOf(' ');
  const kind = sp < 0 ? line : line.slice(0, sp);
  const rest = sp < 0 ? '' : line.slice(sp + 1);
  if (kind === 'D') return { kind: 'D', context: jsonField(rest, 'context') };
  if (kind === 'S') return { kind: 'S', status: jsonOf(rest) as ResidentStatus | null };
  return { kind: 'R', reason: rest };
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function jsonField(text: string, key: string): string {
  const v = jsonOf(text) as Record<string, unknown> | null;
  return typeof v?.[key] === 'string' ? v[key] : '';
}

/** Removes what request `id` left (its request, answer and claim): the hook's last step, whatever happened. */
export function dropRequestFiles(dir: string, id: string, withClaim: boolean): void {
  const claim = withClaim ? [pendingFileOf(dir, id), goFileOf(dir, id)] : [];
  for (const f of [requestFileOf(dir, id), answerFileOf(dir, id), ...claim]) fs.rmSync(f, { force: true });
}

/** `<id>.go`: made by whoever starts recording a payload the resident claimed (see above). */
export const goFileOf = (dir: string, id: string) => path.join(dir, PENDING_DIR, `${safe(id)}.go`);

/**
 * Claims request `id` for the caller: true when this call made its pending file (exclusively), false
 * when the other side made it first. Any other failure throws: the caller may not record it then.
 */
export function claimPending(dir: string, id: string): boolean {
  return claimMarker(pendingFileOf(dir, id));
}

/** Starts recording request `id` (its claim already made): true when this call made `<id>.go`, false when the other side did. */
export function takeGo(dir: string, id: string): boolean {
  return claimMarker(goFileOf(dir, id));
}
