// Reads a transcript as a stream of lines, in fixed-size chunks: transcripts grow to tens of MB and
// only a small projection of each line is kept (transcriptLine.ts). Synchronous, so the CLI and the
// hook stay simple; the byte offset of every line is kept so a fork can copy lines unchanged.
import * as fs from 'node:fs';
import { openRegularFile } from '../../core/storeFiles/fsx';
import type { LineFold } from '../../core/storeFiles/logTail';
import { parseTranscriptLine, type TranscriptEntry } from './transcriptLine';

const CHUNK = 1 << 20;

/** Calls `onLine` for every line (without its newline) with its byte offset. A last line without a newline counts. */
export function forEachLine(file: string, onLine: (line: Buffer, offset: number) => void): void {
  const fd = openRegularFile(file); // a FIFO given as a transcript is refused, never waited on
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer | null = null;
    let carryOffset = 0;
    let pos = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl < 0) break;
        const piece = chunk.subarray(start, nl);
        if (carry) {
          onLine(Buffer.concat([carry, piece]), carryOffset);
          carry = null;
        } else onLine(piece, pos + start);
        start = nl + 1;
      }
      if (start < n) {
        const rest = Buffer.from(chunk.subarray(start));
        if (carry) carry = Buffer.concat([carry, rest]);
        else {
          carry = rest;
          carryOffset = pos + start;
        }
      }
      pos += n;
    }
    if (carry && carry.length > 0) onLine(carry, carryOffset);
  } finally {
    fs.closeSync(fd);
  }
}

export interface TranscriptContents {
  entries: TranscriptEntry[];
  /** Lines that are not JSON objects (a torn last line while Claude Code is writing, garbage). */
  badLines: number[];
  /** Non-empty lines read. */
  lines: number;
}

export class TranscriptMissingError extends Error {
  constructor(readonly file: string) {
    super(`No transcript at ${file}; check the path (Claude Code keeps them in ~/.claude/projects/<project>/<session id>.jsonl).`);
  }
}

/** How a transcript's lines fold into its contents: the one copy for a whole read and the extension's incremental one. */
export const TRANSCRIPT_FOLD: LineFold<TranscriptContents> = {
  start: () => ({ entries: [], badLines: [], lines: 0 }),
  add(c, raw, offset) {
    // Claude Code writes LF; tolerate a CR before it, and blank lines.
    const end = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
    const text = raw.toString('utf8', 0, end);
    if (text.trim() === '') return;
    const e = parseTranscriptLine(text, c.lines, offset, raw.length);
    if (e) c.entries.push(e);
    else c.badLines.push(c.lines);
    c.lines++;
  },
};

export function readTranscript(file: string): TranscriptContents {
  if (!fs.existsSync(file)) throw new TranscriptMissingError(file); // not a regular file: forEachLine says so
  const c = TRANSCRIPT_FOLD.start();
  forEachLine(file, (raw, offset) => TRANSCRIPT_FOLD.add(c, raw, offset));
  return c;
}
