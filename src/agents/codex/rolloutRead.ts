// Reads a Codex rollout line by line (rolloutLine.ts keeps a small projection of each) and tells a
// rollout from another agent's transcript by its content: its first line is a `session_meta`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { forEachLine } from '../claude/transcriptRead';
import { parseRolloutLine, type RolloutEntry } from './rolloutLine';

export interface RolloutContents {
  entries: RolloutEntry[];
  /** Indexes of lines that are not JSON objects with a `type` (a torn last line while Codex writes). */
  badLines: number[];
  /** `session_meta.payload.id` (the thread id), or the id at the end of the file name. */
  session: string;
  cwd?: string;
  /** Non-empty lines read. */
  lines: number;
}

export class RolloutMissingError extends Error {
  constructor(readonly file: string) {
    super(`No Codex rollout at ${file}; check the path (Codex keeps them in $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl).`);
  }
}

/** The session id in a rollout's file name (`rollout-<time>-<uuid>.jsonl`). */
export function idFromRolloutName(file: string): string | null {
  return /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(path.basename(file))?.[1] ?? null;
}

export function readRollout(file: string): RolloutContents {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new RolloutMissingError(file);
  const entries: RolloutEntry[] = [];
  const badLines: number[] = [];
  let index = 0;
  let session: string | undefined;
  let cwd: string | undefined;
  forEachLine(file, (raw, offset) => {
    const end = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
    const text = raw.toString('utf8', 0, end);
    if (text.trim() === '') return;
    const e = parseRolloutLine(text, index, offset, raw.length, session);
    if (e) {
      entries.push(e);
      if (e.type === 'session_meta' && !session && e.sessionId) {
        session = e.sessionId;
        e.mentions = true;
        if (e.cwd) cwd = e.cwd;
      }
    } else badLines.push(index);
    index++;
  });
  const r: RolloutContents = {
    entries,
    badLines,
    session: session ?? idFromRolloutName(file) ?? path.basename(file, '.jsonl'),
    lines: index,
  };
  if (cwd) r.cwd = cwd;
  return r;
}

/** True when the file's first line is a Codex `session_meta` (reads at most its first 64 KB). */
export function isCodexRollout(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const head = buf.toString('utf8', 0, n);
    // The session_meta line carries the base instructions and can pass 64 KB: look at its start only.
    return (
      /^\s*\{[^\n]*"type"\s*:\s*"session_meta"/.test(head.slice(0, head.indexOf('\n') >= 0 ? head.indexOf('\n') : head.length)) &&
      /"payload"\s*:/.test(head)
    );
  } finally {
    fs.closeSync(fd);
  }
}
