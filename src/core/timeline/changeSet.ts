// The rewind plan, pure: which recorded paths a rewind to a checkpoint would write and how
// (restore / delete / recreate), what it cannot restore, and which recorded calls in the discarded
// span it cannot undo. Disk facts and line counts are added by the store; nothing here does I/O.
import type { LeftAloneReason, NotRestorableReason, UncertainReason } from '../../shared/reasons';
import { type Provenance, provenanceOf } from './provenance';
import type { CallRecord, Origin, Sequenced, Severity, SnapRecord } from '../storeFiles/records';
import { isCall, isSnap } from '../storeFiles/records';
import { BEFORE_PHASES, type FileState, sameContent, stateOf } from './timeline';
import { pathKey } from '../paths';

export type Action = 'restore' | 'delete' | 'recreate';

export interface Change {
  path: string;
  action: Action;
  /** The latest recorded state: what the rewind expects to find on disk. */
  from: FileState;
  /** The state at the target checkpoint: what the rewind writes. */
  to: FileState;
  /** The agent sessions that changed the path after the target (a rewind's own writes are the user's: none). */
  sessions: string[];
  /** Where the content the rewind puts back came from (its `rewind` snapshot carries it on). */
  origin?: Origin;
}

export type { NotRestorableReason };

export interface NotRestorable {
  path: string;
  reason: NotRestorableReason;
}

export interface NotUndone {
  tool: string;
  summary: string;
  effect: 'irreversible' | 'compensatable';
  severity: Severity;
  compensation?: string;
  call?: string;
  session?: string;
  time: number;
}

/** A path whose state at the target cannot be told from the records (the disk changed, unrecorded, between two records). */
export interface Uncertain {
  path: string;
  reason: UncertainReason;
  /** The last record at or before the target, and the first after it: they disagree, nothing lies between. */
  recorded: { seq: number; time: number };
  found: { seq: number; time: number };
}

/** A path whose current content is the user's own (provenance): a rewind would overwrite it. */
export interface YourEdit {
  path: string;
  provenance: Provenance;
  /**
   * The target is the rewind that put this content back: this is its undo, which returns the disk
   * to exactly what that rewind found (kept as its pre-rewind copy). Said, not refused: an undo
   * always works, and the user's content stays in the store.
   */
  undoing?: boolean;
}

/** A path whose rewind reverts content the user made after the target (it is kept in the store). */
export interface ObservedRevert {
  path: string;
  /** When the first such edit after the target was seen. */
  time: number;
}

/**
 * A path a scoped rewind leaves as it is although a whole rewind would write it: another session
 * also changed it after the target (`--session`), or a call that changed a chosen file also changed
 * it (`--path`, a step's file). Said before and after, never silently skipped.
 */
export interface LeftAlone {
  path: string;
  reason: LeftAloneReason;
  /** The sessions that changed it after the target (for `other-session`: every one, the chosen ones too). */
  sessions: string[];
  /** For `outside-selection`: the chosen files that share a call with it. */
  with?: string[];
}

export type { LeftAloneReason };

export interface ChangeSet {
  changes: Change[];
  notRestorable: NotRestorable[];
  /** With a session filter: paths the chosen sessions changed that other sessions changed too. */
  conflicts: { path: string; sessions: string[] }[];
  /** With a session or path filter: what a whole rewind would write that this one leaves as it is, and why. */
  leftAlone: LeftAlone[];
  notUndone: NotUndone[];
  /** Every agent session that changed something after the target, for grouping (never a rewind). */
  sessions: string[];
  /** Paths among `changes` whose state at the target is one of two versions (written, with force, as the later one). */
  uncertain: Uncertain[];
  /** Paths among `changes` whose content now is the user's: refused without force, like a change outside the agent. */
  yourEdits: YourEdit[];
  /** Paths among `changes` whose rewind reverts the user's own edits after the target. */
  observed: ObservedRevert[];
}

export interface ChangeOptions {
  /** Rewind only these sessions' changes. */
  sessions?: readonly string[];
  /** Only these paths ("restore this file only"). */
  paths?: readonly string[];
  /** A path for which this returns false is listed as not restorable (outside every workspace folder). */
  allowed?: (path: string) => boolean;
  /** The provenance of the snapshot with this sequence number, when already known (the timeline index); else derived from `records`. */
  provenance?: (seq: number) => Provenance | undefined;
  /** Each path's facts for this target, when already folded (the timeline index); `records` then need hold only checkpoints and calls. */
  facts?: Map<string, PathFacts>;
}

/** The writer of a rewind's own snapshots in `PathFacts.writers`: the user's action, never an agent session. */
export const REWIND_SESSION = '(rewind)';

function actionFor(from: FileState, to: FileState): Action {
  if (to.hash === null && !to.skipped) return 'delete';
  if (from.hash === null && !from.skipped) return 'recreate';
  return 'restore';
}

/** Phases whose content describes the disk just before something happened: evidence for the moment before them. */
const EVIDENCE = new Set<SnapRecord['phase']>(['before', 'observed']);
/** Phases that do not mean a session changed the path: observations and copies of what was there. */
export const NOT_A_CHANGE = new Set<SnapRecord['phase']>(['baseline', 'pre-rewind', 'observed']);

export interface PathFacts {
  /** The last record at or before the target. */
  atOrBefore?: Sequenced<SnapRecord>;
  /** The first record after the target. */
  firstAfter?: Sequenced<SnapRecord>;
  latest: Sequenced<SnapRecord>;
  writers: Set<string>;
  /** Records after the target whose content is the user's. */
  userAfter: Sequenced<SnapRecord>[];
}

/**
 * Each path's facts relative to the target at `seq`, one snapshot at a time in log order. Keeps
 * handles, not records: `facts(build)` builds the few records a plan reads (the timeline index
 * folds its columns this way without building 60,000 records).
 */
export class FactsFold<H> {
  private readonly paths = new Map<string, { atOrBefore?: H; firstAfter?: H; latest: H; writers: Set<string>; userAfter: H[] }>();

  constructor(private readonly seq: number) {}

  /**
   * One snapshot: its path, sequence number, phase and session, whether its content is the user's
   * (provenance), and its handle. Positional, not an object: the index folds 60,000 of them per plan.
   */
  add(path: string, seq: number, phase: SnapRecord['phase'], session: string | undefined, user: boolean, record: H): void {
    let f = this.paths.get(path);
    if (!f) this.paths.set(path, (f = { latest: record, writers: new Set(), userAfter: [] }));
    f.latest = record;
    if (seq <= this.seq) {
      f.atOrBefore = record;
      return;
    }
    f.firstAfter ??= record;
    if (!NOT_A_CHANGE.has(phase)) f.writers.add(phase === 'rewind' ? REWIND_SESSION : (session ?? ''));
    if (user) f.userAfter.push(record);
  }

  facts(build: (h: H) => Sequenced<SnapRecord>): Map<string, PathFacts> {
    const out = new Map<string, PathFacts>();
    for (const [p, f] of this.paths) {
      const facts: PathFacts = { latest: build(f.latest), writers: f.writers, userAfter: f.userAfter.map(build) };
      if (f.atOrBefore !== undefined) facts.atOrBefore = build(f.atOrBefore);
      if (f.firstAfter !== undefined) facts.firstAfter = build(f.firstAfter);
      out.set(p, facts);
    }
    return out;
  }
}

/** What a rewind does to one path, by its facts alone (before any session filter or disk check). */
export interface PathVerdict {
  from: FileState;
  /** What the rewind writes; absent only with `notRestorable`. */
  to?: FileState;
  action?: Action;
  notRestorable?: NotRestorableReason;
  unsure?: Uncertain;
}

/**
 * The one decision of whether a rewind writes path `p` and how: used by every plan (computeChanges)
 * and by the per-checkpoint counts (rewindCounts.ts), so the Files view, the CLI's `checkpoints`
 * and the preview count the same files. Null when the rewind leaves the path alone. `from` is the
 * path's latest state, `f.latest`'s: a sweep that judges one path at many targets passes it, made once.
 */
export function pathVerdict(
  p: string,
  f: PathFacts,
  allowed?: (path: string) => boolean,
  from: FileState = stateOf(f.latest),
): PathVerdict | null {
  if (f.writers.size === 0) return null; // nothing after the target, or only the user's own edits: left alone
  const L = f.atOrBefore;
  const F = f.firstAfter!;
  const atL = L ? stateOf(L) : undefined;
  let to: FileState | undefined = atL ?? (BEFORE_PHASES.has(F.phase) ? stateOf(F) : undefined);
  let unsure: Uncertain | undefined;
  if (L && atL && EVIDENCE.has(F.phase) && !L.skipped && !F.skipped) {
    const atF = stateOf(F);
    if (!sameContent(atL, atF)) {
      unsure = { path: p, reason: 'unrecorded-change', recorded: { seq: L.seq, time: L.time }, found: { seq: F.seq, time: F.time } };
      to = atF;
    }
  }
  // Same record (nothing after the target) or same content: nothing to write.
  if (to && (to.seq === from.seq || sameContent(to, from))) return null;
  if (allowed && !allowed(p)) return { from, notRestorable: 'outside-workspace' };
  if (!to) return { from, notRestorable: 'unknown-at-target' };
  if (to.skipped) return { from, notRestorable: to.skipped === 'too-large' ? 'too-large' : to.skipped };
  return { from, to, action: actionFor(from, to), ...(unsure ? { unsure } : {}) };
}

/**
 * What a rewind to the moment `target` (a checkpoint's sequence number, or for "just before a
 * call" the position before its call line) would do. Pure.
 *
 * - A path is written when its state at the target differs from its latest state and some session
 *   (or a rewind) changed it after the target; a path only the user changed since is left alone.
 * - Where the last record at or before the target and the first `before`/`observed` after it
 *   disagree (the disk changed, unrecorded, in between), the path is `uncertain`: a rewind writes
 *   it only with force, and then as the later evidence (both versions stay in the store).
 * - Where the latest content is the user's (observed, or kept by a rewind and put back by Undo),
 *   the path is a `yourEdits` entry: refused without force, every time.
 * - Where the rewind reverts the user's edits made after the target, the path is in `observed`.
 */
export function computeChanges(records: readonly Sequenced[], target: { seq: number; id?: string }, opts: ChangeOptions = {}): ChangeSet {
  const prov = opts.provenance ? { get: opts.provenance } : provenanceOf(records);
  let facts = opts.facts;
  if (!facts) {
    const fold = new FactsFold<Sequenced<SnapRecord>>(target.seq);
    for (const r of records) {
      if (!isSnap(r)) continue;
      const s = r as Sequenced<SnapRecord>;
      fold.add(s.path, s.seq, s.phase, s.session, s.seq > target.seq && prov.get(s.seq)?.origin === 'user', s);
    }
    facts = fold.facts((s) => s);
  }
  const onlyPaths = opts.paths ? new Set(opts.paths.map((x) => pathKey(x))) : null;
  const onlySessions = opts.sessions ? new Set(opts.sessions) : null;
  const changes: Change[] = [];
  const notRestorable: NotRestorable[] = [];
  const conflicts: ChangeSet['conflicts'] = [];
  const uncertain: Uncertain[] = [];
  const yourEdits: YourEdit[] = [];
  const observed: ObservedRevert[] = [];
  const allSessions = new Set<string>();

  // Unchosen paths a whole rewind would write: left alone, and said so when they share a call with a chosen one.
  const unchosen: { path: string; sessions: string[] }[] = [];
  for (const [p, f] of facts) {
    const chosen = !onlyPaths || onlyPaths.has(pathKey(p));
    const v = pathVerdict(p, f, opts.allowed);
    if (!v) continue;
    // The agent sessions that changed the path after the target: a rewind (an undo, a take) is the user's.
    const sessions = [...f.writers].filter((s) => s !== REWIND_SESSION).sort();
    if (!chosen) {
      unchosen.push({ path: p, sessions });
      continue;
    }
    for (const s of sessions) allSessions.add(s);
    if (onlySessions) {
      const mine = sessions.filter((s) => onlySessions.has(s));
      if (mine.length === 0) continue;
      if (mine.length < sessions.length) {
        conflicts.push({ path: p, sessions });
        continue;
      }
    }
    if (v.notRestorable) {
      notRestorable.push({ path: p, reason: v.notRestorable });
      continue;
    }
    const to = v.to!;
    const origin = prov.get(to.seq)?.origin;
    changes.push({ path: p, action: v.action!, from: v.from, to, sessions, ...(origin ? { origin } : {}) });
    if (v.unsure) uncertain.push(v.unsure);
    const now = prov.get(f.latest.seq);
    if (now?.origin === 'user') {
      const undoing = target.id !== undefined && now.restoredBy?.checkpoint === target.id;
      yourEdits.push({ path: p, provenance: now, ...(undoing ? { undoing } : {}) });
    }
    const reverted = f.userAfter.find((u) => u.seq !== f.latest.seq && !sameContent(stateOf(u), to));
    if (reverted && now?.origin !== 'user') observed.push({ path: p, time: reverted.time });
  }
  const byPath = <T extends { path: string }>(a: T, b: T) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const leftAlone: LeftAlone[] = conflicts.map((c) => ({ path: c.path, reason: 'other-session' as const, sessions: c.sessions }));
  if (onlyPaths && unchosen.length) leftAlone.push(...sharingACall(records, target.seq, changes, unchosen, onlySessions));
  changes.sort(byPath);
  conflicts.sort(byPath);
  leftAlone.sort(byPath);
  notRestorable.sort(byPath);
  uncertain.sort(byPath);
  yourEdits.sort(byPath);
  observed.sort(byPath);

  const notUndone = notUndoneAfter(records, target.seq, onlySessions);
  return { changes, notRestorable, conflicts, leftAlone, notUndone, sessions: [...allSessions].sort(), uncertain, yourEdits, observed };
}

/**
 * The unchosen paths that a call after `seq` changed together with a chosen path being written (a
 * shell command over several files, a rename): rewinding only the chosen one splits that call's work.
 * Reads the snapshots in `records` (a path filter plans from the whole log, never the index).
 */
function sharingACall(
  records: readonly Sequenced[],
  seq: number,
  changes: readonly Change[],
  unchosen: readonly { path: string; sessions: string[] }[],
  onlySessions: ReadonlySet<string> | null,
): LeftAlone[] {
  const callsOf = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.seq <= seq || !isSnap(r) || !r.call || NOT_A_CHANGE.has(r.phase)) continue;
    if (onlySessions && !onlySessions.has(r.session ?? '')) continue;
    const k = pathKey(r.path);
    let calls = callsOf.get(k);
    if (!calls) callsOf.set(k, (calls = new Set()));
    calls.add(r.call);
  }
  const chosenBy = new Map<string, string[]>();
  for (const c of changes)
    for (const call of callsOf.get(pathKey(c.path)) ?? []) {
      const paths = chosenBy.get(call) ?? [];
      paths.push(c.path);
      chosenBy.set(call, paths);
    }
  const out: LeftAlone[] = [];
  for (const u of unchosen) {
    const shared = new Set<string>();
    for (const call of callsOf.get(pathKey(u.path)) ?? []) for (const p of chosenBy.get(call) ?? []) shared.add(p);
    if (shared.size) out.push({ path: u.path, reason: 'outside-selection', sessions: u.sessions, with: [...shared].sort() });
  }
  return out;
}

/** Irreversible and compensatable calls recorded after `seq`: what a rewind there cannot undo. */
export function notUndoneAfter(records: readonly Sequenced[], seq: number, sessions?: ReadonlySet<string> | null): NotUndone[] {
  const out: NotUndone[] = [];
  for (const r of records) {
    if (r.seq <= seq || !isCall(r)) continue;
    const c = r as Sequenced<CallRecord>;
    if (c.effect !== 'irreversible' && c.effect !== 'compensatable') continue;
    if (sessions && !sessions.has(c.session ?? '')) continue;
    const item: NotUndone = {
      tool: c.tool,
      summary: c.summary,
      effect: c.effect,
      severity: c.severity ?? 'high',
      time: c.time,
    };
    if (c.compensation) item.compensation = c.compensation;
    if (c.call) item.call = c.call;
    if (c.session) item.session = c.session;
    out.push(item);
  }
  return out;
}
