// Reads a Claude Code transcript line by line (common/lines.ts), keeping only a small projection of each
// line (transcriptLine.ts) and its byte offset, so a fork can copy lines unchanged.
import * as fs from 'node:fs';
import { AgentRewindError } from '../../core/errors';
import type { LineFold } from '../../core/storeFiles/logTail';
import { forEachLine } from '../common/lines';
import { parseTranscriptLine, type TranscriptEntry } from './transcriptLine';

export interface TranscriptContents {
  entries: TranscriptEntry[];
  /** Lines that are not JSON objects (a torn last line while Claude Code is writing, garbage). */
  badLines: number[];
  /** Non-empty lines read. */
  lines: number;
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
  if (!fs.existsSync(file)) throw new AgentRewindError('transcript-missing', { file }); // not a regular file: forEachLine says so
  const c = TRANSCRIPT_FOLD.start();
  forEachLine(file, (raw, offset) => TRANSCRIPT_FOLD.add(c, raw, offset));
  return c;
}
