// The forwarding hook: part of dist/cli.js, loaded before anything else of ours. It hands the payload
// to the store's resident recorder (resident.ts) through a request file in the store's private folder
// and waits for its answer: "appended". It loads none of the recording code, nor node:crypto, node:net
// or a stream (residentWire.ts says why). When there is no resident, or it does not take the payload
// within ACCEPT_MS, or it refuses, the caller (cli/main.ts) records the payload itself with dist/hook.js —
// the same code, the same lines — and starts a resident for the next hook. The protocol, and why a
// payload is never recorded twice nor lost: residentWire.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  residentOff,
  bundleIdOf,
  claimPending,
  dropRequestFiles,
  type HookRequest,
  newRequestId,
  pendingFileOf,
  putRequest,
  readAnswer,
  RESIDENT_OP,
  type ResidentStatus,
  STARTING_FILE,
  takeGo,
  WIRE_VERSION,
} from './residentWire';
import { readTailBytes } from '../core/storeFiles/fsx';
import { storeTrusted } from '../core/storeFiles/trust';
import { appendJsonLines } from '../core/storeFiles/jsonLines';
import { processAlive, residentHolder, sleepMs } from '../core/storeFiles/lock';
import { HOOK_STDIN_DEADLINE_MS, readStdin, type StdinResult } from '../recording/stdin';
import { storeFromArgs } from '../recording/storeArg';
import { STORE_FILE } from '../core/storeFiles/names';

/**
 * How long the hook waits for the resident to take its payload (the header's `acceptBy`); then it
 * claims the payload and records it itself (`AGENT_REWIND_RESIDENT_ACCEPT_MS` overrides: a machine too loaded for this).
 */
export const ACCEPT_MS = 80;
const acceptMs = (env: NodeJS.ProcessEnv) => Number(env.AGENT_REWIND_RESIDENT_ACCEPT_MS) || ACCEPT_MS;
/** Once the resident holds the claim, its `D` is awaited up to here (process uptime): inside the 20 s a hook promises. */
const DONE_BY_MS = HOOK_STDIN_DEADLINE_MS + 1500;
/**
 * A resident that holds the claim but has not started recording by here (process uptime: stopped, starved)
 * loses the payload to its hook, which records it itself (residentWire.ts `<id>.go`): early enough that the
 * hook's own recording fits in the 20 s it promises, and that the agent's next step waits for it.
 */
const TAKEOVER_MS = 15000;
/** How often the hook looks for its answer: a few system calls each time, no event loop. */
const POLL_MS = 0.25;
/** How often it asks whether the resident still lives (a signal 0). */
const ALIVE_EVERY_MS = 20;

export type ForwardResult =
  /** The resident appended the payload's lines; `context`: what to print. */
  | { kind: 'recorded'; context: string }
  /**
   * Record it here. `input`: stdin, when already read. `start`: no resident runs, start one.
   * `redelivered`: a resident took it and died before its append (see runHook).
   */
  | { kind: 'fallback'; input?: StdinResult; start: boolean; redelivered: boolean; dir?: string };

/** How a request ended (awaitAnswer). */
type Outcome =
  /** `D`: appended. */
  | { kind: 'done'; context: string }
  /** `R`: the resident will not record it (and holds no claim). */
  | { kind: 'refused'; reason: string }
  /** The hook claimed the payload (no answer in time, or the resident is gone: `ended`). */
  | { kind: 'mine'; ended: boolean }
  /** The resident claimed it and died without `D`. */
  | { kind: 'died' }
  /** The resident claimed it and is still at work when the hook's own deadline comes: it records it. */
  | { kind: 'late' }
  /** The resident claimed it but did not start recording by TAKEOVER_MS: the hook took it back and records it. */
  | { kind: 'taken' };

/** Hands the payload to the store's resident; says what the caller still has to do. */
export async function forwardHook(args: string[], hookBundle: string): Promise<ForwardResult> {
  const dir = storeFromArgs(args.slice(1));
  if (!dir || residentOff(process.env)) return { kind: 'fallback', start: false, redelivered: false };
  // Nothing is read from a store another user owns or may write (its lock file could name their process):
  // the hook refuses it and says why (recording/payload.ts), and no resident starts for it.
  if (!storeTrusted(dir)) return { kind: 'fallback', start: false, redelivered: false };
  const resident = residentHolder(dir);
  // None runs for this store (or no store yet): this hook records and starts one.
  if (!resident) return { kind: 'fallback', start: true, redelivered: false, dir };
  // One of an older build, which takes no request files: record here, until it exits idle.
  if (resident.op !== RESIDENT_OP) return { kind: 'fallback', start: false, redelivered: false, dir };
  const id = newRequestId();
  const input = await readStdin(HOOK_STDIN_DEADLINE_MS);
  if (input.kind !== 'ok') return { kind: 'fallback', input, start: false, redelivered: false, dir };
  const payload = Buffer.from(input.text, 'utf8');
  const acceptBy = Date.now() + acceptMs(process.env);
  try {
    const request: HookRequest = {
      v: WIRE_VERSION,
      op: 'hook',
      id,
      bundle: bundleIdOf(hookBundle),
      args,
      env: process.env,
      cwd: process.cwd(),
      size: payload.length,
      acceptBy,
    };
    putRequest(dir, request, payload);
  } catch {
    return { kind: 'fallback', input, start: false, redelivered: false, dir }; // no request could be put: nobody else has it
  }
  const o = awaitAnswer(dir, id, resident.pid, acceptBy);
  switch (o.kind) {
    case 'done':
      dropRequestFiles(dir, id, true);
      return { kind: 'recorded', context: o.context };
    case 'late':
      dropRequestFiles(dir, id, false); // the claim and the answer are the resident's until it is done (swept later)
      return { kind: 'recorded', context: '' };
    case 'refused':
      dropRequestFiles(dir, id, false);
      // A refusal from an older bundle: that resident exits, start ours.
      return { kind: 'fallback', input, start: o.reason === 'replaced', redelivered: false, dir };
    case 'taken':
      dropRequestFiles(dir, id, false); // its claim and `.go` stay: the resident, let go on, finds the payload taken
      return { kind: 'fallback', input, start: false, redelivered: false, dir };
    case 'mine':
      // With the resident gone nobody takes the request now, so the claim can go. Claimed at the accept
      // deadline, it stays (a resident that read the request before it may still try to claim it).
      dropRequestFiles(dir, id, o.ended);
      return { kind: 'fallback', input, start: o.ended, redelivered: false, dir };
    case 'died': {
      // With text in its claim it got to its append: finish that. Empty: nothing of it reached the log; record
      // it here (its dedupe marker, if any, is its own). Then nothing of the request is anyone's any more.
      const finished = finishPendingAppend(dir, id);
      dropRequestFiles(dir, id, true);
      if (finished) return { kind: 'recorded', context: '' };
      return { kind: 'fallback', input, start: true, redelivered: true, dir };
    }
  }
}

/** The hook's claim (residentWire.ts): true when the payload is the hook's to record. */
function claimedByHook(dir: string, id: string): boolean {
  try {
    return claimPending(dir, id);
  } catch {
    return true; // no claim can be made in the store: neither can the resident's, so it never records this one
  }
}

/** The hook takes a claimed payload back (residentWire.ts `<id>.go`): true when it is the hook's to record now. */
function tookOver(dir: string, id: string): boolean {
  try {
    return takeGo(dir, id);
  } catch {
    return false; // nothing can be decided in the store: the resident, holding the claim, records it
  }
}

/**
 * Waits for the resident's answer to request `id`, synchronously (the hook has nothing else to do, and
 * an event loop would cost more than the wait). At `acceptBy` without one, or when the resident is gone
 * first, settles who records it by the claim.
 */
function awaitAnswer(dir: string, id: string, pid: number, acceptBy: number): Outcome {
  let residentHolds = false;
  let triedTakeover = false;
  let aliveCheckAt = Date.now() + ALIVE_EVERY_MS;
  for (;;) {
    const a = readAnswer(dir, id);
    if (a)
      return a.kind === 'D' ? { kind: 'done', context: a.context } : { kind: 'refused', reason: a.kind === 'R' ? a.reason : 'request' };
    const now = Date.now();
    let gone = false;
    if (now >= aliveCheckAt) {
      aliveCheckAt = now + ALIVE_EVERY_MS;
      gone = !processAlive(pid);
    }
    if (!residentHolds && (gone || now >= acceptBy)) {
      if (claimedByHook(dir, id)) return { kind: 'mine', ended: gone };
      residentHolds = true;
    }
    if (residentHolds && gone) {
      const last = readAnswer(dir, id); // its answer, written just before it died
      return last?.kind === 'D' ? { kind: 'done', context: last.context } : { kind: 'died' };
    }
    const up = process.uptime() * 1000;
    if (residentHolds && up > TAKEOVER_MS && !triedTakeover) {
      triedTakeover = true;
      if (tookOver(dir, id)) return { kind: 'taken' };
    }
    if (residentHolds && up > DONE_BY_MS) return { kind: 'late' };
    sleepMs(POLL_MS);
  }
}

/**
 * Starts the store's resident, detached (its own process group, no stdio, not waited for): the hook
 * exits at once. `resident.starting` (made exclusively, stale after a few seconds) keeps a burst of
 * parallel hooks from starting one each; the resident's lock would stop the extras anyway.
 */
export function startResident(cliFile: string, dir: string): void {
  const marker = path.join(dir, STARTING_FILE);
  try {
    try {
      fs.writeFileSync(marker, String(process.pid), { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() - fs.statSync(marker).mtimeMs < STARTING_STALE_MS) return;
      fs.writeFileSync(marker, String(process.pid), { mode: 0o600 });
    }
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    spawn(process.execPath, [cliFile, 'resident', '--store', path.resolve(dir)], {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
    }).unref();
  } catch {
    /* no resident: every hook records itself, as before */
  }
}

const STARTING_STALE_MS = 10000;

/** How far back in the log a dead resident's last append is looked for (other hooks may have appended since). */
const SEARCH_BACK = 8 * 1024 * 1024;

/**
 * The resident died holding the claim of request `id`: appends what of its write-ahead copy the log
 * lacks — nothing when its append was whole, the lines after a torn one (the torn fragment stays,
 * skipped by every reader as after any killed writer), or all of it. False when the claim holds no
 * text (it died before its append: the hook records the payload) or is gone. The claim goes either way.
 */
export function finishPendingAppend(dir: string, id: string): boolean {
  const pending = pendingFileOf(dir, id);
  let text: string;
  try {
    text = fs.readFileSync(pending, 'utf8');
  } catch {
    return false;
  }
  const lines = text.split('\n').filter((l) => l !== '');
  if (lines.length === 0) {
    fs.rmSync(pending, { force: true });
    return false;
  }
  const logFile = path.join(dir, STORE_FILE.log);
  const present = linesPresent(logFile, lines, Buffer.byteLength(text));
  if (present < lines.length)
    appendJsonLines(
      logFile,
      lines.slice(present).map((l) => JSON.parse(l) as unknown),
    );
  fs.rmSync(pending, { force: true });
  return true;
}

/** How many of `lines`, from the first, stand whole and in order in the log's tail (0 when the first is not there). */
function linesPresent(logFile: string, lines: readonly string[], bytes: number): number {
  let tail: string;
  try {
    const read = readTailBytes(logFile, SEARCH_BACK + bytes);
    if (!read) return 0;
    tail = read.bytes.toString('utf8');
  } catch {
    return 0;
  }
  const logLines = tail.split('\n');
  // The last element is a line without its newline (torn, or none): not whole.
  const whole = logLines.slice(0, -1);
  const at = whole.lastIndexOf(lines[0]!);
  if (at < 0) return 0;
  let n = 0;
  while (n < lines.length && whole[at + n] === lines[n]) n++;
  return n;
}

/**
 * The running resident's own account (`agent-rewind status`), or null when none answers within
 * `timeoutMs` (none runs, or it is busy or stuck).
 */
export async function askResident(dir: string, timeoutMs = 2000): Promise<ResidentStatus | null> {
  const id = newRequestId();
  try {
    putRequest(dir, { v: WIRE_VERSION, op: 'status', id });
  } catch {
    return null;
  }
  try {
    const by = Date.now() + timeoutMs;
    while (Date.now() < by) {
      const a = readAnswer(dir, id);
      if (a) return a.kind === 'S' ? a.status : null;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return null;
  } finally {
    dropRequestFiles(dir, id, false);
  }
}
