// The append-only file timeline, `files.jsonl`. One JSON object per line, appended with a single
// O_APPEND write so concurrent hook processes never interleave inside a line. Readers skip (and
// report) torn or garbage lines; nobody rewrites the file in place.
import * as fs from 'node:fs';
import { readOpen, readRange, readTailBytes } from './fsx';
import { appendJsonLines, eachLine } from './jsonLines';
import type { GapRecord, LogRecord, Sequenced } from './records';
import { migrateRecord } from './storeFormat';

export interface LogProblem {
  line: number; // 1-based line number in the file
  reason: string;
  text: string; // the start of the offending line
}

export interface LogContents {
  records: Sequenced[];
  problems: LogProblem[];
}

/** Appends records as complete lines with one write (see jsonLines.ts). */
export function appendRecords(file: string, records: readonly LogRecord[]): void {
  appendJsonLines(file, records, { faultPoint: 'log.append' });
}

const KNOWN_TYPES = new Set(['checkpoint', 'snap', 'call', 'gap']);

/** What parseLine returns for a well-formed `gap` line: not a timeline record (read by readGaps), and not a problem. */
export const GAP_LINE = 'a gap line (not a timeline record)';

/** Parses one line; returns a reason string when the line is not a usable record (GAP_LINE for a gap). */
export function parseLine(line: string): LogRecord | string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return 'not valid JSON (a torn or garbage line)';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const r = migrateRecord(v as Record<string, unknown>);
  if (typeof r.t !== 'string') return 'no record type';
  if (!KNOWN_TYPES.has(r.t)) return `unknown record type "${r.t}"`;
  if (r.t === 'checkpoint' && (typeof r.id !== 'string' || typeof r.kind !== 'string')) return 'checkpoint without id or kind';
  if (r.t === 'snap') {
    if (typeof r.path !== 'string' || r.path.length === 0) return 'snapshot without path';
    if (!(r.hash === null || (typeof r.hash === 'string' && /^[0-9a-f]{64}$/.test(r.hash)))) return 'snapshot with a malformed hash';
    if (typeof r.phase !== 'string') return 'snapshot without phase';
  }
  if (r.t === 'call' && typeof r.tool !== 'string') return 'call without tool';
  if (r.t === 'gap') return gapProblem(r) ?? GAP_LINE;
  return r as unknown as LogRecord;
}

function gapProblem(r: Record<string, unknown>): string | null {
  if (typeof r.path !== 'string') return 'gap without path';
  if (typeof r.reason !== 'string') return 'gap without reason';
  return typeof r.time === 'number' ? null : 'gap without time';
}

/** The prefix every gap line starts with (appendGaps writes `t` first). */
const GAP_PREFIX = Buffer.from('{"t":"gap"');

/** Appends gap lines (see records.ts GapRecord) with one write. */
export function appendGaps(file: string, gaps: readonly GapRecord[]): void {
  appendJsonLines(
    file,
    gaps.map(({ t, ...rest }) => ({ t, ...rest })), // `t` first: readGaps finds the lines by that prefix
  );
}

/** How far before `since` a backward search for gaps goes on (concurrent hooks append slightly out of time order). */
const GAP_SLACK_MS = 60_000;
const GAP_CHUNK = 4 * 1024 * 1024;

/** The time of a log line (its own `time`, the last such key: a call's input may hold one too). */
function lineTime(line: string): number | undefined {
  const at = line.lastIndexOf('"time":');
  if (at < 0) return undefined;
  const n = parseInt(line.slice(at + 7, at + 27), 10);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The log's gap lines, in order: a search for their prefix, no parse of the other lines. Read from the
 * end back: with `since` (ms), only as far back as lines of that time (the span a plan looks at);
 * with `maxBytes`, at most that much of the log's end. A gap whose reason this version does not know
 * is kept as it is (its readers map it).
 */
export function readGaps(file: string, opts: { since?: number; maxBytes?: number; from?: number; to?: number } = {}): GapRecord[] {
  const found: GapRecord[][] = [];
  readOpen(file, (fd) => {
    // `from`, `to`: only the lines in those bytes (`from` a line's start: the end of what the timeline index holds).
    const size = Math.min(opts.to ?? Infinity, fs.fstatSync(fd).size);
    const floor = Math.max(opts.from ?? 0, opts.maxBytes === undefined ? 0 : size - opts.maxBytes);
    let end = size;
    while (end > floor) {
      const start = Math.max(floor, end - GAP_CHUNK);
      const bytes = readRange(fd, start, end);
      // A line cut at the chunk's start is read whole with the chunk before it.
      const atLineStart = start === 0 || start === opts.from;
      const first = atLineStart ? 0 : bytes.indexOf(0x0a) + 1;
      if (!atLineStart && first === 0 && start > floor) {
        end = start; // one line longer than a chunk (no gap line is): on to the chunk before
        continue;
      }
      found.push(gapsIn(bytes, first));
      if (start === floor) break;
      end = start + first;
      const nl = bytes.indexOf(0x0a, first);
      const t = nl > first ? lineTime(bytes.toString('utf8', first, nl)) : undefined;
      if (opts.since !== undefined && t !== undefined && t < opts.since - GAP_SLACK_MS) break;
    }
  });
  return found.reverse().flat();
}

/** The well-formed gap lines among the complete lines of `bytes` from `from`. */
function gapsIn(bytes: Buffer, from: number): GapRecord[] {
  const out: GapRecord[] = [];
  for (let at = bytes.indexOf(GAP_PREFIX, from); at >= 0; at = bytes.indexOf(GAP_PREFIX, at + 1)) {
    if (at > from && bytes[at - 1] !== 0x0a) continue;
    const end = bytes.indexOf(0x0a, at);
    if (end < 0) break; // a line still being written
    try {
      const r = JSON.parse(bytes.toString('utf8', at, end)) as Record<string, unknown>;
      if (gapProblem(r) === null) out.push(r as unknown as GapRecord);
    } catch {
      /* a torn line: skipped, as every reader skips it */
    }
  }
  return out;
}

/**
 * The usable records among the log's last `maxBytes` (its first line there may be cut: skipped, as are
 * torn and garbage lines), in order; `mentions` skips, unparsed, every line without that text.
 */
export function recentRecords(file: string, maxBytes: number, mentions: string): LogRecord[] {
  const tail = readTailBytes(file, maxBytes);
  if (!tail) return [];
  const out: LogRecord[] = [];
  eachLine(tail.bytes.toString('utf8'), (line, i) => {
    if ((i === 0 && tail.from > 0) || !line.includes(mentions)) return;
    const r = parseLine(line);
    if (typeof r !== 'string') out.push(r);
  });
  return out;
}

/** Reads the whole log. Line order is the sequence; bad lines are skipped and reported. */
export function readLog(file: string): LogContents {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], problems: [] };
    throw e;
  }
  const { records, problems } = parseLogBytes(bytes);
  return { records, problems };
}

/** How much of the log is made a string at a time (cut after a newline, so never inside a character). */
const PARSE_CHUNK = 1 << 20;

/**
 * Parses log bytes, as parseLog parses their text, a part at a time: a 28 MB log made one string is 28 MB more of
 * fresh memory to fault in (what most of a read costs), and another pass over it to count its lines. Also returns
 * how many newlines the bytes hold.
 */
export function parseLogBytes(
  bytes: Buffer,
  from: { seq: number; line: number } = { seq: 0, line: 0 },
): LogContents & { newlines: number } {
  const records: Sequenced[] = [];
  const problems: LogProblem[] = [];
  let line = from.line;
  for (let start = 0; start < bytes.length;) {
    const end = start + PARSE_CHUNK >= bytes.length ? bytes.length : bytes.indexOf(0x0a, start + PARSE_CHUNK) + 1 || bytes.length;
    const part = parseLog(bytes.toString('utf8', start, end), { seq: from.seq + records.length, line });
    for (const r of part.records) records.push(r);
    for (const p of part.problems) problems.push(p);
    for (let i = bytes.indexOf(0x0a, start); i >= 0 && i < end; i = bytes.indexOf(0x0a, i + 1)) line++;
    start = end;
  }
  return { records, problems, newlines: line - from.line };
}

/**
 * Parses log text. `from` continues a log read in parts (an index, an incremental reader): the
 * sequence number and line number the text starts at.
 */
export function parseLog(text: string, from: { seq: number; line: number } = { seq: 0, line: 0 }): LogContents {
  const records: Sequenced[] = [];
  const problems: LogProblem[] = [];
  eachLine(text, (line, i) => {
    const r = parseLine(line);
    if (r === GAP_LINE) return;
    if (typeof r === 'string') problems.push({ line: from.line + i + 1, reason: r, text: line.slice(0, 120) });
    else {
      // The object JSON.parse made for this line, numbered in place: a copy of each of 100,000 records was a fifth of a read.
      const rec = r as Sequenced;
      rec.seq = from.seq + records.length;
      records.push(rec);
    }
  });
  return { records, problems };
}
