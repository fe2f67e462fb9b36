// The file `timeline.idx` itself (timelineIndex.ts says what it holds and why): its header, its four
// parts each read on first use, and when it may be used — while the log still starts with the bytes
// it was made from, under the same inode or, checked by their sum, another one.
import * as fs from 'node:fs';
import type { LogProblem } from '../storeFiles/fileLog';
import { fileMark, readOpen, readRange } from '../storeFiles/fsx';
import { prefixHolds, prefixSum, writeDerived } from '../storeFiles/logPrefix';
import { type LogPosition, readTail, type TailRead } from '../storeFiles/logTail';
import type { CheckpointRecord, GapRecord, Sequenced } from '../storeFiles/records';
import type { RecordedFolders } from './timeline';
import { type SnapColumns, snapsFromBytes } from './snapColumns';
import { STORE_FILE } from '../storeFiles/names';

export const VERSION = 11;

export type Parts = [number, number, number, number];

export interface Header extends LogPosition {
  v: number;
  /** Lengths in bytes of the four parts after the header line. */
  parts: Parts;
  /** sha256 of the log's first `size` bytes: vouches for the same bytes under another inode (a copied or restored log). */
  sum?: string;
}

export interface CheckpointPart {
  problems: LogProblem[];
  /** Checkpoint and call records, whole, in order (with seq). */
  other: Sequenced[];
}

/** What a plan reads of the checkpoint part, without parsing it: its checkpoints' ids and places, and the calls. */
export interface KeysPart {
  /** Each checkpoint's id, sequence number, and where its JSON lies in the checkpoint part (offset, length). */
  ids: string[];
  seq: number[];
  at: number[];
  len: number[];
  /** The part's other records (the calls a rewind cannot undo), in order. */
  rest: Sequenced[];
  /** The folders the checkpoints name (what Store.roots reads), so it need not parse the checkpoint part. */
  folders: RecordedFolders;
  /** The log's gap lines (not timeline records: readGaps), in order: a plan asks for those after its target without searching the log. */
  gaps: GapRecord[];
}

/** What `checkpoints` lists, as columns in checkpoint order (the keys' order), and what the last one's file count goes on from. */
export interface ListPart {
  ids: string[];
  seq: number[];
  time: number[];
  kind: CheckpointRecord['kind'][];
  label: string[];
  session: (string | null)[];
  agent: (string | null)[];
  /** Changed-file count of each checkpoint (filesPerCheckpoint). */
  files: number[];
  /** 1 where a checkpoint's workspace state is the previous checkpoint's (folding.ts sameStateAsPrevious: what the log up to it says). */
  same: (0 | 1)[];
  /** The snapshots after the last checkpoint: its span may go on in the lines after the index. */
  lastSpan: Sequenced[];
  /** Where a rewind to each checkpoint would write (rewindStretches): the paths, and each one's triples. */
  stretchPaths: string[];
  stretches: number[][];
  /**
   * The label every surface shows (presentation.ts checkpointLabel) of each rewind checkpoint whose label is not the
   * recorded one, as [place, label]: said from its target, which the log before it holds, so lines appended later
   * never change it. A listing reads these instead of each rewind checkpoint and the keys.
   */
  relabel: [number, string][];
  /** The places of the rewind checkpoints whose label the index cannot say (a rewind to a rewind, or to just before a call it does not keep): said when read. */
  live: number[];
}

/** The index as read: each part read and parsed on first use. */
export class IndexRead {
  private cps: CheckpointPart | undefined;
  private snapCols: SnapColumns | undefined;
  private keyPart: KeysPart | undefined;
  private list: ListPart | undefined;

  private constructor(
    readonly pos: LogPosition,
    readonly header: Header,
    private readonly file: string,
    private readonly ino: number,
    private readonly parts: Parts,
    private readonly start: number,
  ) {}

  /** Bytes `from`..`to` of part `n`, as long as the file is the one the header was read from (a writer replaces it whole). */
  private part(n: 0 | 1 | 2 | 3, from = 0, to = this.parts[n]): Buffer {
    const fd = fs.openSync(this.file, 'r');
    try {
      if (fs.fstatSync(fd).ino !== this.ino) throw new Error(`${STORE_FILE.timelineIndex} was replaced while being read`);
      let at = this.start;
      for (let i = 0; i < n; i++) at += this.parts[i]! + 1;
      return readRange(fd, at + from, at + Math.min(to, this.parts[n]));
    } finally {
      fs.closeSync(fd);
    }
  }

  // The JSON parts are ASCII (asciiJson): read as latin1, which costs nothing next to decoding UTF-8.
  checkpointPart(): CheckpointPart {
    return (this.cps ??= JSON.parse(this.part(0).toString('latin1')) as CheckpointPart);
  }

  snapPart(): SnapColumns {
    return (this.snapCols ??= snapsFromBytes(this.part(1)));
  }

  keys(): KeysPart {
    if (this.keyPart) return this.keyPart;
    const k = JSON.parse(this.part(2).toString('latin1')) as KeysPart;
    const n = k.ids.length;
    const f = k.folders;
    const strings = (a: unknown) => Array.isArray(a) && a.every((x) => typeof x === 'string');
    if (
      k.seq.length !== n ||
      k.at.length !== n ||
      k.len.length !== n ||
      !Array.isArray(k.rest) ||
      !Array.isArray(k.gaps) ||
      !f ||
      !strings(f.cwds) ||
      !strings(f.roots)
    )
      throw new Error(`${STORE_FILE.timelineIndex}: keys that do not fit together`);
    return (this.keyPart = k);
  }

  listPart(): ListPart {
    if (this.list) return this.list;
    const l = JSON.parse(this.part(3).toString('latin1')) as ListPart;
    const n = l.ids.length;
    if ([l.seq, l.time, l.kind, l.label, l.session, l.agent, l.files, l.same].some((col) => !Array.isArray(col) || col.length !== n))
      throw new Error(`${STORE_FILE.timelineIndex}: a checkpoint list that does not fit together`);
    if (!Array.isArray(l.lastSpan)) throw new Error(`${STORE_FILE.timelineIndex}: a checkpoint list without its last span`);
    const { stretchPaths: paths, stretches } = l;
    if (!Array.isArray(paths) || !Array.isArray(stretches) || paths.length !== stretches.length || !stretches.every((t) => triples(t, n)))
      throw new Error(`${STORE_FILE.timelineIndex}: rewind stretches that do not fit the checkpoint list`);
    const place = (i: unknown) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < n && l.kind[i as number] === 'rewind';
    if (
      !Array.isArray(l.relabel) ||
      !l.relabel.every((r) => Array.isArray(r) && r.length === 2 && place(r[0]) && typeof r[1] === 'string') ||
      !Array.isArray(l.live) ||
      !l.live.every(place)
    )
      throw new Error(`${STORE_FILE.timelineIndex}: rewind labels that do not fit the checkpoint list`);
    return (this.list = l);
  }

  /** The `i`th indexed checkpoint, parsed from its place in the checkpoint part alone (`verify` compares it, unchecked). */
  checkpoint(i: number, check = true): Sequenced<CheckpointRecord> {
    const k = this.keys();
    const r = JSON.parse(this.part(0, k.at[i]!, k.at[i]! + k.len[i]!).toString('latin1')) as Sequenced<CheckpointRecord>;
    if (check && (r.t !== 'checkpoint' || r.id !== k.ids[i] || r.seq !== k.seq[i]))
      throw new Error(`${STORE_FILE.timelineIndex}: a checkpoint out of place`);
    return r;
  }

  static read(file: string): IndexRead | null {
    return readOpen(file, (fd) => {
      try {
        const st = fs.fstatSync(fd);
        const head = readRange(fd, 0, Math.min(st.size, 4096)).toString('latin1');
        const nl = head.indexOf('\n');
        const h = JSON.parse(head.slice(0, nl)) as Header;
        if (!h || h.v !== VERSION || !Array.isArray(h.parts) || h.parts.length !== 4) return null;
        if (nl + 1 + h.parts[0] + 1 + h.parts[1] + 1 + h.parts[2] + 1 + h.parts[3] !== st.size) return null;
        return new IndexRead({ ino: h.ino, size: h.size, mark: h.mark, seq: h.seq, lines: h.lines }, h, file, st.ino, h.parts, nl + 1);
      } catch {
        return null;
      }
    });
  }
}

/**
 * True when `t` is a path's rewind stretches for `n` checkpoints: triples of (from, to) in 0..n and an action 0..2.
 * A plain loop: a callback per number (~100,000 at 10,000 checkpoints) cost more than parsing them, on a cold start.
 */
function triples(t: unknown, n: number): boolean {
  if (!Array.isArray(t) || t.length % 3 !== 0) return false;
  for (let i = 0; i < t.length; i += 3) {
    const lo: unknown = t[i];
    const hi: unknown = t[i + 1];
    const action: unknown = t[i + 2];
    if (typeof lo !== 'number' || typeof hi !== 'number' || typeof action !== 'number') return false;
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || !Number.isInteger(action)) return false;
    if (lo < 0 || lo > n || hi < 0 || hi > n || action < 0 || action > 2) return false;
  }
  return true;
}

/** JSON with every non-ASCII character escaped (\\uXXXX): the same value, readable as latin1. */
export function asciiJson(v: unknown): string {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** sha256 of the log prefix `pos` describes, while the log is still that file; undefined when it is not. */
export function sumOf(logFile: string, pos: LogPosition): string | undefined {
  try {
    return readOpen(logFile, (fd) => (prefixHolds(fd, fs.fstatSync(fd), pos) ? prefixSum(fd, pos.size) : undefined)) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The index and the log lines after the prefix it describes; null when it is missing, unreadable or
 * stale. A log with the same first bytes under another inode (copied, restored from a backup) is
 * adopted, not read whole: the bytes are checked against the index's sum and the index is written
 * again naming the new inode (a hash of 28 MB, not a parse).
 */
export function openIndex(file: string, logFile: string): OpenedIndex | null {
  // One command asks several times (the skeleton, the gaps, the roots): while neither file changed, the index read
  // last — with the parts already parsed — and its tail are the answer. The marks are taken before the read, so a
  // file changed during it is read again next time. Held weakly: a long-lived process (the extension host) lets go.
  const key = `${file}\0${fileMark(file)}\0${fileMark(logFile)}`;
  const kept = lastOpened?.key === key ? lastOpened.opened.deref() : undefined;
  if (kept) return kept;
  const opened = openAnew(file, logFile);
  lastOpened = opened ? { key, opened: new WeakRef(opened) } : undefined;
  return opened;
}

export interface OpenedIndex {
  idx: IndexRead;
  tail: TailRead;
}

let lastOpened: { key: string; opened: WeakRef<OpenedIndex> } | undefined;

function openAnew(file: string, logFile: string): OpenedIndex | null {
  const idx = IndexRead.read(file);
  if (!idx) return null;
  const tail = readTail(logFile, idx.pos);
  if (tail) return { idx, tail };
  if (!idx.header.sum || !adopt(file, logFile, idx)) return null;
  const again = IndexRead.read(file);
  const after = again ? readTail(logFile, again.pos) : null;
  return again && after ? { idx: again, tail: after } : null;
}

/** True when the index was written again for the log's new inode: the log (another file) starts with the bytes it was made from. */
function adopt(file: string, logFile: string, idx: IndexRead): boolean {
  const { sum, size } = idx.header;
  const ino = readOpen(logFile, (fd) => {
    const st = fs.fstatSync(fd);
    return st.ino !== idx.pos.ino && st.size >= size && prefixSum(fd, size) === sum ? st.ino : null;
  });
  if (ino == null) return false;
  const bytes = readOpen(file, (fd) => readRange(fd, 0, fs.fstatSync(fd).size));
  if (!bytes) return false;
  const nl = bytes.indexOf(0x0a);
  if (JSON.stringify(JSON.parse(bytes.toString('latin1', 0, nl))) !== JSON.stringify(idx.header)) return false; // replaced meanwhile
  writeDerived(file, Buffer.concat([Buffer.from(JSON.stringify({ ...idx.header, ino }), 'latin1'), bytes.subarray(nl)]));
  return true;
}
