// The one thing a hook prints: re-grounding `additionalContext`.
//   - SessionStart (resume) of a forked session our lineage knows: what the fork changed — once per
//     forked session.
//   - SessionStart (resume, compact) and UserPromptSubmit of any session: after a files-only rewind
//     that reverted files the conversation had changed, which files and to what — once per rewind
//     per session (the first of those events after the rewind says it).
// It runs inside dist/hook.js on every prompt, so the common case is cheap: the tail of files.jsonl
// is read backwards only as far as the session's previous turn (its last prompt or session start),
// looking for a `rewind` checkpoint in between. Only when there is one are lineage.jsonl and the
// whole of files.jsonl read.
//
// `prepareRegrounding` runs BEFORE the event is recorded (so the event's own checkpoint does not end
// the window); `deliverRegrounding` after it: it records the delivery, then the hook prints.
import * as fs from 'node:fs';
import { parseLine } from '../storeFiles/fileLog';
import type { Store } from '../store';
import { conversationRanges, filesRewoundFacts } from './filesRewound';
import { appendLineage, deliveredRewinds, forkOf, type LineageRecord, readLineage, type RegroundedLineage, wasRegrounded } from './lineage';
import { regroundFacts } from './regroundFacts';
import { filesRewoundText, regroundText } from './regroundText';

/** SessionStart sources that open an existing conversation (`claude --resume <fork id>` sends `resume`). */
const RESUMING = new Set(['resume', 'fork']);
/**
 * SessionStart sources after which a files-only rewind is told: a resumed conversation, and one just
 * compacted (its summary was written from the stale tool results). `startup` and `clear` begin an
 * empty conversation: there is nothing stale to correct.
 */
const FILES_AT_START = new Set(['resume', 'compact']);

export interface RegroundEvent {
  type: string;
  session: string;
  source?: string;
  /** Tell nothing at SessionStart; the next prompt says it all (fork and files-only rewind alike). */
  contextAtPromptOnly?: boolean;
  /** The agent's own name of the prompt event, for the output (default `UserPromptSubmit`). */
  hookEvent?: string;
}

export interface Regrounding {
  hookEventName: 'SessionStart' | 'UserPromptSubmit';
  /** The event name printed, when the agent calls it differently (Gemini's `BeforeAgent`). */
  outputEventName?: string;
  additionalContext: string;
  record: RegroundedLineage;
}

const CHUNK = 64 * 1024;

export interface TailWindow {
  /** The session's previous turn checkpoint (prompt or session start), when the log has one. */
  previousTurn?: string;
  /** `rewind` checkpoints after it (newest first). */
  rewinds: string[];
}

/**
 * Reads files.jsonl from the end back to the session's previous turn checkpoint, collecting the
 * rewind checkpoints on the way. Only lines that mention a checkpoint are parsed.
 */
export function tailWindow(file: string, session: string, opts: { promptsOnly?: boolean } = {}): TailWindow {
  const out: TailWindow = { rewinds: [] };
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return out;
  }
  try {
    let pos = fs.fstatSync(fd).size;
    let carry: Buffer = Buffer.alloc(0); // the (partial) first line of the region read so far
    while (pos > 0) {
      const n = Math.min(CHUNK, pos);
      pos -= n;
      const chunk = Buffer.allocUnsafe(n);
      fs.readSync(fd, chunk, 0, n, pos);
      const buf = carry.length ? Buffer.concat([chunk, carry]) : chunk;
      let end = buf.length; // lines are taken from the end: [i + 1, end)
      while (end >= 0) {
        const i = end > 0 ? buf.lastIndexOf(0x0a, end - 1) : -1;
        if (i < 0 && pos > 0) break; // the start of this line is in the part not read yet
        const line = buf.toString('utf8', i + 1, end);
        end = i;
        if (!line.includes('"checkpoint"')) continue;
        const r = parseLine(line);
        if (typeof r === 'string' || r.t !== 'checkpoint') continue;
        if (r.kind === 'rewind') out.rewinds.push(r.id);
        else if (r.session === session && (r.kind === 'prompt' || (r.kind === 'session-start' && !opts.promptsOnly))) {
          out.previousTurn = r.id;
          return out;
        }
      }
      carry = buf.subarray(0, Math.max(end, 0));
    }
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

function forkRegrounding(store: Store, e: RegroundEvent, lineage: readonly LineageRecord[]): Regrounding | null {
  const fork = forkOf(lineage, e.session);
  if (!fork || wasRegrounded(lineage, e.session)) return null;
  const facts = regroundFacts(store.read().records, fork, lineage);
  return {
    hookEventName: 'SessionStart',
    additionalContext: regroundText(facts, fork),
    record: { t: 'regrounded', session: e.session, time: Date.now() },
  };
}

function filesRegrounding(
  store: Store,
  e: RegroundEvent,
  hookEventName: Regrounding['hookEventName'],
  lineage?: readonly LineageRecord[],
): Regrounding | null {
  // Told at prompts only: a rewind before this run's SessionStart is still news at its first prompt.
  const tail = tailWindow(store.logFile, e.session, { promptsOnly: !!e.contextAtPromptOnly });
  if (tail.rewinds.length === 0) return null; // the common case: no rewind since the previous turn
  const lin = lineage ?? readLineage(store.dir);
  const skip = deliveredRewinds(lin, e.session);
  if (tail.rewinds.every((id) => skip.has(id))) return null;
  const { records } = store.read();
  const prev = tail.previousTurn ? records.find((r) => r.t === 'checkpoint' && r.id === tail.previousTurn) : undefined;
  const facts = filesRewoundFacts(records, conversationRanges(records, e.session, lin), { after: prev ? prev.seq : -1, skip });
  if (facts.files.length === 0) return null;
  return {
    hookEventName,
    additionalContext: filesRewoundText(facts),
    record: { t: 'regrounded', session: e.session, time: Date.now(), rewinds: facts.considered, event: hookEventName },
  };
}

/** Before the event is recorded: what this event's hook output should say, or null (the usual answer). */
export function prepareRegrounding(store: Store, e: RegroundEvent): Regrounding | null {
  const g = prepare(store, e);
  if (g && e.type === 'prompt' && e.hookEvent) g.outputEventName = e.hookEvent;
  return g;
}

function prepare(store: Store, e: RegroundEvent): Regrounding | null {
  if (e.type === 'prompt' && e.contextAtPromptOnly) {
    // The first prompt of a resumed fork says what the fork changed (once), else any files-only rewind.
    const lineage = readLineage(store.dir);
    const forked = forkRegrounding(store, e, lineage);
    if (forked) return { ...forked, hookEventName: 'UserPromptSubmit' };
    return filesRegrounding(store, e, 'UserPromptSubmit', lineage);
  }
  if (e.type === 'prompt') return filesRegrounding(store, e, 'UserPromptSubmit');
  if (e.type !== 'session_start' || !e.source || e.contextAtPromptOnly) return null;
  let lineage: LineageRecord[] | undefined;
  if (RESUMING.has(e.source)) {
    lineage = readLineage(store.dir);
    const forked = forkRegrounding(store, e, lineage);
    if (forked) return forked;
  }
  return FILES_AT_START.has(e.source) ? filesRegrounding(store, e, 'SessionStart', lineage) : null;
}

/** Records the delivery (before anything is printed: a second run of the event must stay silent), returns the hook's stdout. */
export function deliverRegrounding(store: Store, g: Regrounding): string {
  appendLineage(store.dir, g.record);
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: g.outputEventName ?? g.hookEventName, additionalContext: g.additionalContext },
  });
}

/** Both steps at once, for callers that record the event themselves afterwards (tests, tools). */
export function regroundingOutput(store: Store, e: RegroundEvent): string | null {
  const g = prepareRegrounding(store, e);
  return g ? deliverRegrounding(store, g) : null;
}
