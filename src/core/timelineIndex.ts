// `timeline-index.json`: the skeleton of files.jsonl kept beside it, so `checkpoints` and `plan` at
// 10,000 checkpoints do not parse 100,000 JSON lines (28 MB) every time. The skeleton is every
// checkpoint and snapshot record and every call a rewind cannot undo (irreversible, compensatable)
// — all that the checkpoint list, stateAt, provenance and the plan read — with their true
// sequence numbers; the other call lines (most of the log's bytes) are left out. Snapshots are
// stored as columns with their strings interned: parsing those is several times cheaper than
// parsing the lines.
//
// Derived and disposable, like latest.json: it names the log prefix it was made from
// (logPrefix.ts) and is used only while the log still starts with it; the lines after that prefix
// are parsed and added. Missing, unreadable, foreign or stale: the log is read whole and the index
// written again. Never the source of truth: `verify` compares it with a full read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogContents, LogProblem } from './fileLog';
import { writeDerived } from './logPrefix';
import { type LogPosition, readTail } from './logTail';
import type { LogRecord, Sequenced, SnapRecord } from './records';

export const INDEX_FILE = 'timeline-index.json';
const VERSION = 2;
/** Write the index again once this much log has been appended since (a prompt adds a few KB). */
const REWRITE_AFTER_BYTES = 256 * 1024;

/** The records the skeleton keeps: what checkpoints, stateAt, provenance and plans read. */
export function inSkeleton(r: LogRecord): boolean {
  return r.t !== 'call' || r.effect === 'irreversible' || r.effect === 'compensatable';
}

interface IndexFile extends LogPosition {
  v: number;
  problems: LogProblem[];
  /** Checkpoint and call records, whole, in order (with seq). */
  other: Sequenced[];
  snaps: SnapColumns;
}

/** Snapshots as columns. Strings are indexes into `strs` (NUL-joined; -1: absent); numbers null: absent. */
interface SnapColumns {
  strs: string;
  /** 64 hex digits per distinct hash. */
  hashes: string;
  seq: number[];
  path: number[];
  /** Index into `hashes` / 64; -1: null. */
  hash: number[];
  phase: number[];
  origin: number[];
  session: number[];
  tool: number[];
  call: number[];
  by: number[];
  size: (number | null)[];
  mtime: (number | null)[];
  mode: (number | null)[];
  time: (number | null)[];
  /** One character per snapshot: '-', 'l' link, 't' too-large, 'u' unreadable, 's' special. */
  flags: string;
  /** Anything the columns do not hold (dirs, unusual values), by row: merged back as it was. */
  rest: Record<string, Record<string, unknown>>;
}

const STRING_FIELDS = ['phase', 'origin', 'session', 'tool', 'call', 'by'] as const;
const NUMBER_FIELDS = ['size', 'mtime', 'mode', 'time'] as const;
const SKIP_FLAG: Record<string, string> = { 'too-large': 't', unreadable: 'u', special: 's' };
const FLAG_SKIP: Record<string, SnapRecord['skipped']> = { t: 'too-large', u: 'unreadable', s: 'special' };
const HEX64 = /^[0-9a-f]{64}$/;

function encodeSnaps(snaps: readonly Sequenced<SnapRecord>[]): SnapColumns {
  const strs: string[] = [];
  const strIndex = new Map<string, number>();
  const hashes: string[] = [];
  const hashIndex = new Map<string, number>();
  const intern = (s: string) => {
    let i = strIndex.get(s);
    if (i === undefined) strIndex.set(s, (i = strs.push(s) - 1));
    return i;
  };
  const c: SnapColumns = {
    strs: '',
    hashes: '',
    seq: [],
    path: [],
    hash: [],
    phase: [],
    origin: [],
    session: [],
    tool: [],
    call: [],
    by: [],
    size: [],
    mtime: [],
    mode: [],
    time: [],
    flags: '',
    rest: {},
  };
  let flags = '';
  const prev = { time: 0, mtime: 0 };
  snaps.forEach((s, row) => {
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === 't' || k === 'seq' || v === undefined) continue;
      if (k === 'path' && typeof v === 'string' && !v.includes('\0')) continue;
      if (k === 'hash' && (v === null || (typeof v === 'string' && HEX64.test(v)))) continue;
      if ((STRING_FIELDS as readonly string[]).includes(k) && typeof v === 'string' && !v.includes('\0')) continue;
      if ((NUMBER_FIELDS as readonly string[]).includes(k) && typeof v === 'number' && Number.isFinite(v)) continue;
      if (k === 'link' && v === true && !s.skipped) continue;
      if (k === 'skipped' && typeof v === 'string' && SKIP_FLAG[v] && s.link === undefined) continue;
      rest[k] = v;
    }
    c.seq.push(s.seq);
    c.path.push('path' in rest ? -1 : intern(s.path));
    if (s.hash === null || 'hash' in rest) c.hash.push(-1);
    else {
      let h = hashIndex.get(s.hash);
      if (h === undefined) hashIndex.set(s.hash, (h = hashes.push(s.hash) - 1));
      c.hash.push(h);
    }
    for (const f of STRING_FIELDS) {
      const v = s[f];
      c[f].push(typeof v === 'string' && !(f in rest) ? intern(v) : -1);
    }
    for (const f of NUMBER_FIELDS) {
      const v = s[f];
      if (typeof v !== 'number' || f in rest) c[f].push(null);
      else if (f === 'time' || f === 'mtime') {
        // Differences from the previous row's: small numbers, a third of the bytes to parse.
        c[f].push(v - prev[f]);
        prev[f] = v;
      } else c[f].push(v);
    }
    flags += 'skipped' in rest || 'link' in rest ? '-' : s.skipped ? SKIP_FLAG[s.skipped] : s.link ? 'l' : '-';
    if (Object.keys(rest).length) c.rest[row] = rest;
  });
  c.strs = strs.join('\0');
  c.hashes = hashes.join('');
  c.flags = flags;
  return c;
}

function decodeSnaps(c: SnapColumns): Sequenced<SnapRecord>[] | null {
  const n = c.seq.length;
  const { seq, path: pathCol, hash, size, mtime, mode, time, phase, origin, session, tool, call, by, flags, hashes, rest } = c;
  const cols = [pathCol, hash, size, mtime, mode, time, phase, origin, session, tool, call, by];
  if (cols.some((col) => !Array.isArray(col) || col.length !== n) || flags.length !== n) return null;
  const strs = c.strs === '' ? [] : c.strs.split('\0');
  const str = (i: number) => (i >= 0 ? strs[i] : undefined);
  const out: Sequenced<SnapRecord>[] = new Array(n);
  let t = 0;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const h = hash[i]!;
    const f = flags.charCodeAt(i);
    // One object shape for every row (absent fields are undefined, as JSON drops them): building
    // 60,000 records this way costs a few milliseconds, adding keys one by one many times that.
    const s = {
      t: 'snap',
      path: strs[pathCol[i]!]!,
      hash: h < 0 ? null : hashes.slice(h * 64, h * 64 + 64),
      size: size[i] ?? undefined,
      mtime: mtime[i] === null ? undefined : (m += mtime[i]!),
      mode: mode[i] ?? undefined,
      link: f === 0x6c ? true : undefined,
      skipped: f === 0x2d || f === 0x6c ? undefined : FLAG_SKIP[flags[i]!],
      phase: str(phase[i]!),
      origin: str(origin[i]!),
      by: str(by[i]!),
      session: str(session[i]!),
      tool: str(tool[i]!),
      call: str(call[i]!),
      time: time[i] === null ? undefined : (t += time[i]!),
      seq: seq[i]!,
    } as Sequenced<SnapRecord>;
    const more = rest[i];
    out[i] = more ? { ...s, ...more, seq: s.seq } : s;
  }
  return out;
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

function encode(pos: LogPosition, skeleton: LogContents): IndexFile {
  const snaps: Sequenced<SnapRecord>[] = [];
  const other: Sequenced[] = [];
  for (const r of skeleton.records) {
    if (r.t === 'snap') snaps.push(r as Sequenced<SnapRecord>);
    else other.push(r);
  }
  return { v: VERSION, ...pos, problems: skeleton.problems, other, snaps: encodeSnaps(snaps) };
}

function readIndex(file: string): { pos: LogPosition; contents: LogContents } | null {
  let raw: IndexFile;
  try {
    // The file is ASCII (asciiJson): read as latin1, which Node hands over without decoding —
    // decoding 9 MB of UTF-8 costs more than parsing it.
    raw = JSON.parse(fs.readFileSync(file).toString('latin1')) as IndexFile;
  } catch {
    return null;
  }
  if (!raw || raw.v !== VERSION || typeof raw.size !== 'number' || !Array.isArray(raw.other) || !Array.isArray(raw.problems) || !raw.snaps)
    return null;
  let snaps: Sequenced<SnapRecord>[] | null;
  try {
    snaps = decodeSnaps(raw.snaps);
  } catch {
    return null;
  }
  if (!snaps) return null;
  const pos: LogPosition = { ino: raw.ino, size: raw.size, mark: raw.mark, seq: raw.seq, lines: raw.lines };
  return { pos, contents: { records: merge(snaps, raw.other), problems: raw.problems } };
}

/** JSON with every non-ASCII character escaped (\uXXXX): the same value, readable as latin1. */
function asciiJson(v: unknown): string {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
}

const skeletonOf = (c: LogContents): LogContents => ({ records: c.records.filter(inSkeleton), problems: c.problems });

export interface SkeletonRead extends LogContents {
  /** 'index': the index and the lines after it were read; 'full': the whole log (and the index was written). */
  via: 'index' | 'full';
}

/**
 * The skeleton of the log in `storeDir`, equal to `readLog(...)` filtered by `inSkeleton` (problems
 * included). Uses the index when it vouches for a prefix of the log, and (re)writes it when it was
 * missing or stale, or far behind.
 */
export function readSkeleton(storeDir: string, logFile: string): SkeletonRead {
  const indexFile = path.join(storeDir, INDEX_FILE);
  const idx = readIndex(indexFile);
  const fromIndex = idx ? readTail(logFile, idx.pos) : null;
  const via = fromIndex ? 'index' : 'full';
  const base: LogContents = fromIndex ? idx!.contents : { records: [], problems: [] };
  const tail = fromIndex ?? readTail(logFile, null)!;
  const added = skeletonOf(tail.complete);
  const upTo: LogContents = {
    records: base.records.concat(added.records),
    problems: base.problems.concat(added.problems),
  };
  const behind = via === 'index' ? tail.to.size - idx!.pos.size : Infinity;
  if (tail.to.size > 0 && behind >= REWRITE_AFTER_BYTES) writeDerived(indexFile, asciiJson(encode(tail.to, upTo)));
  const partial = skeletonOf(tail.partial);
  return {
    records: partial.records.length ? upTo.records.concat(partial.records) : upTo.records,
    problems: partial.problems.length ? upTo.problems.concat(partial.problems) : upTo.problems,
    via,
  };
}

/**
 * For `verify`: null when there is no index, or it is stale (it will be rebuilt), or it agrees
 * with `full` (a full read of the log); otherwise what is wrong with it.
 */
export function checkIndex(storeDir: string, logFile: string, full: LogContents): string | null {
  const indexFile = path.join(storeDir, INDEX_FILE);
  if (!fs.existsSync(indexFile)) return null;
  const idx = readIndex(indexFile);
  if (!idx) return `${INDEX_FILE} cannot be read; delete it (it is rebuilt from files.jsonl on the next read)`;
  if (!readTail(logFile, idx.pos)) return null; // stale: not used, rewritten on the next read
  const expect = skeletonOf({
    records: full.records.filter((r) => r.seq < idx.pos.seq),
    problems: full.problems.filter((p) => p.line <= idx.pos.lines),
  });
  const same = JSON.stringify(canon(expect)) === JSON.stringify(canon(idx.contents));
  return same ? null : `${INDEX_FILE} does not match files.jsonl; delete it (it is rebuilt from files.jsonl on the next read)`;
}

/** Records with their keys sorted, so two reads compare by content, not key order. */
function canon(c: LogContents): unknown {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return sort(c);
}
