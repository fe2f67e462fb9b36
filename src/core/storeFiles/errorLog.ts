// The one way a line is added to an errors.log (a store's, or the user's own when the store is not theirs,
// recording/userLog.ts): one JSON line `{time, message, detail?}` through the one JSONL append, owner-only,
// never through a link planted where the log should be, never past `maxBytes`, and never throwing (the agent
// is never blocked, not even by a full disk).
import * as fs from 'node:fs';
import { appendJsonLines } from './jsonLines';

/** Appends `{time, message, detail?}` as one line to `file`; nothing when the file is `maxBytes` or more. Never throws. */
export function appendErrorLine(file: string, message: string, detail?: unknown, maxBytes = Infinity): void {
  try {
    if (maxBytes !== Infinity && sizeOf(file) >= maxBytes) return;
    appendJsonLines(file, [{ time: new Date().toISOString(), message, ...(detail === undefined ? {} : { detail }) }], { noFollow: true });
  } catch {
    /* the agent is never blocked */
  }
}

function sizeOf(file: string): number {
  try {
    return fs.lstatSync(file).size;
  } catch {
    return 0; // the first line
  }
}
