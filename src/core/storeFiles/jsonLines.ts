// Append-only JSONL files (files.jsonl, lineage.jsonl, sessions/<id>.jsonl): each append is one
// O_APPEND write, so concurrent hooks never interleave inside a line; readers skip torn or garbage
// lines; nobody rewrites such a file in place.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fault, faultsArmed } from '../faults';
import { writeAll } from './fsx';

/**
 * Appends values as complete lines with one O_APPEND write, creating the file (0600) and, with
 * `mkdir`, its folder (0700). Survives a torn last line left by a killed writer. A short write (a
 * full disk) loops and then throws: never a silently truncated line.
 */
export function appendJsonLines(
  file: string,
  values: readonly unknown[],
  opts: { mkdir?: boolean; faultPoint?: string; noFollow?: boolean } = {},
): void {
  if (values.length === 0) return;
  let text = '';
  for (const v of values) text += JSON.stringify(v) + '\n';
  // `noFollow`: a link planted where the file should be is refused (ELOOP), never appended through.
  const { O_APPEND, O_CREAT, O_RDWR, O_NOFOLLOW } = fs.constants;
  const flags = opts.noFollow ? O_APPEND | O_CREAT | O_RDWR | (O_NOFOLLOW ?? 0) : 'a+';
  let fd: number;
  try {
    fd = fs.openSync(file, flags, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || !opts.mkdir) throw e;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fd = fs.openSync(file, flags, 0o600);
  }
  try {
    // A writer killed mid-line leaves no newline: start on a fresh line so only the fragment is lost.
    const size = fs.fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) text = '\n' + text;
    }
    if (faultsArmed && opts.faultPoint) {
      // Kill tests: die with half of this append written (a torn last line).
      const buf = Buffer.from(text);
      const half = Math.floor(buf.length / 2);
      writeAll(fd, buf.subarray(0, half));
      fault(opts.faultPoint);
      writeAll(fd, buf.subarray(half));
    } else writeAll(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The one line splitter of every JSONL reader: calls `fn` with each line of `text` that holds something,
 * and its 0-based line number (blank lines counted, so a problem names the line an editor shows). Lines
 * end at LF; a CR before it (a file edited on Windows) is dropped; blank lines are skipped. A last line
 * without its LF is passed too: a torn one fails to parse and is skipped by the caller, as any garbage.
 */
export function eachLine(text: string, fn: (line: string, index: number) => void): void {
  let index = 0;
  for (let start = 0; start <= text.length; index++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.charCodeAt(end - 1) === 0x0d && end > start ? text.slice(start, end - 1) : text.slice(start, end);
    if (line.trim() !== '') fn(line, index);
    start = end + 1;
  }
}

/** The JSON objects of JSONL text, in order; blank, torn, garbage and non-object lines skipped. */
export function jsonObjectsOf(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  eachLine(text, (line) => {
    const v = jsonObjectLine(line);
    if (v) out.push(v);
  });
  return out;
}

/** The JSON objects of a file, in order; missing file = none, bad lines skipped. */
export function readJsonLines(file: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return jsonObjectsOf(text);
}

/** One line's JSON object, or null (blank, torn or garbage, or not an object). */
export function jsonObjectLine(line: string): Record<string, unknown> | null {
  if (!line.trim()) return null;
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null; // a torn line: skipped
  }
}
