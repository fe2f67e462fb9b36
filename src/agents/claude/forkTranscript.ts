// Writes a fork of a Claude Code transcript: a new `<new id>.jsonl` beside the parent (so
// `claude --resume <new id>` finds it in the same project folder), cut before a real prompt. Kept
// lines are copied byte for byte except for `sessionId` (and the parent of a line whose parent was
// a dropped `progress` line). The parent is only read. The new file is written under a temporary
// name, re-read and checked like a resume would read it, and only then linked into place with an
// exclusive create, mode 0600 — a refused or failed fork leaves nothing behind.
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { replaceFile } from '../../core/storeFiles/fsx';
import { checkFork } from './forkCheck';
import { planFork } from './forkPlan';
import { sessionOf, TranscriptGraph } from './transcriptChain';
import type { TranscriptEntry } from './transcriptLine';
import { readTranscript } from './transcriptRead';
import { cutRefused, transcriptForker } from '../common/fork';
import { copyLines } from '../common/lines';

export interface TranscriptFork {
  session: string;
  transcript: string;
  parent: string;
  parentTranscript: string;
  resume: string;
  cut: { uuid: string; promptId?: string; text: string; occurrence: number; time?: string };
  cwd?: string;
  /** Lines copied, of the parent's total. */
  keptLines: number;
  parentLines: number;
}

function rewrite(raw: Buffer, e: TranscriptEntry, session: string, reparent: Map<number, string | null>): Buffer {
  const newParent = reparent.get(e.line);
  if (!e.hasSessionId && newParent === undefined) return raw;
  const j = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  if (e.hasSessionId) j.sessionId = session;
  if (newParent !== undefined) j.parentUuid = newParent;
  return Buffer.from(JSON.stringify(j), 'utf8');
}

/** The command that resumes Claude Code session `session` (a fork's). */
export const claudeResume = (session: string): string => `claude --resume ${session}`;

export function forkTranscript(file: string, cutUuid: string, opts: { newId?: string } = {}): TranscriptFork {
  const parentTranscript = path.resolve(file);
  const { entries, lines } = readTranscript(parentTranscript);
  const planned = planFork(entries, cutUuid);
  if (!planned.ok) throw cutRefused(planned.refusal.message, planned.refusal.reason);
  const plan = planned.plan;
  const parent = sessionOf(entries, new TranscriptGraph(entries).leaf(), path.basename(parentTranscript).replace(/\.jsonl$/, ''));
  const session = opts.newId ?? randomUUID();
  const dir = path.dirname(parentTranscript);
  const dest = path.join(dir, `${session}.jsonl`);
  // Not named *.jsonl: Claude Code must never list a half-written fork as a session.
  const tmp = path.join(dir, `.${session}.${process.pid}.fork-tmp`);

  const fill = (into: string) => {
    copyLines(parentTranscript, into, plan.keep, (raw, e) => rewrite(raw, e, session, plan.reparent));
    const written = readTranscript(into);
    const problems = checkFork(written.entries, written.badLines.length, { session, leaf: plan.leaf, prompts: plan.prompts });
    if (problems.length) {
      throw cutRefused(
        `The transcript could not be cut cleanly before ${cutUuid} (${problems.slice(0, 3).join('; ')}); nothing was written — pick another prompt.`,
        'unclean',
      );
    }
  };
  replaceFile(dest, fill, { tmp, exclusive: true }); // exclusive: fails if <new id>.jsonl exists
  const cut: TranscriptFork['cut'] = { uuid: cutUuid, text: plan.cut.user!.text, occurrence: plan.occurrence };
  if (plan.cut.user!.promptId) cut.promptId = plan.cut.user!.promptId;
  if (plan.cut.timestamp) cut.time = plan.cut.timestamp;
  const result: TranscriptFork = {
    session,
    transcript: dest,
    parent,
    parentTranscript,
    resume: claudeResume(session),
    cut,
    keptLines: plan.keep.length,
    parentLines: lines,
  };
  const cwd = plan.cut.cwd ?? entries.find((e) => e.cwd)?.cwd;
  if (cwd) result.cwd = cwd;
  return result;
}

/** Claude Code's transcript forker, for recording/forkConversation.ts. */
export const claudeForker = transcriptForker('claude', (transcript, before) => forkTranscript(transcript, before));
