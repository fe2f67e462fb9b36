// Small append-only JSONL files of the conversation side (lineage.jsonl, sessions/<id>.jsonl):
// each line appended with one O_APPEND write, so concurrent hooks never interleave inside a line;
// readers skip torn or garbage lines.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Appends lines, creating the file (0600) and its folder (0700) when missing. */
export function appendJsonLines(file: string, values: readonly unknown[]): void {
  if (values.length === 0) return;
  let text = '';
  for (const v of values) text += JSON.stringify(v) + '\n';
  let fd: number;
  try {
    fd = fs.openSync(file, 'a+', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fd = fs.openSync(file, 'a+', 0o600);
  }
  try {
    // A writer killed mid-line leaves no newline: start on a fresh line so only the fragment is lost.
    const size = fs.fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) text = '\n' + text;
    }
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
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
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      /* a torn line: skipped */
    }
  }
  return out;
}
