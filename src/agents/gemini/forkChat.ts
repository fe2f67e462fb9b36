// Forks a Gemini CLI chat before a prompt: a new `session-…-<id8>-fork.jsonl` in the parent's
// `chats/` folder (where `gemini --resume <new id>` finds it: 0.61 reads every `session-*.jsonl`
// there, there is no index), holding one metadata record with the new id and the parent's
// conversation as it replays up to the cut. The parent is only read. Proven against the real 0.61.0
// (test/compat/gemini), which is also why the fork is "repaired":
//   - each tool call keeps exactly one response (0.61 saves a result twice and sends both on resume,
//     google-gemini/gemini-cli#29365 — the real API refuses such a history);
//   - a kept prompt loses a leading `<hook_context>…</hook_context>` (0.61 drops a user message that
//     starts with it from every resumed history);
//   - the name is stamped a minute in the past and ends in `-fork` (a resume creates
//     `session-<now>-<id8>.jsonl` for the same id, and with session retention on, the next session's
//     start deletes every `…-<id8>.jsonl` file of a resumed session, #27368).
// Written to a temporary name, re-read and checked the way a resume reads it, then linked into place
// exclusively (mode 0600): a refused or failed fork leaves nothing behind.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceFile } from '../../core/storeFiles/fsx';
import { cutRefused, transcriptForker } from '../common/fork';
import { type ChatMessage, dropDuplicateResponses, partsOf, projectRootOf, promptOf, readChat } from './chatFile';

const HOOK_CONTEXT_PREFIX = /^<hook_context>[\s\S]*?<\/hook_context>\s*/;

export interface ChatFork {
  file: string;
  session: string;
  parent: string;
  parentTranscript: string;
  transcript: string;
  kept: number;
  dropped: string[];
  resume: string;
  cut: { uuid: string; text: string; occurrence: number; time?: string };
  cwd?: string;
}

/** Calls in `messages` without exactly one response (ids), as a resume would send them. */
export function unansweredCalls(messages: readonly ChatMessage[]): string[] {
  const bad: string[] = [];
  for (const m of messages) {
    if (m.type !== 'gemini') continue;
    for (const c of m.toolCalls ?? []) {
      const own = Array.isArray(c.result) ? c.result.filter((p) => p.functionResponse && (p.functionResponse.id ?? c.id) === c.id) : [];
      if (own.length !== 1) bad.push(c.id);
    }
  }
  return bad;
}

function stripHookContext(m: ChatMessage): ChatMessage {
  const parts = partsOf(m.content);
  const first = String(parts[0]?.text ?? '').trim();
  if (m.type !== 'user' || !promptOf(m) || !HOOK_CONTEXT_PREFIX.test(first)) return m;
  return { ...m, content: [{ ...parts[0], text: first.replace(HOOK_CONTEXT_PREFIX, '') }, ...parts.slice(1)] };
}

/**
 * Forks `parentFile` before the prompt `beforeId`. `repair: false` writes a plain cut (kept for the
 * compat tier's comparison: 0.61 resumes it, the real API would refuse its history).
 */
export function forkChat(
  parentFile: string,
  beforeId: string,
  newId: string = randomUUID(),
  opts: { repair?: boolean; now?: Date; name?: string } = {},
): ChatFork {
  const repair = opts.repair ?? true;
  const parentTranscript = path.resolve(parentFile);
  const parent = readChat(parentTranscript);
  const cut = parent.messages.findIndex((m) => m.id === beforeId);
  const prompt = cut >= 0 ? promptOf(parent.messages[cut]!) : null;
  if (!prompt)
    throw cutRefused(
      `${beforeId} is not a prompt of ${parentTranscript}; nothing was written — pick a prompt id from \`conversation show\`.`,
      'not-found',
    );
  const before = parent.messages.slice(0, cut);
  const earlier = before.map(promptOf).filter((p) => p !== null);
  if (!earlier.length)
    throw cutRefused('Cannot fork before the first prompt: the fork would hold no conversation; nothing was written.', 'first-prompt');
  let kept = before;
  let dropped: string[] = [];
  if (repair) {
    ({ messages: kept, dropped } = dropDuplicateResponses(kept));
    kept = kept.map(stripHookContext);
    const open = unansweredCalls(kept);
    if (open.length)
      throw cutRefused(
        `The chat cannot be cut cleanly before ${beforeId}: tool call(s) ${open.slice(0, 3).join(', ')} have no single result; nothing was written — pick another prompt.`,
        'unpaired',
      );
  }
  const at = opts.now ?? new Date();
  const now = at.toISOString();
  const meta = {
    sessionId: newId,
    projectHash: parent.meta.projectHash,
    startTime: now,
    lastUpdated: now,
    kind: parent.meta.kind ?? 'main',
  };
  const stamp = new Date(at.getTime() - 60000).toISOString().slice(0, 16).replace(/:/g, '-');
  const dir = path.dirname(parentTranscript);
  const file = path.join(dir, opts.name ?? `session-${stamp}-${newId.slice(0, 8)}-fork.jsonl`);
  // Not named session-*: the CLI must never list a half-written fork.
  const tmp = path.join(dir, `.fork-${newId}.${process.pid}.tmp`);
  const fill = (into: string) => {
    fs.writeFileSync(into, [meta, ...kept].map((r) => JSON.stringify(r)).join('\n') + '\n', { flag: 'wx', mode: 0o600 });
    const written = readChat(into);
    const got = written.messages.map(promptOf).filter((p) => p !== null);
    const problems = [
      ...(written.meta.sessionId !== newId ? ['the new file does not carry the new session id'] : []),
      ...(got.length !== earlier.length || got.some((p, i) => p.id !== earlier[i]!.id)
        ? ['the kept prompts do not replay as in the parent']
        : []),
      ...(repair ? unansweredCalls(written.messages).map((id) => `call ${id} has no single result`) : []),
    ];
    if (problems.length)
      throw cutRefused(`The chat could not be cut cleanly before ${beforeId} (${problems.join('; ')}); nothing was written.`, 'unclean');
  };
  replaceFile(file, fill, { tmp, exclusive: true }); // exclusive: never over an existing file
  const occurrence = earlier.filter((p) => p.text === prompt.text).length;
  const result: ChatFork = {
    file,
    transcript: file,
    session: newId,
    parent: String(parent.meta.sessionId ?? ''),
    parentTranscript,
    kept: kept.length,
    dropped,
    resume: geminiResume(newId),
    cut: { uuid: beforeId, text: prompt.text, occurrence, ...(prompt.time ? { time: prompt.time } : {}) },
  };
  const cwd = projectRootOf(parentTranscript);
  if (cwd) result.cwd = cwd;
  return result;
}

/** Gemini CLI's chat forker, for recording/forkConversation.ts. */
/** The command that resumes Gemini CLI session `session` (a fork's). */
export const geminiResume = (session: string): string => `gemini --resume ${session}`;

export const geminiForker = transcriptForker('gemini', (transcript, before) => forkChat(transcript, before));
