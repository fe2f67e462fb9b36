// Forks a Qwen Code chat before a prompt: a new `<new id>.jsonl` beside the parent in its `chats/`
// folder (where `qwen --resume <new id>` looks: 0.24 opens `chats/<id>.jsonl`), holding the parent's
// active chain up to the cut, every record under the new session id. It follows the CLI's own
// `forkSession(…, { atRecordId })` (0.24, packages/core sessionService): a fork is a fresh session,
// so the records about the parent as a whole (its sources, parent link, title, turn results) stay
// behind, the kept records are relinked into one line (a dropped record must not leave a gap the
// loader would stop at) and each carries `forkedFrom: { sessionId, messageUuid }`. Proven against
// the real 0.24.4 by test/compat/qwen: the fork resumes, and the model gets only the kept turns.
// Written to a temporary name, re-read and checked the way a resume reads it, then linked into place
// exclusively (mode 0600): a refused or failed fork leaves nothing behind. The parent is only read.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceFile } from '../../core/storeFiles/fsx';
import { cutRefused, isCutRefused } from '../common/fork';
import type { TranscriptForker, TranscriptForkResult } from '../../recording/forkConversation';
import { activeChain, qwenPromptOf, type QwenRecord, readQwenRecords } from './chatFile';

/** Records about the parent session as a whole, which a fork does not inherit (as the CLI's own fork). */
const PARENT_ONLY = new Set(['session_sources_snapshot', 'parent_session', 'session_source', 'turn_result', 'custom_title']);

export interface QwenFork extends TranscriptForkResult {
  /** How many chain messages the fork keeps. */
  kept: number;
}

/** The prompt ids on the active chain, as a resume replays them. */
function chainPrompts(records: readonly QwenRecord[]): { id: string; text: string; time?: string }[] {
  return activeChain(records)
    .map(qwenPromptOf)
    .filter((p) => p !== null);
}

export function forkQwenChat(parentFile: string, beforeId: string, newId: string = randomUUID()): QwenFork {
  const parentTranscript = path.resolve(parentFile);
  const chain = activeChain(readQwenRecords(parentTranscript));
  const cut = chain.findIndex((f) => f[0]!.uuid === beforeId);
  const prompt = cut >= 0 ? qwenPromptOf(chain[cut]!) : null;
  if (!prompt)
    throw cutRefused(
      `${beforeId} is not a prompt of ${parentTranscript}; nothing was written — pick a prompt id from \`conversation show\`.`,
      'not-found',
    );
  const before = chain.slice(0, cut);
  const earlier = before.map(qwenPromptOf).filter((p) => p !== null);
  if (!earlier.length)
    throw cutRefused('Cannot fork before the first prompt: the fork would hold no conversation; nothing was written.', 'first-prompt');
  const parent = chain[0]![0]!.sessionId;
  const kept = before.filter((f) => !(f[0]!.type === 'system' && PARENT_ONLY.has(f[0]!.subtype ?? '')));
  let prev: string | null = null;
  const lines: string[] = [];
  for (const fragments of kept) {
    for (const r of fragments)
      lines.push(JSON.stringify({ ...r, sessionId: newId, parentUuid: prev, forkedFrom: { sessionId: r.sessionId, messageUuid: r.uuid } }));
    prev = fragments[0]!.uuid;
  }
  const dir = path.dirname(parentTranscript);
  const file = path.join(dir, `${newId}.jsonl`);
  // Not named <uuid>.jsonl: the CLI must never list a half-written fork.
  const tmp = path.join(dir, `.fork-${newId}.${process.pid}.tmp`);
  replaceFile(
    file,
    (into) => {
      fs.writeFileSync(into, lines.join('\n') + '\n', { flag: 'wx', mode: 0o600 });
      const written = readQwenRecords(into);
      const got = chainPrompts(written);
      const problems = [
        ...(written.some((r) => r.sessionId !== newId) ? ['a record does not carry the new session id'] : []),
        ...(got.length !== earlier.length || got.some((p, i) => p.id !== earlier[i]!.id)
          ? ['the kept prompts do not replay as in the parent']
          : []),
      ];
      if (problems.length)
        throw cutRefused(`The chat could not be cut cleanly before ${beforeId} (${problems.join('; ')}); nothing was written.`, 'unclean');
    },
    { tmp, exclusive: true },
  );
  const occurrence = earlier.filter((p) => p.text === prompt.text).length;
  const cwd = chain[cut]![0]!.cwd;
  return {
    session: newId,
    transcript: file,
    parent,
    parentTranscript,
    resume: qwenResumeCommand(newId),
    cut: { uuid: beforeId, text: prompt.text, occurrence },
    kept: kept.length,
    ...(cwd ? { cwd } : {}),
  };
}

/** The command that resumes a Qwen Code session (run in the session's project folder: chats are kept per project). */
export const qwenResumeCommand = (session: string): string => `qwen --resume ${session}`;

/** Qwen Code's chat forker, for recording/forkConversation.ts. */
export const qwenForker: TranscriptForker = {
  agent: 'qwen',
  fork: (transcript, before) => forkQwenChat(transcript, before),
  refused: isCutRefused,
};
