// `<store>/lineage.jsonl`: where every conversation fork came from, append-only. A `fork` line is
// written once the fork exists; a `regrounded` line once its resumed agent has been told what
// changed (so that is said once per forked session), and one with `rewinds` each time a session is
// told which files a files-only rewind reverted (once per rewind per session). Times are epoch
// milliseconds, like files.jsonl.
import * as path from 'node:path';
import { appendJsonLines, jsonObjectLine, readJsonLines } from '../storeFiles/jsonLines';
import { IncrementalLines } from '../storeFiles/logTail';
import { STORE_FILE } from '../storeFiles/names';

export const LINEAGE_FORMAT = 1;

export interface ForkLineage {
  t: 'fork';
  v: number;
  time: number;
  agent: string;
  /** What was forked: a Claude Code transcript, or our own session log. */
  source: 'transcript' | 'session-log';
  parentSession: string;
  /** The parent's transcript or session log. */
  parentTranscript: string;
  session: string;
  transcript: string;
  /** The entry the fork was cut before (transcript uuid, or our prompt id in a session log). */
  cutUuid: string;
  /** Claude Code's prompt id of the cut prompt: matches a `prompt` checkpoint's `promptId`. */
  cutPromptId?: string;
  /** For a session-log fork: the prompt checkpoint itself. */
  cutCheckpoint?: string;
  cutText: string;
  /** How many earlier prompts on the kept chain have the same text (to tell repeated prompts apart). */
  cutOccurrence: number;
  cwd?: string;
}

export interface RegroundedLineage {
  t: 'regrounded';
  session: string;
  time: number;
  /**
   * Files-only re-grounding: the `rewind` checkpoints the session was told about (once per rewind
   * per session). Absent on the line that marks a fork's re-grounding at its first start.
   */
  rewinds?: string[];
  /** The hook event whose output carried it (SessionStart, UserPromptSubmit). */
  event?: string;
}

export type LineageRecord = ForkLineage | RegroundedLineage;

export function lineageFile(storeDir: string): string {
  return path.join(storeDir, STORE_FILE.lineage);
}

export function appendLineage(storeDir: string, r: LineageRecord): void {
  appendJsonLines(lineageFile(storeDir), [r], { mkdir: true });
}

/** Lineage lines; older versions are read as they are (fields only ever get added). */
export function readLineage(storeDir: string): LineageRecord[] {
  const out: LineageRecord[] = [];
  for (const r of readJsonLines(lineageFile(storeDir))) addLineage(out, r);
  return out;
}

function addLineage(out: LineageRecord[], r: Record<string, unknown>): void {
  if (r.t === 'fork' && typeof r.session === 'string' && typeof r.parentSession === 'string') {
    out.push({ v: 1, cutText: '', cutOccurrence: 0, cutUuid: '', agent: 'claude', ...r } as ForkLineage);
  } else if (r.t === 'regrounded' && typeof r.session === 'string') out.push(r as unknown as RegroundedLineage);
}

/** lineage.jsonl followed as it grows (the extension): each read parses only the lines appended since the last. */
export class LineageFollower {
  private readonly lines: IncrementalLines<LineageRecord[]>;

  constructor(storeDir: string) {
    this.lines = new IncrementalLines(lineageFile(storeDir), {
      start: () => [],
      add(out, line) {
        const r = jsonObjectLine(line.toString('utf8'));
        if (r) addLineage(out, r);
      },
    });
  }

  get lastRead(): 'full' | 'tail' {
    return this.lines.lastRead;
  }

  /** Every lineage record so far (the same array, grown in place, until the file is rewritten). */
  read(): readonly LineageRecord[] {
    return this.lines.read();
  }
}

/** The fork that created `session`, if our lineage knows it (the latest line wins). */
export function forkOf(records: readonly LineageRecord[], session: string): ForkLineage | undefined {
  let found: ForkLineage | undefined;
  for (const r of records) if (r.t === 'fork' && r.session === session) found = r;
  return found;
}

/** True once a forked session has been told what its fork changed (files-only deliveries do not count). */
export function wasRegrounded(records: readonly LineageRecord[], session: string): boolean {
  return records.some((r) => r.t === 'regrounded' && r.session === session && !Array.isArray(r.rewinds));
}

/** The rewind checkpoints `session` has already been told about. */
export function deliveredRewinds(records: readonly LineageRecord[], session: string): Set<string> {
  const out = new Set<string>();
  for (const r of records)
    if (r.t === 'regrounded' && r.session === session && Array.isArray(r.rewinds)) for (const id of r.rewinds) out.add(String(id));
  return out;
}

/** The parent sessions of `session`, nearest first (a fork of a fork has two). */
export function ancestorsOf(records: readonly LineageRecord[], session: string): string[] {
  const out: string[] = [];
  let cur = forkOf(records, session);
  while (cur && !out.includes(cur.parentSession) && cur.parentSession !== session) {
    out.push(cur.parentSession);
    cur = forkOf(records, cur.parentSession);
  }
  return out;
}
