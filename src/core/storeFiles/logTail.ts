// Reading files.jsonl in parts: a reader that has parsed the log up to some length continues from
// there, instead of parsing 100,000 lines again for 10 new ones. The part read must start on a
// line boundary of the same file (logPrefix.ts says whether it still is); anything else — a log
// rewritten by gc, shrunk, replaced — is read whole.
import * as fs from 'node:fs';
import { type LogContents, type LogProblem, parseLog, parseLogBytes } from './fileLog';
import { readRange } from './fsx';
import { markAt, prefixHolds } from './logPrefix';
import type { Sequenced } from './records';

/** Where a parsed prefix of the log ends: enough to go on from there, and to tell it still holds. */
export interface LogPosition {
  ino: number;
  /** Bytes of complete lines parsed. */
  size: number;
  mark: string;
  /** Records (the next sequence number) and lines (blank and bad ones too) in those bytes. */
  seq: number;
  lines: number;
}

export const START: Omit<LogPosition, 'ino' | 'mark'> = { size: 0, seq: 0, lines: 0 };

export interface TailRead {
  /** The complete lines after `from`, and the position after them. */
  complete: LogContents;
  to: LogPosition;
  /**
   * A last line without its newline (a hook still writing it, or a torn line a killed writer
   * left): parsed as a full read parses it, but not part of `to` — read again next time.
   */
  partial: LogContents;
}

/** Where a read of an append-only file stopped: its inode, the bytes of complete lines read, and a mark of the last of them. */
export interface BytePosition {
  ino: number;
  size: number;
  mark: string;
}

export interface NewLines {
  /** The complete lines after `from` (ending with a newline), starting at byte `offset`. */
  bytes: Buffer;
  offset: number;
  /** A last line without its newline (still being written, or torn): not part of `to`. */
  partial: Buffer;
  to: BytePosition;
}

/**
 * The lines appended to `file` since `from` (null: all of it). Returns null when `from` no longer
 * describes a prefix of the file (rewritten, shrunk or replaced): the caller starts again from null.
 * A missing file reads as empty. The one copy of this rule for every append-only file the extension follows.
 */
export function readNewLines(file: string, from: BytePosition | null): NewLines | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    if (from && from.size > 0) return null;
    return { bytes: Buffer.alloc(0), offset: 0, partial: Buffer.alloc(0), to: { ino: 0, size: 0, mark: '' } };
  }
  try {
    const st = fs.fstatSync(fd);
    if (from && from.size > 0 && !prefixHolds(fd, st, from)) return null;
    const at = from && from.size > 0 ? from.size : 0;
    const buf = readRange(fd, at, st.size);
    const end = buf.lastIndexOf(0x0a) + 1;
    return {
      bytes: buf.subarray(0, end),
      offset: at,
      partial: buf.subarray(end),
      to: { ino: st.ino, size: at + end, mark: markAt(fd, at + end) },
    };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads the log from `from` (null: from the start). Returns null when `from` no longer describes a
 * prefix of the file (gc rewrote it, it shrank or was replaced): the caller reads it whole.
 */
export function readTail(file: string, from: LogPosition | null): TailRead | null {
  const r = readNewLines(file, from);
  if (!r) return null;
  const at = from && from.size > 0 ? from : { ...START };
  const { newlines, ...complete } = parseLogBytes(r.bytes, { seq: at.seq, line: at.lines });
  const lines = at.lines + newlines;
  const to: LogPosition = { ...r.to, seq: at.seq + complete.records.length, lines };
  const partial = r.partial.length ? parseLog(r.partial.toString('utf8'), { seq: to.seq, line: lines }) : { records: [], problems: [] };
  return { complete, partial, to };
}

/** Folds the lines of a file into a state of the caller's choosing (IncrementalLines). */
export interface LineFold<S> {
  start(): S;
  /** One complete line (without its newline) at byte `offset`. */
  add(state: S, line: Buffer, offset: number): void;
}

/**
 * Any append-only file of lines, kept folded between calls: `read()` folds only the complete lines
 * appended since the last call, and starts again from nothing when the file was rewritten, shrunk
 * or replaced. A last line without its newline waits until it is complete.
 */
export class IncrementalLines<S> {
  private pos: BytePosition | null = null;
  private state: S;
  lastRead: 'full' | 'tail' = 'full';

  constructor(
    readonly file: string,
    private readonly fold: LineFold<S>,
  ) {
    this.state = fold.start();
  }

  /** The state after every complete line; the same object while nothing is rewritten (folded in place). */
  read(): S {
    let r = this.pos ? readNewLines(this.file, this.pos) : null;
    if (r) this.lastRead = 'tail';
    else {
      r = readNewLines(this.file, null)!;
      this.state = this.fold.start();
      this.lastRead = 'full';
    }
    const b = r.bytes;
    for (let start = 0; start < b.length;) {
      const nl = b.indexOf(0x0a, start);
      this.fold.add(this.state, b.subarray(start, nl), r.offset + start);
      start = nl + 1;
    }
    this.pos = r.to;
    return this.state;
  }
}

/**
 * The whole log, kept parsed between calls: `read()` parses only the lines appended since the last
 * call (O(new lines)), and the whole file again when it was rewritten, shrunk or replaced. The
 * extension's timeline keeps one; each read returns new arrays (never mutates what it returned).
 */
export class IncrementalLog {
  private pos: LogPosition | null = null;
  private records: Sequenced[] = [];
  private problems: LogProblem[] = [];
  /** How the last read went: 'full' (from the start), 'tail' (only what was appended), for tests and the bench. */
  lastRead: 'full' | 'tail' = 'full';

  constructor(readonly file: string) {}

  read(): LogContents {
    let r = this.pos ? readTail(this.file, this.pos) : null;
    if (r) this.lastRead = 'tail';
    else {
      r = readTail(this.file, null)!;
      this.records = [];
      this.problems = [];
      this.lastRead = 'full';
    }
    if (r.complete.records.length) this.records = this.records.concat(r.complete.records);
    if (r.complete.problems.length) this.problems = this.problems.concat(r.complete.problems);
    this.pos = r.to;
    return {
      records: r.partial.records.length ? this.records.concat(r.partial.records) : this.records,
      problems: r.partial.problems.length ? this.problems.concat(r.partial.problems) : this.problems,
    };
  }
}
