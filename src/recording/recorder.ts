// Internal events -> store records, for every agent. Order at a PreToolUse: for shell
// tools the pre-command scan, then a `before-tool` checkpoint if the call is irreversible or
// compensatable, then the call line, then the `before` snapshots of the files it names. Shell
// capture (./shellCapture, one call per event) and git look-ups are loaded only when an event needs them.
import { newId } from '../core/storeFiles/ids';
import { classifyCall } from '../core/effects/classifyCall';
import { completeCompensation } from '../core/effects/compensation';
import { appendSessionEvent } from '../core/conversation/sessionLog';
import { type CallRecord, type CheckpointRecord, type LogRecord, type SnapRecord, trimInput } from '../core/storeFiles/records';
import { PATH_MAX } from '../core/paths';
import { allowedRoots, sessionRoot } from '../core/workspace/roots';
import type { Store } from '../core/store';
import type { ChangeSource } from './changeSource';
import type { AfterToolEvent, AgentEvent, BeforeToolEvent, PromptEvent, SessionStartEvent } from './events';
import { clearInflight, markInflight, repairOrphans } from './inflight';
import { observeBoundary } from './observe';
import { beforeOfAfterOnly } from './afterOnly';
import type { SessionPlace } from './shellCapture';

const MAX_LABEL = 2000;

const shellCapture = () => require('./shellCapture') as typeof import('./shellCapture');
const gitRepo = () => require('../core/git/repo') as typeof import('../core/git/repo');

function callRecord(store: Store, e: BeforeToolEvent): { call: CallRecord; checkpoint: CheckpointRecord | null } {
  const c = classifyCall(e.tool, e.kind, e.input, { ...(e.cwd ? { cwd: e.cwd } : {}), overrides: store.config().effects });
  // A git commit/reset/switch: the HEAD before it, looked up now, goes into the compensation.
  const compensation = c.git ? completeCompensation(c, (dir, globals) => gitRepo().gitHead(dir, globals)) : c.compensation;
  const call: CallRecord = {
    t: 'call',
    tool: e.tool,
    summary: c.summary,
    effect: c.effect,
    session: e.session,
    agent: e.agent,
    input: trimInput(e.input),
    time: Date.now(),
  };
  if (e.callId) call.call = e.callId;
  if (c.severity) call.severity = c.severity;
  if (compensation) call.compensation = compensation;
  const listed = c.effect === 'irreversible' || c.effect === 'compensatable';
  const checkpoint: CheckpointRecord | null = listed
    ? {
        t: 'checkpoint',
        id: newId(),
        time: call.time,
        kind: 'before-tool',
        label: `${e.tool}: ${c.summary}`.slice(0, MAX_LABEL),
        session: e.session,
        agent: e.agent,
        ...(e.cwd ? { cwd: e.cwd } : {}),
      }
    : null;
  return { call, checkpoint };
}

function observe(store: Store, e: AgentEvent, pending: readonly LogRecord[], now: number, source?: ChangeSource): LogRecord[] {
  try {
    return observeBoundary(store, e, pending, now, source);
  } catch (err) {
    store.logError(`observing the disk at ${e.type}: ${(err as Error).message}`);
    return [];
  }
}

/**
 * An edit reported after the write (Cursor's afterFileEdit): its call line, then per path the
 * `before` the store knows and the `after` on disk. Paths whose disk state the store already holds
 * add nothing; a path whose before nobody knows gets its `after` only, and errors.log says so.
 */
function afterOnlyLines(store: Store, e: AfterToolEvent, now: number): LogRecord[] {
  const call = `edit-${newId()}`;
  const meta = { session: e.session, tool: e.tool, call, time: now };
  const snaps: LogRecord[] = [];
  for (const p of e.paths) {
    const before = beforeOfAfterOnly(store, e, p, meta);
    if (before === 'recorded') continue;
    if (before) snaps.push(before);
    else
      store.logError(
        `${e.agent} ${e.tool}: the content of ${p} before the edit is unknown (no record, scan or git blob of it); only its after is recorded`,
      );
    const after = store.snapshot(p, 'after', { ...meta, origin: 'agent' });
    if (after) snaps.push(after);
  }
  if (snaps.length === 0) return [];
  const { call: line } = callRecord(store, { ...e, type: 'before_tool', callId: call });
  return [line, ...snaps];
}

export interface RecordOptions {
  /** Workspace folders named on the hook's command line (`--root`): a session in one of them is inside the workspace. */
  roots?: readonly string[];
  /** Sees the lines just before their one append (the resident recorder tells its waiting hook: resident/resident.ts). */
  beforeAppend?: (records: readonly LogRecord[]) => void;
  /**
   * What changed on disk, from the resident recorder's file watcher (./changeSource): shell capture
   * and the boundary observation look only at those paths where it vouches. Settle it first.
   */
  changes?: ChangeSource;
}

/** A turn boundary: no call of the last turn can still be running. */
function isBoundary(e: AgentEvent): boolean {
  return e.type === 'session_start' || e.type === 'prompt' || e.type === 'session_end' || (e.type === 'stop' && !e.subagent);
}

/** Does this event have a shell capture part? A turn boundary may finish a shell call left pending. */
function hasShellPart(e: AgentEvent, boundary: boolean): boolean {
  if (e.type === 'before_tool') return e.shell;
  if (e.type === 'after_tool') return e.shell && !e.afterOnly;
  return boundary;
}

/**
 * Where a session start's or prompt's session is: its folder becomes writable only through its workspace root
 * (git top-level or the folder itself); a folder too broad for that (home, /tmp, /), or outside the folders
 * VS Code has open, records file tools only.
 */
function placeSession(store: Store, e: AgentEvent, explicit: readonly string[]): SessionPlace {
  if (e.type !== 'session_start' && e.type !== 'prompt') return null;
  const where = e.cwd ? sessionRoot(e.cwd, allowedRoots(store.dir, explicit)) : null;
  if (where?.root) store.addRoots([where.root]);
  return where;
}

function startCheckpoint(
  e: SessionStartEvent | PromptEvent,
  now: number,
  captureNote: string | null,
  explicit: readonly string[],
): CheckpointRecord {
  const cp: CheckpointRecord = {
    t: 'checkpoint',
    id: newId(),
    time: now,
    kind: e.type === 'prompt' ? 'prompt' : 'session-start',
    label:
      e.type === 'prompt'
        ? e.text.slice(0, MAX_LABEL)
        : `Session started${e.source ? ` (${e.source})` : ''}${captureNote ? ` — ${captureNote}` : ''}`,
    session: e.session,
    agent: e.agent,
  };
  if (e.cwd) cp.cwd = e.cwd;
  if (explicit.length) cp.roots = [...explicit]; // what vouches for them as roots (Store.roots)
  if (e.transcript) cp.transcript = e.transcript;
  if (e.type === 'prompt' && e.promptId) cp.promptId = e.promptId;
  if (e.type === 'session_start' && e.source) cp.source = e.source;
  return cp;
}

/** The call line (and its checkpoint when listed), then the `before` snapshots of the files it names. */
function beforeToolLines(store: Store, e: BeforeToolEvent, now: number): LogRecord[] {
  const lines: LogRecord[] = [];
  const { call, checkpoint } = callRecord(store, e);
  if (checkpoint) lines.push(checkpoint);
  lines.push(call);
  markInflight(store, e); // before its `before` snapshot: a marker never lacks one it needs
  for (const p of e.paths) {
    const s = store.snapshot(p, 'before', { session: e.session, time: now, tool: e.tool, ...(e.callId ? { call: e.callId } : {}) });
    if (s) lines.push(s);
    noteUnrecordable(store, p, s, e, now);
  }
  return lines;
}

/**
 * A file tool's path that cannot be recorded — a FIFO, socket or device (no snapshot), a path over the
 * system's limit (unreadable) — leaves a gap line, so a plan over this call lists it as not restorable.
 */
function noteUnrecordable(store: Store, p: string, s: SnapRecord | null, e: BeforeToolEvent | AfterToolEvent, now: number): void {
  const long = Buffer.byteLength(p) >= PATH_MAX;
  if (s && !(s.skipped === 'unreadable' && long)) return;
  const reason = s ? 'path-length' : 'special-file';
  if (long)
    store.logError(`${e.tool}: a path of ${Buffer.byteLength(p)} bytes, over the ${PATH_MAX} the system opens, was not recorded`, {
      path: p.slice(0, 300),
    });
  try {
    store.appendGaps([{ t: 'gap', path: p, reason, session: e.session, tool: e.tool, ...(e.callId ? { call: e.callId } : {}), time: now }]);
  } catch (err) {
    store.logError(`recording what cannot be recorded: ${(err as Error).message}`);
  }
}

function afterToolLines(store: Store, e: AfterToolEvent, now: number): LogRecord[] {
  const lines: LogRecord[] = [];
  for (const p of e.paths) {
    const s = store.snapshot(p, 'after', {
      session: e.session,
      time: now,
      origin: 'agent',
      tool: e.tool,
      ...(e.callId ? { call: e.callId } : {}),
    });
    if (s) lines.push(s);
    noteUnrecordable(store, p, s, e, now);
  }
  return lines;
}

/** The event's own lines, after what shell capture and the boundary added. */
function eventLines(store: Store, e: AgentEvent, now: number, captureNote: string | null, explicit: readonly string[]): LogRecord[] {
  switch (e.type) {
    case 'session_start':
    case 'prompt':
      return [startCheckpoint(e, now, captureNote, explicit)];
    case 'before_tool':
      return beforeToolLines(store, e, now);
    case 'after_tool':
      return e.afterOnly ? afterOnlyLines(store, e, now) : afterToolLines(store, e, now);
    default:
      return [];
  }
}

/**
 * Records one event. Synchronous: when it returns, its lines are in the file. Order: at a turn boundary the
 * `after`s of calls whose PostToolUse never came; then shell capture's part (a pending shell call's `after`s, the
 * baseline, a shell command's scan); then, at a boundary, what changed on disk that nobody's tool recorded, so the
 * boundary's checkpoint is the disk; then the event's own lines.
 */
export function record(store: Store, e: AgentEvent, opts: RecordOptions = {}): void {
  const explicit = opts.roots ?? [];
  const now = Date.now();
  const boundary = isBoundary(e);
  const lines: LogRecord[] = [];
  const repair = boundary ? repairOrphans(store, e) : null;
  if (repair) lines.push(...repair.lines);
  const where = placeSession(store, e, explicit);
  const shell = hasShellPart(e, boundary)
    ? shellCapture().captureShell(store, e, boundary, { explicit, source: opts.changes, where })
    : null;
  try {
    if (shell) lines.push(...shell.lines);
    if (boundary) lines.push(...observe(store, e, lines, now, opts.changes));
    lines.push(...eventLines(store, e, now, shell?.note ?? null, explicit));
    if (lines.length) opts.beforeAppend?.(lines);
    store.append(lines);
    shell?.settle(true); // the scan state says what the log now holds
  } finally {
    shell?.settle(false); // an error before the append: the state stays as it was, its lock is let go
  }
  repair?.done();
  if (e.type === 'after_tool') clearInflight(store, e);
  appendSessionEvent(store.dir, e, lines, (m) => store.logError(m)); // our own conversation log, one line per event
}
