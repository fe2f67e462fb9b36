// Forking a conversation and recording its lineage: the one implementation behind
// `agent-rewind conversation fork` and the VS Code "Rewind conversation" actions. An agent's own
// transcript is forked by that agent's adapter, passed in by the caller (`TranscriptForker`), so
// recording knows no agent; our own session logs are forked here.
import * as fs from 'node:fs';
import { appendLineage, type ForkLineage } from '../core/conversation/lineage';
import { readSessionLog, sessionLogFile } from '../core/conversation/sessionLog';
import { forkSessionLog } from '../core/conversation/sessionLogFork';
import type { Store } from '../core/store';
import { AgentRewindError, isError } from '../core/errors';

export type ForkSource = { transcript: string } | { session: string };

/** What an agent's transcript fork reports: the new session and transcript, and where it was cut. */
export interface TranscriptForkResult {
  session: string;
  transcript: string;
  parent: string;
  parentTranscript: string;
  /** The command that resumes the fork. */
  resume: string;
  cut: { uuid: string; promptId?: string; text: string; occurrence: number };
  cwd?: string;
}

/** An agent adapter's transcript forker (Claude Code's: agents/claude/forkTranscript.ts `claudeForker`). */
export interface TranscriptForker {
  /** Recorded as the lineage's agent. */
  agent: string;
  /** Writes a fork of `transcript` cut before prompt `before`; throws when it cannot. */
  fork(transcript: string, before: string): TranscriptForkResult;
  /** The same without blocking, for a forker that runs the agent's own CLI (OpenCode's import); the extension prefers it. */
  forkAsync?(transcript: string, before: string): Promise<TranscriptForkResult>;
  /** Is this error thrown by `fork` a refused cut (nothing written)? */
  refused(e: unknown): boolean;
}

export interface ForkResult {
  session: string;
  transcript: string;
  parent: string;
  /** The command that resumes the fork (null for our own session logs: no agent resumes them). */
  resume: string | null;
  lineage: ForkLineage;
  /** False when no store was given: the fork exists but will not be re-grounded. */
  recorded: boolean;
}

function agentOf(storeDir: string, session: string): string {
  const start = readSessionLog(sessionLogFile(storeDir, session)).find((l) => l.t === 'start');
  return start && start.t === 'start' ? start.agent : 'unknown';
}

/** Forks `src` before prompt `before`; a transcript is forked by `forker`. */
export function forkConversation(store: Store | null, src: ForkSource, before: string, forker: TranscriptForker): ForkResult {
  let lineage: ForkLineage;
  let base: Omit<ForkResult, 'lineage' | 'recorded'>;
  try {
    if ('transcript' in src) {
      const f = forker.fork(src.transcript, before);
      base = { session: f.session, transcript: f.transcript, parent: f.parent, resume: f.resume };
      lineage = {
        t: 'fork',
        v: 1,
        time: Date.now(),
        agent: forker.agent,
        source: 'transcript',
        parentSession: f.parent,
        parentTranscript: f.parentTranscript,
        session: f.session,
        transcript: f.transcript,
        cutUuid: f.cut.uuid,
        cutText: f.cut.text,
        cutOccurrence: f.cut.occurrence,
        ...(f.cut.promptId ? { cutPromptId: f.cut.promptId } : {}),
        ...(f.cwd ? { cwd: f.cwd } : {}),
      };
    } else {
      if (!store) throw new Error('Forking a session log needs the store that holds it.');
      const f = forkSessionLog(store.dir, src.session, before);
      base = { session: f.session, transcript: f.transcript, parent: f.parent, resume: null };
      lineage = {
        t: 'fork',
        v: 1,
        time: Date.now(),
        agent: agentOf(store.dir, src.session),
        source: 'session-log',
        parentSession: f.parent,
        parentTranscript: f.parentTranscript,
        session: f.session,
        transcript: f.transcript,
        cutUuid: f.cut.id,
        cutCheckpoint: f.cut.checkpoint,
        cutText: f.cut.text,
        cutOccurrence: f.cut.occurrence,
        ...(f.cut.promptId ? { cutPromptId: f.cut.promptId } : {}),
        ...(f.cwd ? { cwd: f.cwd } : {}),
      };
    }
  } catch (e) {
    if (isError(e, 'session-cut-refused') || forker.refused(e))
      throw new AgentRewindError('fork-refused', { message: (e as Error).message });
    throw e;
  }
  if (!store) return { ...base, lineage, recorded: false };
  try {
    appendLineage(store.dir, lineage);
  } catch (e) {
    // A fork without its lineage could not be re-grounded: take it back.
    fs.rmSync(base.transcript, { force: true });
    throw new Error(
      `Could not record the fork in ${store.dir} (${(e as Error).message}); nothing was kept — check the store folder's permissions and fork again.`,
      { cause: e },
    );
  }
  return { ...base, lineage, recorded: true };
}

/**
 * `forkConversation` for a caller that must not block (the extension host): a forker with `forkAsync`
 * makes the fork first without blocking, then the one implementation above records it.
 */
export async function forkConversationAsync(
  store: Store | null,
  src: ForkSource,
  before: string,
  forker: TranscriptForker,
): Promise<ForkResult> {
  if (!('transcript' in src) || !forker.forkAsync) return forkConversation(store, src, before, forker);
  let made: TranscriptForkResult;
  try {
    made = await forker.forkAsync(src.transcript, before);
  } catch (e) {
    if (forker.refused(e)) throw new AgentRewindError('fork-refused', { message: (e as Error).message });
    throw e;
  }
  return forkConversation(store, src, before, { ...forker, fork: () => made });
}
