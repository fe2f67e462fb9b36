// `timeline.idx`: the skeleton of files.jsonl kept beside it, so `checkpoints` and `plan` at
// 10,000 checkpoints do not parse 100,000 JSON lines (28 MB) every time. The skeleton is every
// checkpoint and snapshot record and every call a rewind cannot undo (irreversible, compensatable)
// — all that the checkpoint list, stateAt, provenance and the plan read — with their true
// sequence numbers; the other call lines (most of the log's bytes) are left out. Four parts, each
// parsed only when needed: a header line (the log prefix it describes, the parts' lengths); the
// checkpoints and calls, whole; the snapshots as columns with their
// provenance (snapColumns.ts; what a plan adds); the keys a plan needs of the first part —
// checkpoint ids, where each checkpoint's JSON lies in it, the calls — so a plan parses one
// checkpoint, not 10,000; and the checkpoint list (`checkpoints` reads only this: the fields it
// prints, as columns, with each one's file count: less than half the first part's bytes).
//
// Derived and disposable, like latest.json: it names the log prefix it was made from
// (logPrefix.ts) and is used only while the log still starts with it; the lines after that prefix
// are parsed and added. Missing, unreadable, foreign or stale: the log is read whole and the index
// written again. Never the source of truth: `verify` compares it with a full read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AttemptInput, WORK_PHASES, type WriteRun } from './attempts';
import { type LogContents, readGaps } from '../storeFiles/fileLog';
import { FactsFold, type PathFacts } from './changeSet';
import { sameStateAsPrevious } from './folding';
import { type PathHistory, type Provenance, ProvenanceFold, contentKey, provenanceOf } from './provenance';
import { writeDerived } from '../storeFiles/logPrefix';
import { type LogPosition, readTail, type TailRead } from '../storeFiles/logTail';
import { STORE_FILE } from '../storeFiles/names';
import {
  asciiJson,
  type CheckpointPart,
  type Header,
  IndexRead,
  type KeysPart,
  type ListPart,
  openIndex,
  sumOf,
  VERSION,
} from './indexFile';
import type { CheckpointRecord, GapRecord, LogRecord, Sequenced, SnapRecord } from '../storeFiles/records';
import { rewindLabelsOf } from './indexedLabels';
import { historiesOf, RecordHistory, rewindStretches, type SnapHistory, snapsByPath } from './rewindCounts';
import { ColumnHistory, encodeSnaps, snapBytes, SnapRows } from './snapColumns';
import { checkpoints, filesPerCheckpoint, type FindResult, findCheckpoint, findCheckpointIn, recordedFoldersOf } from './timeline';

/** Write the index again once this much log has been appended since (a prompt adds a few KB). */
const REWRITE_AFTER_BYTES = 256 * 1024;

/** The records the skeleton keeps: what checkpoints, stateAt, provenance and plans read. */
export function inSkeleton(r: LogRecord): boolean {
  return r.t !== 'call' || r.effect === 'irreversible' || r.effect === 'compensatable';
}

/** Merges two lists sorted by seq. */
function merge(a: Sequenced[], b: Sequenced[]): Sequenced[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: Sequenced[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]!.seq < b[j]!.seq ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

/** A checkpoint as the list has it: no working folder, transcript or prompt id. */
export type CheckpointSummary = Sequenced<Pick<CheckpointRecord, 't' | 'id' | 'time' | 'kind' | 'label' | 'session' | 'agent'>>;

export function summaryOf(c: Sequenced<CheckpointRecord>): CheckpointSummary {
  const s: CheckpointSummary = { t: 'checkpoint', id: c.id, time: c.time, kind: c.kind, label: c.label, seq: c.seq };
  if (c.session !== undefined) s.session = c.session;
  if (c.agent !== undefined) s.agent = c.agent;
  return s;
}

/** The checkpoints as columns, oldest first: what `checkpoints` prints of each, read in place (no object per checkpoint). */
export interface CheckpointColumns {
  ids: readonly string[];
  seq: readonly number[];
  time: readonly number[];
  kind: readonly CheckpointSummary['kind'][];
  label: readonly string[];
  session: readonly (string | null)[];
  agent: readonly (string | null)[];
  /** Changed-file count of each (filesPerCheckpoint). */
  files: readonly number[];
}

/** The columns of `cps`, `files(c)` each one's changed-file count. */
export function columnsOf(
  cps: readonly CheckpointSummary[],
  files: (c: CheckpointSummary, i: number) => number,
): { [K in keyof CheckpointColumns]: CheckpointColumns[K][number][] } {
  return {
    ids: cps.map((c) => c.id),
    seq: cps.map((c) => c.seq),
    time: cps.map((c) => c.time),
    kind: cps.map((c) => c.kind),
    label: cps.map((c) => c.label),
    session: cps.map((c) => c.session ?? null),
    agent: cps.map((c) => c.agent ?? null),
    files: cps.map((c, i) => files(c, i)),
  };
}

function listPartOf(
  records: readonly Sequenced[],
  cps: readonly Sequenced<CheckpointRecord>[],
  files: number[],
  lastSpan: Sequenced[],
): ListPart {
  const stretches = rewindStretches(
    historiesOf(records),
    cps.map((c) => c.seq),
  );
  const same = sameStateAsPrevious(records);
  return {
    ...columnsOf(cps, (_, i) => files[i]!),
    same: cps.map((c) => (same.has(c.id) ? 1 : 0)),
    lastSpan,
    stretchPaths: [...stretches.keys()],
    stretches: [...stretches.values()],
    ...rewindLabelsOf(records, cps),
  };
}

function writeIndex(
  file: string,
  logFile: string,
  pos: LogPosition,
  skeleton: LogContents,
  provenance: (seq: number) => Provenance | undefined,
  gaps: GapRecord[],
): Map<string, number[]> {
  const snaps: Sequenced<SnapRecord>[] = [];
  const other: Sequenced[] = [];
  let lastCp = -1;
  for (const r of skeleton.records) {
    if (r.t === 'snap') snaps.push(r as Sequenced<SnapRecord>);
    else other.push(r);
    if (r.t === 'checkpoint') lastCp = r.seq;
  }
  const perCp = filesPerCheckpoint(skeleton.records);
  const cpRecords = other.filter((r) => r.t === 'checkpoint') as Sequenced<CheckpointRecord>[];
  const files = cpRecords.map((c) => perCp.get(c.id)?.length ?? 0);
  const lastSpan = lastCp < 0 ? [] : snaps.filter((r) => r.seq > lastCp);
  // The checkpoint part is written record by record, `other` last, to know where each checkpoint lies in it.
  let cps = asciiJson({ problems: skeleton.problems } satisfies Omit<CheckpointPart, 'other'>).slice(0, -1) + ',"other":[';
  const keys: KeysPart = { ids: [], seq: [], at: [], len: [], rest: [], folders: recordedFoldersOf(cpRecords), gaps };
  other.forEach((r, i) => {
    const json = asciiJson(r);
    if (r.t === 'checkpoint') {
      keys.ids.push(r.id);
      keys.seq.push(r.seq);
      keys.at.push(cps.length + (i ? 1 : 0));
      keys.len.push(json.length);
    } else keys.rest.push(r);
    cps += (i ? ',' : '') + json;
  });
  cps += ']}';
  const keyJson = asciiJson(keys);
  const cols = snapBytes(encodeSnaps(snaps, provenance), asciiJson);
  const list = listPartOf(skeleton.records, cpRecords, files, lastSpan);
  const listJson = asciiJson(list);
  const sum = sumOf(logFile, pos);
  const header: Header = { v: VERSION, ...pos, parts: [cps.length, cols.length, keyJson.length, listJson.length], ...(sum ? { sum } : {}) };
  writeDerived(
    file,
    Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n${cps}\n`, 'latin1'), cols, Buffer.from(`\n${keyJson}\n${listJson}`, 'latin1')]),
  );
  return new Map(list.stretchPaths.map((p, n) => [p, list.stretches[n]!]));
}

const skeletonOf = (c: LogContents): LogContents => ({ records: c.records.filter(inSkeleton), problems: c.problems });

/** AGENT_REWIND_INDEX=off: read the whole log every time, as before the index (the bench's baseline; a way out). */
const indexOff = () => process.env.AGENT_REWIND_INDEX === 'off';

/**
 * The index in `storeDir` and the log lines after it, with the parts `use` reads parsed; null when
 * there is no usable index (then the caller reads the log whole).
 */
export function indexAndTail(storeDir: string, logFile: string, use: (idx: IndexRead, tail: TailRead) => void) {
  if (indexOff()) return null;
  const opened = openIndex(path.join(storeDir, STORE_FILE.timelineIndex), logFile);
  if (!opened) return null;
  const { idx, tail } = opened;
  try {
    use(idx, tail);
  } catch {
    return null;
  }
  return { idx, tail, added: skeletonOf(tail.complete), partial: skeletonOf(tail.partial) };
}

/** What a plan to the moment `seq` reads (see SkeletonRead.planInput). */
export interface PlanInput {
  /** The calls a rewind cannot undo (and any checkpoints appended after the index). */
  records: Sequenced[];
  facts: Map<string, PathFacts>;
}

export interface SkeletonRead extends LogContents {
  /** 'index': the index and the lines after it were read; 'full': the whole log (and the index was written). */
  via: 'index' | 'full';
  /** The provenance of a snapshot among `records` (what provenanceOf(records) says of it). */
  provenance: (seq: number) => Provenance | undefined;
  /** findCheckpoint over `records`, without building them. */
  findCheckpoint: (idOrPrefix: string) => FindResult;
  /**
   * `records` without the snapshots of paths not recorded after `seq`: all that a plan to a
   * checkpoint at `seq` reads (computeChanges leaves those paths alone), built without the rest.
   */
  touchedAfter: (seq: number) => Sequenced[];
  /**
   * What a plan to the moment `seq` reads: the calls, and each path's facts (plan.ts) folded from
   * the index's columns — from each path's last row at or before `seq` on, building only the
   * records those facts name. Null when the log was read whole: computeChanges folds the records itself.
   */
  planInput: (seq: number) => PlanInput | null;
  /**
   * `records` with, of each path's snapshots, only those that say its state just before each moment
   * of `seqs` (the last before it, the first at or after it) and now (its last): all that stateAt and
   * latestState read at those moments (diff's two points), without building the other snapshots.
   * With `only`, of the indexed checkpoints only those (the points, found by findCheckpoint): the
   * index's checkpoint part (3 MB at 10,000 checkpoints) is not parsed.
   */
  around: (seqs: readonly number[], only?: readonly Sequenced<CheckpointRecord>[]) => Sequenced[];
  /** Each path's snapshots, in log order (what rewindCounts sweeps). */
  histories: () => Map<string, SnapHistory>;
  /** What buildAttempts reads, in log order: from the index, its checkpoint list and calls, and of each snapshot its path, phase and time. */
  attemptInput: () => readonly (Sequenced | AttemptInput)[];
}

/** `touchedAfter` over records in memory. */
function touchedAfterIn(records: readonly Sequenced[], seq: number): Sequenced[] {
  const touched = new Set<string>();
  for (const r of records) if (r.t === 'snap' && r.seq > seq) touched.add(r.path);
  return records.filter((r) => r.t !== 'snap' || touched.has(r.path));
}

/** Reads the whole log, writes the index, returns the skeleton (and the rewind stretches the index was given, when they hold for all of it). */
export function fullRead(storeDir: string, logFile: string): SkeletonRead & { stretches?: Map<string, number[]> } {
  const tail = readTail(logFile, null)!;
  const upTo = skeletonOf(tail.complete);
  const prov = provenanceOf(upTo.records);
  const kept =
    tail.to.size > 0 && !indexOff()
      ? writeIndex(
          path.join(storeDir, STORE_FILE.timelineIndex),
          logFile,
          tail.to,
          upTo,
          (seq) => prov.get(seq),
          readGaps(logFile, { to: tail.to.size }),
        )
      : undefined;
  const partial = skeletonOf(tail.partial);
  const records = upTo.records.concat(partial.records);
  const all = partial.records.length ? provenanceOf(records) : prov;
  return {
    records,
    problems: upTo.problems.concat(partial.problems),
    via: 'full',
    provenance: (seq) => all.get(seq),
    findCheckpoint: (ref) => findCheckpoint(records, ref),
    touchedAfter: (seq) => touchedAfterIn(records, seq),
    planInput: () => null,
    around: () => records,
    histories: () => historiesOf(records),
    attemptInput: () => records,
    ...(kept && partial.records.length === 0 ? { stretches: kept } : {}),
  };
}

/** The first of `rows` (row numbers in log order) whose sequence number is above `seq`. */
function firstAbove(rows: Int32Array, seqs: ArrayLike<number>, seq: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (seqs[rows[mid]!]! > seq) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** SkeletonRead.around over the index: each path's rows around `points` and its last, with the checkpoints and calls. */
function snapsAround(snaps: SnapRows, points: readonly number[], other: Sequenced[], newer: Sequenced[]): Sequenced[] {
  const kept: number[] = [];
  for (const group of snaps.groups()) {
    const pick = new Set<number>([group[group.length - 1]!]);
    for (const at of points) {
      const k = firstAbove(group, snaps.c.seq, at - 1);
      if (k > 0) pick.add(group[k - 1]!);
      if (k < group.length) pick.add(group[k]!);
    }
    for (const i of pick) kept.push(i);
  }
  kept.sort((x, y) => x - y); // row numbers are in log order
  return merge(
    kept.map((i) => snaps.row(i)),
    other,
  ).concat(newer);
}

/**
 * The skeleton of the log in `storeDir`, equal to `readLog(...)` filtered by `inSkeleton` (problems
 * included), with every snapshot's provenance. Uses the index when it vouches for a prefix of the
 * log, and (re)writes it when it was missing, stale, or far behind. Reads the index's snapshot
 * columns and keys; its checkpoint part only when `records` or `problems` are asked for.
 */
export function readSkeleton(storeDir: string, logFile: string): SkeletonRead {
  let rows: SnapRows | null = null;
  const it = indexAndTail(storeDir, logFile, (idx, tail) => {
    idx.keys();
    rows = new SnapRows(idx.snapPart());
    // The checkpoint part is read below when the index is rewritten or a new rewind snapshot needs the checkpoints.
    const newer = tail.complete.records.concat(tail.partial.records);
    if (tail.to.size - idx.pos.size >= REWRITE_AFTER_BYTES || newer.some((r) => r.t === 'snap' && r.phase === 'rewind'))
      idx.checkpointPart();
  });
  if (!it || !rows) return fullRead(storeDir, logFile);
  const snaps: SnapRows = rows;
  const { idx, tail, added, partial } = it;
  const keys = idx.keys();
  const newer = added.records.concat(partial.records);
  // The fold goes on from the index: each path the new lines touch starts from its indexed history.
  const fold = new ProvenanceFold((p): PathHistory => {
    const h: PathHistory = { known: new Map() };
    for (const i of snaps.rowsOf(p)) {
      const prov = snaps.provenance(i)!;
      const key = contentKey(snaps.row(i));
      h.last = { key, prov };
      if (key !== null) h.known.set(key, prov);
    }
    return h;
  });
  // Checkpoints are looked up only by a rewind's snapshots (which rewind restored the content).
  if (newer.some((r) => r.t === 'snap' && r.phase === 'rewind'))
    for (const r of idx.checkpointPart().other) if (r.t === 'checkpoint') fold.add(r);
  for (const r of newer) fold.add(r);
  const seqs = snaps.c.seq;
  const provenance = (seq: number): Provenance | undefined => {
    if (seq >= idx.pos.seq) return fold.out.get(seq);
    let lo = 0;
    let hi = seqs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (seqs[mid]! === seq) return snaps.provenance(mid);
      if (seqs[mid]! < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };
  let all: Sequenced[] | undefined;
  const upTo = () => merge(snaps.all(), idx.checkpointPart().other).concat(added.records);
  const problems = () => idx.checkpointPart().problems.concat(added.problems, partial.problems);
  if (tail.to.size - idx.pos.size >= REWRITE_AFTER_BYTES)
    writeIndex(
      path.join(storeDir, STORE_FILE.timelineIndex),
      logFile,
      tail.to,
      { records: upTo(), problems: idx.checkpointPart().problems.concat(added.problems) },
      provenance,
      keys.gaps.concat(readGaps(logFile, { from: idx.pos.size, to: tail.to.size })),
    );
  const newerCps = newer.filter((r) => r.t === 'checkpoint') as Sequenced<CheckpointRecord>[];
  const touchedAfter = (seq: number): Sequenced[] => {
    const touched = new Set<string>();
    for (let i = snaps.n - 1; i >= 0 && seqs[i]! > seq; i--) touched.add(snaps.pathOf(i));
    for (const r of newer) if (r.t === 'snap' && r.seq > seq) touched.add(r.path);
    const kept: Sequenced[] = [];
    for (let i = 0; i < snaps.n; i++) if (touched.has(snaps.pathOf(i))) kept.push(snaps.row(i));
    return merge(kept, idx.checkpointPart().other).concat(newer.filter((r) => r.t !== 'snap' || touched.has(r.path)));
  };
  const planInput = (seq: number): PlanInput => {
    const byPath = new FactsFold<number | Sequenced<SnapRecord>>(seq);
    // Per path, only its last row at or before `seq` and the rows after it say anything of the target.
    for (const group of snaps.groups()) {
      const from = firstAbove(group, seqs, seq);
      const p = snaps.pathOf(group[0]!);
      for (let k = Math.max(0, from - 1); k < group.length; k++) {
        const i = group[k]!;
        byPath.add(p, seqs[i]!, snaps.phaseOf(i), snaps.sessionOf(i), seqs[i]! > seq && snaps.isUser(i), i);
      }
    }
    for (const r of newer) {
      if (r.t !== 'snap') continue;
      const s = r as Sequenced<SnapRecord>;
      byPath.add(s.path, s.seq, s.phase, s.session, s.seq > seq && provenance(s.seq)?.origin === 'user', s);
    }
    return {
      records: keys.rest.concat(newer.filter((r) => r.t !== 'snap')),
      facts: byPath.facts((h) => (typeof h === 'number' ? snaps.row(h) : h)),
    };
  };
  const histories = (): Map<string, SnapHistory> => {
    const out = new Map<string, SnapHistory>();
    const tails = snapsByPath(newer);
    for (const group of snaps.groups()) {
      const p = snaps.pathOf(group[0]!);
      out.set(p, new ColumnHistory(snaps, group, tails.get(p) ?? []));
    }
    for (const [p, list] of tails) if (!out.has(p)) out.set(p, new RecordHistory(list));
    return out;
  };
  const ids = newerCps.length ? keys.ids.concat(newerCps.map((c) => c.id)) : keys.ids;
  const checkpointAt = (i: number): Sequenced<CheckpointRecord> => {
    if (i >= keys.ids.length) return newerCps[i - keys.ids.length]!;
    try {
      return idx.checkpoint(i);
    } catch {
      // Its place in a damaged checkpoint part: read from the log (which writes the index again).
      return checkpoints(fullRead(storeDir, logFile).records)[i]!;
    }
  };
  return {
    planInput,
    around: (points, only) =>
      snapsAround(
        snaps,
        points,
        only
          ? merge(
              [...new Set(only)].filter((c) => c.seq < idx.pos.seq).sort((x, y) => x.seq - y.seq),
              keys.rest,
            )
          : idx.checkpointPart().other,
        newer,
      ),
    get records() {
      return (all ??= upTo().concat(partial.records));
    },
    get problems() {
      return problems();
    },
    via: 'index',
    provenance,
    findCheckpoint: (ref) => findCheckpointIn(ids, ref, checkpointAt),
    touchedAfter,
    histories,
    attemptInput: () => attemptInputOf(idx, snaps, keys.rest, newer, checkpointAt, () => fullRead(storeDir, logFile).records),
  };
}

/**
 * What buildAttempts reads, from the index: the checkpoint list (a rewind's checkpoint, which names
 * its target, read whole), the calls, each write's path, phase and time, then the newer lines.
 */
function attemptInputOf(
  idx: IndexRead,
  snaps: SnapRows,
  calls: Sequenced[],
  newer: Sequenced[],
  checkpointAt: (i: number) => Sequenced<CheckpointRecord>,
  whole: () => Sequenced[],
): readonly (Sequenced | AttemptInput)[] {
  let l: ListPart;
  try {
    l = idx.listPart();
  } catch {
    return whole(); // a damaged list: the log read whole (which writes the index again)
  }
  const cps: AttemptInput[] = new Array(l.ids.length);
  for (let i = 0; i < l.ids.length; i++) {
    if (l.kind[i] === 'rewind') cps[i] = checkpointAt(i);
    else {
      const c: AttemptInput = { t: 'checkpoint', id: l.ids[i]!, time: l.time[i]!, kind: l.kind[i]!, label: l.label[i]!, seq: l.seq[i]! };
      if (l.session[i] !== null) c.session = l.session[i]!;
      if (l.agent[i] !== null) c.agent = l.agent[i]!;
      cps[i] = c;
    }
  }
  // Each run of writes between two checkpoints as one entry (attempts read their paths and where they end).
  const runs: WriteRun[] = [];
  const seen = new Map<string, number>();
  let run: WriteRun | undefined;
  let next = 0; // the first checkpoint after the last write
  for (let i = 0; i < snaps.n; i++) {
    if (!WORK_PHASES.has(snaps.phaseOf(i))) continue; // what attempts read of a snapshot: only writes
    const seq = snaps.c.seq[i]!;
    let crossed = false;
    while (next < l.seq.length && l.seq[next]! < seq) {
      next++;
      crossed = true;
    }
    if (!run || crossed) {
      const time = snaps.c.time[i]!;
      runs.push((run = { t: 'writes', seq, time: (Number.isNaN(time) ? undefined : time) as number, last: seq, paths: [], lasts: [] }));
      seen.clear();
    }
    const p = snaps.pathOf(i);
    let at = seen.get(p);
    if (at === undefined) seen.set(p, (at = run.paths.push(p) - 1));
    run.lasts[at] = run.last = seq;
  }
  return (merge(merge(cps as Sequenced[], calls), runs as unknown as Sequenced[]) as AttemptInput[]).concat(newer as AttemptInput[]);
}

/**
 * For `verify`: null when there is no index, or it is stale (it will be rebuilt), or it agrees
 * with `full` (a full read of the log); otherwise what is wrong with it.
 */
export function checkIndex(storeDir: string, logFile: string, full: LogContents): string | null {
  const file = path.join(storeDir, STORE_FILE.timelineIndex);
  if (!fs.existsSync(file)) return null;
  const unreadable = `${STORE_FILE.timelineIndex} cannot be read; delete it (it is rebuilt from files.jsonl on the next read)`;
  if (!IndexRead.read(file)) return unreadable;
  const opened = openIndex(file, logFile);
  if (!opened) return null; // stale: not used, rewritten on the next read
  const { idx } = opened;
  const prefix = skeletonOf({
    records: full.records.filter((r) => r.seq < idx.pos.seq),
    problems: full.problems.filter((p) => p.line <= idx.pos.lines),
  });
  let cps: CheckpointPart;
  let rows: SnapRows;
  let keys: KeysPart;
  let byPlace: Sequenced<CheckpointRecord>[];
  let list: ListPart;
  try {
    list = idx.listPart();
    cps = idx.checkpointPart();
    rows = new SnapRows(idx.snapPart());
    keys = idx.keys();
    byPlace = keys.ids.map((_, i) => idx.checkpoint(i, false));
  } catch {
    return unreadable;
  }
  const prefixCps = prefix.records.filter((r) => r.t === 'checkpoint') as Sequenced<CheckpointRecord>[];
  const prov = provenanceOf(prefix.records);
  const perCp = filesPerCheckpoint(prefix.records);
  const lastCp = prefix.records.filter((r) => r.t === 'checkpoint').pop();
  const expect = {
    ...prefix,
    prov: prefix.records.filter((r) => r.t === 'snap').map((r) => prov.get(r.seq)),
    keys: {
      ids: prefixCps.map((c) => c.id),
      seq: prefixCps.map((c) => c.seq),
      rest: prefix.records.filter((r) => r.t !== 'checkpoint' && r.t !== 'snap'),
      byPlace: prefixCps,
      folders: recordedFoldersOf(prefixCps),
      gaps: readGaps(logFile, { to: idx.pos.size }),
    },
    list: listPartOf(
      prefix.records,
      prefixCps,
      prefixCps.map((c) => perCp.get(c.id)?.length ?? 0),
      lastCp ? prefix.records.filter((r) => r.t === 'snap' && r.seq > lastCp.seq) : [],
    ),
  };
  const found = {
    records: merge(rows.all(), cps.other),
    problems: cps.problems,
    prov: rows.all().map((_, i) => rows.provenance(i)),
    keys: { ids: keys.ids, seq: keys.seq, rest: keys.rest, byPlace, folders: keys.folders, gaps: keys.gaps },
    list,
  };
  return JSON.stringify(canon(expect)) === JSON.stringify(canon(found))
    ? null
    : `${STORE_FILE.timelineIndex} does not match files.jsonl; delete it (it is rebuilt from files.jsonl on the next read)`;
}

/** A value with object keys sorted (and undefined fields dropped, as JSON does), to compare by content. */
function canon(v: unknown): unknown {
  return Array.isArray(v)
    ? v.map(canon)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
            .sort()
            .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
        )
      : v;
}
