// The timeline as a tree of attempts, derived from the log (never stored). A rewind to C followed
// by new work starts a new attempt branching at C; the work after C that the rewind took away is
// the earlier attempt, and its end state is the rewind's own checkpoint (which recorded the disk as
// it was). A rewind back to that checkpoint (Undo, or "switch to this attempt") resumes the earlier
// attempt rather than starting one. Rewinds that abandon no work (to a point nothing has been done
// since, or one that only takes some files: `partial`) stay in the attempt they were made in. Pure,
// one pass over the records in log order; old stores read the same.
import type { CallRecord, CheckpointKind, CheckpointRecord, Sequenced, SnapRecord } from '../storeFiles/records';

/** `attempt:<n>`: the end of attempt n as a point (diff, plan, rewind). */
export const ATTEMPT_POINT = 'attempt:';

export interface AttemptPrompt {
  id: string;
  label: string;
  time: number;
  session?: string;
  seq: number;
}

export interface Attempt {
  /** Counts from 1 in order of creation within the store. */
  n: number;
  /** The attempt it branched from (none for the first). */
  parent?: number;
  /** The checkpoint it branched at: the target of the rewind its work followed. */
  branchedAt?: string;
  /** The log position of the branch point: records before it are its state (for a call, the moment before it). */
  branchSeq?: number;
  /** When the branch point was the moment before a tool call: that call's id. */
  branchedAtCall?: string;
  /** The first checkpoint recorded in it. */
  start: { id: string; seq: number; time: number };
  prompts: AttemptPrompt[];
  sessions: string[];
  agents: string[];
  /** Paths its own work changed (agent and shell writes), sorted. */
  files: string[];
  /** For each path, session and agent of its work: the log position of its last piece of work here (ownWork's cut). */
  lastWork: { paths: Map<string, number>; sessions: Map<string, number>; agents: Map<string, number> };
  /** The checkpoints recorded while it was current (a rewind that left it is its `end`, not listed here). */
  checkpoints: string[];
  /** When it was left: the rewind checkpoint whose state is its end. Absent for the current attempt. */
  end?: { id: string; seq: number; time: number };
  current: boolean;
}

export interface AttemptTree {
  /** In order of creation: `attempts[n - 1]` is attempt n. */
  attempts: Attempt[];
  /** The attempt in progress, or null right after a rewind no work has followed yet. */
  current: number | null;
  /** The attempt each checkpoint was recorded in (a checkpoint taken before any work of a new branch: the attempt it branches from). */
  attemptOf: Map<string, number>;
  /** Every rewind checkpoint that left an attempt, with that attempt: its state is how the attempt ended then (kept when the attempt is resumed). */
  ends: Map<string, number>;
  /** Rewind checkpoints that went from an attempt in progress back to another attempt's end: switches, not plain undos. */
  switches: Set<string>;
  /** While no attempt is in progress (a rewind nothing followed yet): where new work would branch. */
  pending?: { parent?: number; at?: string; atSeq?: number };
}

/** Where new work would branch from while no attempt is in progress. */
interface Pending {
  parent?: number;
  at?: string;
  atCall?: string;
  atSeq?: number;
}

interface Building extends Attempt {
  pathSet: Set<string>;
  sessionSet: Set<string>;
  agentSet: Set<string>;
  /** Sequence number of its last piece of work (a prompt, a risky call's checkpoint, a write). */
  workSeq: number;
}

/** Work that makes an attempt: a prompt, a checkpoint before a risky call, or a recorded write. */
const WORK_CHECKPOINTS = new Set<CheckpointRecord['kind']>(['prompt', 'before-tool']);
export const WORK_PHASES = new Set<string>(['before', 'after']);

/**
 * What attempts read of the log: checkpoints and calls whole, of a snapshot only its path, phase and
 * time (the timeline index hands over that much, not 60,000 built records).
 */
export type AttemptInput =
  Sequenced<CheckpointRecord> | Sequenced<CallRecord> | (Pick<SnapRecord, 't' | 'path' | 'phase' | 'time'> & { seq: number }) | WriteRun;

/**
 * The writes between two checkpoints, folded as attempts read them: one entry, not one per snapshot
 * (the timeline index hands these over). `seq` and `time` are the first write's, `last` the last one's
 * sequence number, `paths` the distinct paths written.
 */
export interface WriteRun {
  t: 'writes';
  seq: number;
  time: number;
  last: number;
  paths: string[];
  /** Of each of `paths`, the sequence number of its last write in the run. */
  lasts: number[];
}

export function buildAttempts(records: readonly (Sequenced | AttemptInput)[]): AttemptTree {
  const attempts: Building[] = [];
  const attemptOf = new Map<string, number>();
  /** Rewind checkpoints that left an attempt with work: their state is that attempt's end. */
  const endedBy = new Map<string, number>();
  /** Rewind checkpoints taken while no attempt was in progress: their state is that branch point. */
  const pendingAt = new Map<string, Pending>();
  const seqOf = new Map<string, number>();
  const ends = new Map<string, number>();
  const switches = new Set<string>();
  let current: Building | null = null;
  let pending: Pending = {};

  const begin = (r: AttemptInput): Building => {
    const a: Building = {
      n: attempts.length + 1,
      ...(pending.parent !== undefined ? { parent: pending.parent } : {}),
      ...(pending.at !== undefined ? { branchedAt: pending.at } : {}),
      ...(pending.atCall !== undefined ? { branchedAtCall: pending.atCall } : {}),
      ...(pending.atSeq !== undefined ? { branchSeq: pending.atSeq } : {}),
      start: { id: r.t === 'checkpoint' ? r.id : '', seq: r.seq, time: r.time },
      prompts: [],
      sessions: [],
      agents: [],
      files: [],
      lastWork: { paths: new Map(), sessions: new Map(), agents: new Map() },
      checkpoints: [],
      current: true,
      pathSet: new Set(),
      sessionSet: new Set(),
      agentSet: new Set(),
      workSeq: r.seq,
    };
    attempts.push(a);
    return a;
  };

  const rewindTo = (c: Sequenced<CheckpointRecord>): void => {
    const target = c.target;
    // No work since the target, in the attempt in progress: nothing is abandoned, nothing branches.
    if (current && target !== undefined && attemptOf.get(target) === current.n && (seqOf.get(target) ?? -1) >= current.workSeq) {
      attemptOf.set(c.id, current.n);
      current.checkpoints.push(c.id);
      return;
    }
    if (current) {
      current.end = { id: c.id, seq: c.seq, time: c.time };
      current.current = false;
      endedBy.set(c.id, current.n);
      ends.set(c.id, current.n);
      // Its state is that attempt's: a later rewind to it with no work since abandons nothing.
      attemptOf.set(c.id, current.n);
    } else {
      pendingAt.set(c.id, pending);
      if (pending.parent !== undefined) attemptOf.set(c.id, pending.parent);
    }
    const from = current;
    current = null;
    if (c.targetCall !== undefined) {
      // Its position (the moment before the call) is looked up after the pass: rare, and calls are most of the log.
      pending = { ...(from ? { parent: from.n } : pending.parent !== undefined ? { parent: pending.parent } : {}), atCall: c.targetCall };
      return;
    }
    const ended = target !== undefined ? endedBy.get(target) : undefined;
    const back = ended !== undefined ? attempts[ended - 1]! : undefined;
    if (back && back.end?.id === target) {
      // Back to where an attempt was left: it is in progress again.
      if (from) switches.add(c.id);
      delete back.end;
      back.current = true;
      current = back;
      endedBy.delete(target!);
      return;
    }
    const atPending = target !== undefined ? pendingAt.get(target) : undefined;
    if (atPending) pending = atPending;
    else if (target !== undefined && (attemptOf.has(target) || ended !== undefined)) {
      pending = { parent: ended ?? attemptOf.get(target)!, at: target, atSeq: seqOf.get(target)! };
    } else pending = { ...(from ? { parent: from.n } : {}), ...(target !== undefined ? { at: target } : {}) };
  };

  for (const r of records as readonly AttemptInput[]) {
    if (r.t === 'checkpoint') {
      const c = r;
      seqOf.set(c.id, c.seq);
      if (c.kind === 'rewind' && !c.partial) {
        rewindTo(c);
        continue;
      }
      if (!current && (attempts.length === 0 || WORK_CHECKPOINTS.has(c.kind))) current = begin(c);
      const a = current ?? (pending.parent !== undefined ? attempts[pending.parent - 1] : undefined);
      if (!a) continue;
      attemptOf.set(c.id, a.n);
      if (a !== current) continue;
      a.checkpoints.push(c.id);
      if (c.session !== undefined) a.sessionSet.add(c.session);
      if (c.session !== undefined) a.lastWork.sessions.set(c.session, c.seq);
      if (c.agent !== undefined && c.kind !== 'rewind') a.agentSet.add(c.agent);
      if (c.agent !== undefined && c.kind !== 'rewind') a.lastWork.agents.set(c.agent, c.seq);
      if (WORK_CHECKPOINTS.has(c.kind) || c.kind === 'rewind') a.workSeq = c.seq;
      if (c.kind === 'prompt')
        a.prompts.push({ id: c.id, label: c.label, time: c.time, ...(c.session !== undefined ? { session: c.session } : {}), seq: c.seq });
    } else if (r.t === 'snap' && WORK_PHASES.has(r.phase)) {
      current ??= begin(r);
      current.pathSet.add(r.path);
      current.lastWork.paths.set(r.path, r.seq);
      current.workSeq = r.seq;
    } else if (r.t === 'writes') {
      current ??= begin(r);
      r.paths.forEach((p, i) => {
        current!.pathSet.add(p);
        current!.lastWork.paths.set(p, r.lasts[i]!);
      });
      current.workSeq = r.last;
    }
  }
  placeCalls(records, [...attempts, ...((current as Building | null) ? [] : [pending])]);
  for (const a of attempts) {
    a.files = [...a.pathSet].sort();
    a.sessions = [...a.sessionSet];
    a.agents = [...a.agentSet];
  }
  return {
    attempts: attempts.map(({ pathSet: _p, sessionSet: _s, agentSet: _a, workSeq: _w, ...a }) => a),
    current: (current as Building | null)?.n ?? null,
    attemptOf,
    ends,
    switches,
    ...((current as Building | null) ? {} : { pending }),
  };
}

/** Fills in the position of branch points that are the moment before a tool call: its first call line. */
function placeCalls(records: readonly AttemptInput[], points: (Pick<Attempt, 'branchedAtCall' | 'branchSeq'> | Pending)[]): void {
  const byCall = new Map<string, (s: number) => void>();
  for (const p of points) {
    if ('branchedAtCall' in p && p.branchedAtCall !== undefined && p.branchSeq === undefined)
      byCall.set(p.branchedAtCall, (s) => (p.branchSeq = s));
    else if ('atCall' in p && p.atCall !== undefined && p.atSeq === undefined) byCall.set(p.atCall, (s) => (p.atSeq = s));
  }
  if (byCall.size === 0) return;
  for (const r of records) {
    const set = r.t === 'call' && r.call !== undefined ? byCall.get(r.call) : undefined;
    if (set) {
      set(r.seq - 1);
      byCall.delete((r as CallRecord).call!);
      if (byCall.size === 0) return;
    }
  }
}

/** The attempt a rewind checkpoint brought content from: a switch to its end, or a take (partial) from it. */
export function attemptBroughtBy(
  tree: AttemptTree,
  c: { id: string; kind: string; target?: string; partial?: boolean },
): number | undefined {
  if (c.kind !== 'rewind' || c.target === undefined || !(c.partial || tree.switches.has(c.id))) return undefined;
  return tree.ends.get(c.target);
}

/**
 * For a new rewind to checkpoint `target` (not yet in the log): the attempt whose end it brings back —
 * with `partial`, files taken from it; else a switch to it from the work in progress — or undefined
 * (a plain rewind, or the undo of one). The same rule attemptBroughtBy reads back from the log.
 */
export function attemptToBring(tree: AttemptTree, target: string, partial: boolean): number | undefined {
  const n = tree.ends.get(target);
  if (n === undefined || partial) return n;
  return tree.current !== null && tree.attempts[n - 1]?.end?.id === target ? n : undefined;
}

/** The attempt a point `attempt:<n>` names, or undefined when it is not one (null: it names no attempt of this store). */
export function attemptOfPoint(tree: AttemptTree, point: string): Attempt | null | undefined {
  if (!point.startsWith(ATTEMPT_POINT)) return undefined;
  const raw = point.slice(ATTEMPT_POINT.length);
  if (!/^[1-9][0-9]*$/.test(raw)) return null;
  return tree.attempts[Number(raw) - 1] ?? null;
}

/** The attempts branching from checkpoint `id`, oldest first (the Files view shows them under it). */
export function attemptsBranchingAt(tree: AttemptTree, id: string): Attempt[] {
  return tree.attempts.filter((a) => a.branchedAt === id);
}

/** The timeline as the Files view lays it out: the line that leads to the attempt in progress, and every other attempt as one row. */
export interface LineView {
  /** Whether a checkpoint is on the line: its attempt leads to the current one, and it comes before that attempt was left for another. */
  onLine: (id: string, seq: number, kind: CheckpointKind) => boolean;
  /** Each attempt not in progress, with the log position where it leaves the line (its row goes there), oldest first. */
  rows: { attempt: Attempt; at: number }[];
}

/** The attempts on the line that leads to the one in progress, each with the log position where the line leaves it (the next one's branch point). */
function lineCuts(tree: AttemptTree): Map<number, number> {
  const cut = new Map<number, number>();
  let n: number | undefined = tree.current ?? tree.pending?.parent;
  let at = tree.current !== null ? Infinity : (tree.pending?.atSeq ?? Infinity);
  while (n !== undefined && !cut.has(n)) {
    cut.set(n, at);
    const a: Attempt = tree.attempts[n - 1]!;
    at = a.branchSeq ?? a.start.seq;
    n = a.parent;
  }
  return cut;
}

/** An attempt's own work: what it did after the point where it leaves the current line (all of it, off the line). */
export interface OwnWork {
  prompts: AttemptPrompt[];
  files: string[];
  sessions: string[];
  agents: string[];
}

/**
 * The one count of an attempt (DESIGN §4 "Attempts"): the prompts, files, sessions and agents of its
 * work after the point where it leaves the current line — the Files view's row, its tooltip and the
 * CLI's `attempts` (text and --json) all show these. An attempt off the line, or the one in progress:
 * all its work.
 */
export function ownWork(tree: AttemptTree, a: Attempt, cuts: Map<number, number> = lineCuts(tree)): OwnWork {
  const from = a.current ? -1 : (cuts.get(a.n) ?? -1);
  const after = (m: Map<string, number>) => [...m].filter(([, seq]) => seq >= from).map(([k]) => k);
  return {
    prompts: a.prompts.filter((p) => p.seq >= from),
    files: after(a.lastWork.paths).sort(),
    sessions: after(a.lastWork.sessions),
    agents: after(a.lastWork.agents),
  };
}

/** Every attempt's own work (ownWork), by number. */
export function ownWorkOfAll(tree: AttemptTree): Map<number, OwnWork> {
  const cuts = lineCuts(tree);
  return new Map(tree.attempts.map((a) => [a.n, ownWork(tree, a, cuts)]));
}

/**
 * While no attempt is in progress (a rewind nothing followed yet), the attempt that rewind left: its
 * work stays on the line until new work starts the next attempt (README: rewinding and prompting
 * again starts one), so the view gains an attempt row only then.
 */
function justLeft(tree: AttemptTree): Attempt | undefined {
  if (tree.current !== null) return undefined;
  let last: Attempt | undefined;
  for (const a of tree.attempts) if (a.end && (!last || a.end.seq > last.end!.seq)) last = a;
  return last;
}

export function lineView(tree: AttemptTree): LineView {
  const left = justLeft(tree);
  const cut = left ? lineCuts({ ...tree, current: left.n }) : lineCuts(tree);
  const rows: LineView['rows'] = [];
  for (const a of tree.attempts) {
    if (a.current || a === left) continue;
    const own = cut.get(a.n);
    if (own !== undefined) {
      rows.push({ attempt: a, at: own });
      continue;
    }
    // Off the line: placed where its branch (or the branch it grew from) leaves the line.
    let d = a;
    while (d.parent !== undefined && !cut.has(d.parent)) d = tree.attempts[d.parent - 1]!;
    const parentCut = d.parent !== undefined ? cut.get(d.parent)! : -1;
    rows.push({ attempt: a, at: Math.min(d.branchSeq ?? d.start.seq, parentCut) });
  }
  return {
    onLine: (id, seq, kind) => {
      const owner = tree.attemptOf.get(id);
      if (owner === undefined) return true;
      const ended = tree.attempts[owner - 1]?.end;
      // Rewind bookkeeping ("Before rewind…", "Before undo of rewind…") is on the line where it happened, never
      // inside an attempt's work; but the rewind that left an attempt is that attempt's row.
      if (kind === 'rewind') return ended?.id !== id || owner === left?.n;
      // Taken after its attempt was left and before any new work (a new session's start): it happened on the
      // way to what followed, not inside the work that was rewound away.
      if (ended && seq > ended.seq) return true;
      const c = cut.get(owner);
      // A prompt at the branch point is the first of the work that was left: it goes with its attempt.
      return c !== undefined && (seq < c || (seq === c && kind !== 'prompt'));
    },
    rows,
  };
}
