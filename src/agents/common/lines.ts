// Transcripts read as lines, in fixed-size chunks: they grow to tens of MB and readers keep only a small
// projection of each line. Synchronous, so the CLI and the hook stay simple; the byte offset of every line
// is kept so a fork can copy lines unchanged (`readAt`).
import * as fs from 'node:fs';
import { openRegularFile } from '../../core/storeFiles/fsx';

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

/** `bytes` bytes of `fd` at `offset` (a line, without its newline; a trailing CR dropped). */
function readAt(fd: number, offset: number, bytes: number): Buffer {
  const buf = Buffer.allocUnsafe(bytes);
  let got = 0;
  while (got < bytes) {
    const n = fs.readSync(fd, buf, got, bytes - got, offset + got);
    if (n === 0) throw new Error('the transcript shrank while it was being forked; try again');
    got += n;
  }
  // A CR before the newline is part of the line's bytes but not of its JSON.
  return buf[bytes - 1] === 0x0d ? buf.subarray(0, bytes - 1) : buf;
}

/** A line of a file, where it stands: its byte offset and length (without the newline). */
export interface LineAt {
  offset: number;
  bytes: number;
}

/** Writes `lines` of `src` (in order, each through `map`) to a new file `dest`, mode 0600, synced: a fork's copy. */
export function copyLines<L extends LineAt>(src: string, dest: string, lines: readonly L[], map: (raw: Buffer, line: L) => Buffer): void {
  const input = openRegularFile(src);
  try {
    const out = fs.openSync(dest, 'wx', 0o600);
    try {
      for (const l of lines) {
        fs.writeSync(out, map(readAt(input, l.offset, l.bytes), l));
        fs.writeSync(out, '\n');
      }
      fs.fsyncSync(out);
    } finally {
      fs.closeSync(out);
    }
  } finally {
    fs.closeSync(input);
  }
}
