// Reading files.jsonl in parts: a reader that has parsed the log up to some length continues from
// there, instead of parsing 100,000 lines again for 10 new ones. The part read must start on a
// line boundary of the same file (logPrefix.ts says whether it still is); anything else — a log
// rewritten by gc, shrunk, replaced — is read whole.
import * as fs from 'node:fs';
import { type LogContents, type LogProblem, parseLog } from './fileLog';
import { markAt, prefixHolds, readRange } from './logPrefix';
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

/**
 * Reads the log from `from` (null: from the start). Returns null when `from` no longer describes a
 * prefix of the file (gc rewrote it, it shrank or was replaced): the caller reads it whole.
 */
export function readTail(file: string, from: LogPosition | null): TailRead | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    if (from && from.size > 0) return null;
    const none = { records: [], problems: [] };
    return { complete: none, partial: none, to: { ino: 0, mark: '', ...START } };
  }
  try {
    const st = fs.fstatSync(fd);
    if (from && from.size > 0 && !prefixHolds(fd, st, from)) return null;
    const at = from && from.size > 0 ? from : { ...START };
    const buf = readRange(fd, at.size, st.size);
    const end = buf.lastIndexOf(0x0a) + 1;
    const text = buf.toString('utf8', 0, end);
    const complete = parseLog(text, { seq: at.seq, line: at.lines });
    let lines = at.lines;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    const to: LogPosition = {
      ino: st.ino,
      size: at.size + end,
      mark: markAt(fd, at.size + end),
      seq: at.seq + complete.records.length,
      lines,
    };
    const partial = end < buf.length ? parseLog(buf.toString('utf8', end), { seq: to.seq, line: lines }) : { records: [], problems: [] };
    return { complete, partial, to };
  } finally {
    fs.closeSync(fd);
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
