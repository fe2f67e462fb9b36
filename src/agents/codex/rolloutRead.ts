// Reads a Codex rollout line by line (rolloutLine.ts keeps a small projection of each) and tells a
// rollout from another agent's transcript by its content: its first line is a `session_meta`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentRewindError } from '../../core/errors';
import { readHead } from '../../core/storeFiles/fsx';
import type { LineFold } from '../../core/storeFiles/logTail';
import { forEachLine } from '../common/lines';
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

/** The session id in a rollout's file name (`rollout-<time>-<uuid>.jsonl`). */
export function idFromRolloutName(file: string): string | null {
  return /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(path.basename(file))?.[1] ?? null;
}

/** A rollout's lines as read so far: also the state a follower (core/storeFiles/logTail.ts IncrementalLines) keeps between reads. */
export interface RolloutState {
  entries: RolloutEntry[];
  badLines: number[];
  /** Non-empty lines folded. */
  lines: number;
  session?: string;
  cwd?: string;
}

/** One line at a time, so a rollout that grows is parsed only where it grew. */
export const ROLLOUT_FOLD: LineFold<RolloutState> = {
  start: () => ({ entries: [], badLines: [], lines: 0 }),
  add(s, raw, offset) {
    const end = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
    const text = raw.toString('utf8', 0, end);
    if (text.trim() === '') return;
    const e = parseRolloutLine(text, s.lines, offset, raw.length, s.session);
    if (e) {
      s.entries.push(e);
      if (e.type === 'session_meta' && !s.session && e.sessionId) {
        s.session = e.sessionId;
        e.mentions = true;
        if (e.cwd) s.cwd = e.cwd;
      }
    } else s.badLines.push(s.lines);
    s.lines++;
  },
};

/** What a fold gathered, with the session named by the file when no `session_meta` did. */
export function rolloutContents(file: string, s: RolloutState): RolloutContents {
  const r: RolloutContents = {
    entries: s.entries,
    badLines: s.badLines,
    session: s.session ?? idFromRolloutName(file) ?? path.basename(file, '.jsonl'),
    lines: s.lines,
  };
  if (s.cwd) r.cwd = s.cwd;
  return r;
}

export function readRollout(file: string): RolloutContents {
  if (!fs.existsSync(file)) throw new AgentRewindError('rollout-missing', { file }); // not a regular file: forEachLine says so
  const s = ROLLOUT_FOLD.start();
  forEachLine(file, (raw, offset) => ROLLOUT_FOLD.add(s, raw, offset));
  return rolloutContents(file, s);
}

/** True when the file's first line is a Codex `session_meta` (reads at most its first 64 KB). */
export function isCodexRollout(file: string): boolean {
  const head = readHead(file, 64 * 1024)?.toString('utf8');
  if (head === undefined) return false;
  // The session_meta line carries the base instructions and can pass 64 KB: look at its start only.
  return (
    /^\s*\{[^\n]*"type"\s*:\s*"session_meta"/.test(head.slice(0, head.indexOf('\n') >= 0 ? head.indexOf('\n') : head.length)) &&
    /"payload"\s*:/.test(head)
  );
}
