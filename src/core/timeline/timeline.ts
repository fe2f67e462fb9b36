// Pure functions over the sequenced records of `files.jsonl`: checkpoints, the state of every
// recorded path at a checkpoint, and what each checkpoint's span touched. The sequence (line order)
// is the only clock: timestamps are for display.
import type { CallRecord, CheckpointRecord, Sequenced, SnapRecord } from '../storeFiles/records';
import { isCall, isCheckpoint, isSnap } from '../storeFiles/records';

/** What we know of one path at one moment. `hash: null` without `skipped` = the path did not exist. */
export interface FileState {
  hash: string | null;
  size?: number;
  mtime?: number;
  mode?: number;
  link?: boolean;
  skipped?: SnapRecord['skipped'];
  dirs?: string[];
  /** The record this state comes from. */
  seq: number;
  phase: SnapRecord['phase'];
  session?: string;
}

export function stateOf(s: Sequenced<SnapRecord>): FileState {
  const st: FileState = { hash: s.hash, seq: s.seq, phase: s.phase };
  if (s.size !== undefined) st.size = s.size;
  if (s.mtime !== undefined) st.mtime = s.mtime;
  if (s.mode !== undefined) st.mode = s.mode;
  if (s.link) st.link = true;
  if (s.skipped) st.skipped = s.skipped;
  if (s.dirs) st.dirs = s.dirs;
  if (s.session !== undefined) st.session = s.session;
  return st;
}

/**
 * Permission bits that matter for a rewind: the executable bits. (Records made from git's index
 * carry git's normalised 0644/0755, so the other bits cannot be compared across records.) Unknown
 * modes never differ.
 */
export function sameExec(a: number | undefined, b: number | undefined): boolean {
  return a === undefined || b === undefined || (a & 0o111) === (b & 0o111);
}

/** True when two states describe the same content (existence, bytes, kind, and whether it is executable). */
export function sameContent(a: FileState, b: FileState): boolean {
  if (a.skipped || b.skipped) return false; // unknown content never counts as equal
  return a.hash === b.hash && !!a.link === !!b.link && (a.hash === null || !!a.link || sameExec(a.mode, b.mode));
}

export function checkpoints(records: readonly Sequenced[]): Sequenced<CheckpointRecord>[] {
  return records.filter(isCheckpoint) as Sequenced<CheckpointRecord>[];
}

/** What Store.roots reads of the checkpoints: whether any names a folder at all, and each working folder and recorded root once. */
export interface RecordedFolders {
  named: boolean;
  cwds: string[];
  roots: string[];
}

/** The folders `cps` name (RecordedFolders), added to `into`. */
export function recordedFoldersOf(cps: Iterable<CheckpointRecord>, into?: RecordedFolders): RecordedFolders {
  const out = into ?? { named: false, cwds: [], roots: [] };
  const cwds = new Set(out.cwds);
  const roots = new Set(out.roots);
  for (const r of cps) {
    if (!r.cwd && !r.roots) continue;
    out.named = true;
    if (r.cwd) cwds.add(r.cwd);
    for (const x of r.roots ?? []) roots.add(x);
  }
  out.cwds = [...cwds];
  out.roots = [...roots];
  return out;
}

export type FindResult =
  { ok: true; checkpoint: Sequenced<CheckpointRecord> } | { ok: false; reason: 'none' | 'ambiguous'; matches: string[] };

/** Finds a checkpoint by id, or by a unique prefix of its id. */
export function findCheckpoint(records: readonly Sequenced[], idOrPrefix: string): FindResult {
  const all = checkpoints(records);
  return findCheckpointIn(
    all.map((c) => c.id),
    idOrPrefix,
    (i) => all[i]!,
  );
}

/** findCheckpoint over the checkpoints' ids, in order: `at(i)` gives the `i`th checkpoint (the timeline index builds only that one). */
export function findCheckpointIn(ids: readonly string[], idOrPrefix: string, at: (i: number) => Sequenced<CheckpointRecord>): FindResult {
  const exact = ids.indexOf(idOrPrefix);
  if (exact >= 0) return { ok: true, checkpoint: at(exact) };
  const matches: number[] = [];
  if (idOrPrefix.length >= 4) ids.forEach((id, i) => id.startsWith(idOrPrefix) && matches.push(i));
  if (matches.length === 1) return { ok: true, checkpoint: at(matches[0]!) };
  return { ok: false, reason: matches.length ? 'ambiguous' : 'none', matches: matches.map((i) => ids[i]!) };
}

/**
 * What a rewind goes back to: a checkpoint, or the moment just before one tool call (finer than a
 * turn: every file tool call has a `before` snapshot, every shell call a pre-command scan). Passed
 * around as a string: a checkpoint id, or `before:<call id>` (BEFORE_CALL).
 */
export interface RewindTarget {
  /** The checkpoint id, or the call id for a call. */
  id: string;
  /** Records with a sequence number up to this one are before the target. */
  seq: number;
  kind: CheckpointRecord['kind'] | 'before-call';
  label: string;
  time: number;
  session?: string;
  /** For a call: the call, and its place among its turn's calls ("step 7 of 15"). */
  call?: { id: string; tool: string; summary: string; step: number; of: number };
  checkpoint?: Sequenced<CheckpointRecord>;
}

export const BEFORE_CALL = 'before:';

export function targetOfCheckpoint(c: Sequenced<CheckpointRecord>): RewindTarget {
  return { id: c.id, seq: c.seq, kind: c.kind, label: c.label, time: c.time, ...(c.session ? { session: c.session } : {}), checkpoint: c };
}

/** The moment just before the tool call `callId` (its first call line), or null when no such call is recorded. */
export function beforeCallTarget(records: readonly Sequenced[], callId: string): RewindTarget | null {
  const i = records.findIndex((r) => isCall(r) && r.call === callId);
  if (i < 0) return null;
  const call = records[i] as Sequenced<CallRecord>;
  // Its turn: the calls of its session since that session's last prompt or session start.
  let start = 0;
  for (let j = i - 1; j >= 0; j--) {
    const r = records[j]!;
    if (isCheckpoint(r) && r.session === call.session && (r.kind === 'prompt' || r.kind === 'session-start')) {
      start = j + 1;
      break;
    }
  }
  let step = 0;
  let of = 0;
  for (let j = start; j < records.length; j++) {
    const r = records[j]!;
    if (isCheckpoint(r) && r.session === call.session && (r.kind === 'prompt' || r.kind === 'session-start')) break;
    if (!isCall(r) || r.session !== call.session) continue;
    of++;
    if (j === i) step = of;
  }
  return {
    id: callId,
    seq: call.seq - 1,
    kind: 'before-call',
    label: `${call.tool}: ${call.summary}`,
    time: call.time,
    ...(call.session ? { session: call.session } : {}),
    call: { id: callId, tool: call.tool, summary: call.summary, step, of },
  };
}

/** Phases whose content describes the disk *before* something happened: valid for earlier moments. */
export const BEFORE_PHASES = new Set<SnapRecord['phase']>(['before', 'baseline', 'observed', 'pre-rewind']);

/**
 * The state of every recorded path at checkpoint `seq`: the last snapshot at or before it; for a
 * path first recorded after it by a before/baseline/pre-rewind snapshot, that content (nobody
 * recorded a change to it in between). Paths first seen through an `after`/`rewind` snapshot have
 * no known state at the checkpoint and are absent from the map.
 */
export function stateAt(records: readonly Sequenced[], seq: number): Map<string, FileState> {
  const state = new Map<string, FileState>();
  const firstAfter = new Map<string, Sequenced<SnapRecord>>();
  for (const r of records) {
    if (!isSnap(r)) continue;
    const s = r as Sequenced<SnapRecord>;
    if (s.seq < seq) state.set(s.path, stateOf(s));
    else if (!state.has(s.path) && !firstAfter.has(s.path)) firstAfter.set(s.path, s);
  }
  for (const [p, s] of firstAfter) {
    if (!state.has(p) && BEFORE_PHASES.has(s.phase)) state.set(p, stateOf(s));
  }
  return state;
}

/** The latest recorded state of every path (what the log says is on disk now). */
export function latestState(records: readonly Sequenced[]): Map<string, FileState> {
  const state = new Map<string, FileState>();
  for (const r of records) if (isSnap(r)) state.set(r.path, stateOf(r as Sequenced<SnapRecord>));
  return state;
}

/** The records after checkpoint `seq` up to (not including) the next checkpoint. */
export function spanOf(records: readonly Sequenced[], seq: number): Sequenced[] {
  const out: Sequenced[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.seq <= seq) continue;
    if (isCheckpoint(r)) break;
    out.push(r);
  }
  return out;
}

/** Snapshot phases that mean a path changed (or may have) in a span; baselines and pre-rewind captures do not. */
export const CHANGE_PHASES = new Set<SnapRecord['phase']>(['before', 'after', 'rewind']);

/** Distinct paths changed in each checkpoint's span, keyed by checkpoint id, in one pass. */
export function filesPerCheckpoint(records: readonly Sequenced[]): Map<string, string[]> {
  const fold = new FilesPerCheckpointFold();
  for (const r of records) fold.add(r);
  return fold.result();
}

/** filesPerCheckpoint a record at a time: a log that grows (the extension's, after each hook) goes on from where it was. */
export class FilesPerCheckpointFold {
  private readonly out = new Map<string, string[]>();
  private current: Set<string> | null = null;
  private currentId = '';

  add(r: Sequenced): void {
    if (isCheckpoint(r)) {
      this.flush();
      this.current = new Set();
      this.currentId = r.id;
    } else if (this.current && isSnap(r) && CHANGE_PHASES.has(r.phase)) {
      this.current.add(r.path);
    }
  }

  /** Every checkpoint's paths so far (the last one's span ends with the records added); more may be added after. */
  result(): Map<string, string[]> {
    this.flush();
    return this.out;
  }

  private flush(): void {
    if (this.current) this.out.set(this.currentId, [...this.current]);
  }
}

export interface SpanChange {
  path: string;
  /** State when the span began (at its checkpoint); undefined when unknown. */
  from: FileState | undefined;
  /** State when the span ended (at the next checkpoint, or now). */
  to: FileState;
}

/** The files a checkpoint's span changed, with their states at both ends (for diffs in the views). */
export function spanChanges(records: readonly Sequenced[], checkpointSeq: number): SpanChange[] {
  const span = spanOf(records, checkpointSeq);
  const paths = new Set<string>();
  for (const r of span) if (isSnap(r) && CHANGE_PHASES.has(r.phase)) paths.add(r.path);
  if (paths.size === 0) return [];
  const next = records.find((r) => r.seq > checkpointSeq && isCheckpoint(r));
  const start = stateAt(records, checkpointSeq);
  const end = next ? stateAt(records, next.seq) : latestState(records);
  const out: SpanChange[] = [];
  for (const p of [...paths].sort()) {
    const to = end.get(p);
    if (to) out.push({ path: p, from: start.get(p), to });
  }
  return out;
}

/**
 * What each tool call itself did to files, keyed by call id: per path, its content just before the
 * call (the call's first `before` snapshot) and just after it (its last `after` snapshot). Paths the
 * call named but left as they were, and calls still running (no `after` yet), have no entry.
 */
export function callChanges(records: readonly Sequenced[]): Map<string, SpanChange[]> {
  const byCall = new Map<string, Map<string, SpanChange>>();
  for (const r of records) {
    if (!isSnap(r) || !r.call || (r.phase !== 'before' && r.phase !== 'after')) continue;
    let paths = byCall.get(r.call);
    if (!paths) byCall.set(r.call, (paths = new Map()));
    const s = stateOf(r as Sequenced<SnapRecord>);
    const known = paths.get(r.path);
    if (r.phase === 'before') {
      if (!known) paths.set(r.path, { path: r.path, from: s, to: s });
    } else paths.set(r.path, { path: r.path, from: known?.from, to: s });
  }
  const out = new Map<string, SpanChange[]>();
  for (const [call, paths] of byCall) {
    const changed = [...paths.values()].filter((c) => !c.from || !sameContent(c.from, c.to)).sort((a, b) => (a.path < b.path ? -1 : 1));
    if (changed.length) out.set(call, changed);
  }
  return out;
}
