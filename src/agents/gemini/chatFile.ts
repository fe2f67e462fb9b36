// Gemini CLI chat files (0.61: `~/.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-mm>-<id8>.jsonl`),
// read the way the CLI's own loader reads them (findings: test/fixtures/agents/gemini/real-0.61.0/).
//
// The file is an append-only JSONL log of records:
//   - a metadata record `{ sessionId, projectHash, startTime, lastUpdated, kind }` (first line);
//   - message records `{ id, timestamp, type: "user"|"gemini"|"info"|"error"|"warning", content, … }`;
//     a later record with the same id REPLACES the earlier one in place (a gemini message is written
//     again when its tool calls and their results arrive);
//   - `{ "$set": { … } }` metadata updates (`lastUpdated`, `sessionId` on resume, `summary`, …);
//     a `$set` carrying `messages` is a checkpoint: the message list starts over from it;
//   - `{ "$rewindTo": "<message id>" }`: drop that message and everything after it.
import { readHead, readRegularText } from '../../core/storeFiles/fsx';
import type { LineFold } from '../../core/storeFiles/logTail';
import * as path from 'node:path';

export type Part = {
  text?: string;
  functionCall?: { id?: string; name: string; args?: unknown };
  functionResponse?: { id?: string; name: string; response?: unknown };
  [k: string]: unknown;
};

export interface ToolCallRecord {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result?: Part[] | string | null;
  status?: string;
  [k: string]: unknown;
}

export interface ChatMessage {
  id: string;
  timestamp?: string;
  type: string;
  content?: string | Part | Part[];
  displayContent?: unknown;
  toolCalls?: ToolCallRecord[];
  [k: string]: unknown;
}

export interface ChatMeta {
  sessionId?: string;
  projectHash?: string;
  startTime?: string;
  lastUpdated?: string;
  kind?: string;
  [k: string]: unknown;
}

export interface Chat {
  meta: ChatMeta;
  messages: ChatMessage[];
  /** Record kinds seen, for the README: `metadata`, `message:<type>`, `$set:<key>`, `$rewindTo`, `unknown`. */
  recordKinds: Record<string, number>;
}

function addRecord(out: Record<string, unknown>[], line: string): void {
  if (!line.trim()) return;
  try {
    out.push(JSON.parse(line));
  } catch {
    /* the CLI skips a bad line too */
  }
}

export function readRecords(file: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const text = readRegularText(file); // a FIFO given as a chat file is refused, never waited on
  for (const line of text.split('\n')) addRecord(out, line);
  return out;
}

/** The records one line at a time, so a chat that grows is parsed only where it grew (core/storeFiles/logTail.ts IncrementalLines). */
export const RECORDS_FOLD: LineFold<Record<string, unknown>[]> = {
  start: () => [],
  add: (out, raw) => addRecord(out, raw.toString('utf8')),
};

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The conversation a file holds, replayed like the CLI's loadConversationRecord. */
export function replayChat(records: Record<string, unknown>[]): Chat {
  let meta: ChatMeta = {};
  let messages = new Map<string, ChatMessage>();
  const recordKinds: Record<string, number> = {};
  const count = (k: string) => (recordKinds[k] = (recordKinds[k] ?? 0) + 1);
  for (const r of records) {
    if (typeof r.$rewindTo === 'string') {
      count('$rewindTo');
      const ids = [...messages.keys()];
      const at = ids.indexOf(r.$rewindTo);
      if (at < 0) messages.clear();
      else for (const id of ids.slice(at)) messages.delete(id);
    } else if (typeof r.id === 'string') {
      count(`message:${String(r.type)}`);
      messages.set(r.id, r as unknown as ChatMessage);
    } else if (isObj(r.$set)) {
      for (const k of Object.keys(r.$set)) count(`$set:${k}`);
      const { messages: list, ...rest } = r.$set as { messages?: unknown };
      if (Array.isArray(list)) {
        messages = new Map();
        for (const m of list) if (isObj(m) && typeof m.id === 'string') messages.set(m.id, m as unknown as ChatMessage);
      }
      meta = { ...meta, ...rest };
    } else if (typeof r.sessionId === 'string' && typeof r.projectHash === 'string') {
      count('metadata');
      meta = { ...meta, ...r };
    } else count('unknown');
  }
  return { meta, messages: [...messages.values()], recordKinds };
}

export function readChat(file: string): Chat {
  return replayChat(readRecords(file));
}

export function partsOf(content: ChatMessage['content']): Part[] {
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? { text: p } : p));
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  return content ? [content] : [];
}

const HOOK_CONTEXT_PREFIX = /^<hook_context>[\s\S]*?<\/hook_context>\s*/;

/**
 * A real prompt: a `user` message with text, not the CLI's `<session_context>` preamble, not a
 * slash command, not made only of function responses. A prompt may start with the SessionStart
 * hook's `<hook_context>…</hook_context>` (headless mode prepends it): `text` drops that prefix.
 */
export function promptOf(m: ChatMessage): { id: string; text: string; time?: string } | null {
  if (m.type !== 'user') return null;
  const parts = partsOf(m.content);
  const first = parts.find((p) => typeof p.text === 'string');
  if (!first || parts.every((p) => p.functionResponse)) return null;
  const raw = String(first.text).trim();
  if (raw.startsWith('<session_context>') || raw.startsWith('/') || raw.startsWith('?')) return null;
  const text = raw.replace(HOOK_CONTEXT_PREFIX, '').trim();
  return text ? { id: m.id, text, time: m.timestamp } : null;
}

export function prompts(chat: Chat): { id: string; text: string; time?: string }[] {
  return chat.messages.map(promptOf).filter((p): p is NonNullable<typeof p> => !!p);
}

/**
 * The messages without the copies 0.60/0.61 replay twice on resume (google-gemini/gemini-cli
 * #29365). A tool result is recorded in the gemini message's `toolCalls[].result` AND as a `user`
 * message of functionResponse parts; after a resume the CLI rewrites the list (a `$set.messages`
 * checkpoint) with gemini messages whose `content` holds the functionCall parts (with or without
 * `toolCalls`), a regenerated `<id>_response` user message, and, in a parallel batch, every
 * `toolCalls[i].result` holding the responses of the whole batch. Kept: the first response to each
 * call (its own `toolCalls[i].result`, else the first user message answering it).
 */
export function dropDuplicateResponses(messages: ChatMessage[]): { messages: ChatMessage[]; dropped: string[] } {
  const answered = new Set<string>();
  const out: ChatMessage[] = [];
  const dropped: string[] = [];
  for (const m of messages) {
    if (m.type === 'gemini') {
      answered.clear();
      if (!m.toolCalls?.length) {
        out.push(m);
        continue;
      }
      const toolCalls = m.toolCalls.map((c) => {
        if (!Array.isArray(c.result)) return c;
        const own = c.result.filter((p) => !p.functionResponse || p.functionResponse.id === c.id);
        // Responses without ids (older files): leave them as they are.
        const result = own.some((p) => p.functionResponse) ? own : c.result;
        if (result.some((p) => p.functionResponse?.id === c.id)) answered.add(c.id);
        return result === c.result ? c : { ...c, result };
      });
      out.push({ ...m, toolCalls });
      continue;
    }
    const parts = partsOf(m.content);
    if (m.type === 'user' && parts.length && parts.every((p) => p.functionResponse?.id)) {
      const fresh = parts.filter((p) => !answered.has(p.functionResponse!.id!));
      for (const p of fresh) answered.add(p.functionResponse!.id!);
      if (!fresh.length) {
        dropped.push(m.id);
        continue;
      }
      if (fresh.length < parts.length) {
        out.push({ ...m, content: fresh });
        continue;
      }
    }
    out.push(m);
  }
  return { messages: out, dropped };
}

/**
 * Record kinds of a chat file the reader knows (`Chat.recordKinds` keys), as 0.61 writes them. The
 * compat tier fails on any other kind: a new record type could change what the conversation is.
 */
export const KNOWN_RECORD_KINDS = new Set([
  'metadata',
  'message:user',
  'message:gemini',
  'message:info',
  'message:error',
  'message:warning',
  '$set:lastUpdated',
  '$set:sessionId',
  '$set:summary',
  // Written with `summary` by the interactive UI's session summary (a workflow digest for its session list,
  // never replayed to the model); a fork starts with fresh metadata, so none of the parent's comes along.
  '$set:memoryScratchpad',
  '$set:messages',
  '$set:startTime',
  '$set:projectHash',
  '$set:kind',
  '$rewindTo',
]);

/** Fields of a message record the reader knows; others are reported (not failed) by the compat tier. */
export const KNOWN_MESSAGE_FIELDS = new Set([
  'id',
  'timestamp',
  'type',
  'content',
  'displayContent',
  'toolCalls',
  'thoughts',
  'tokens',
  'model',
]);

/** Is `file` a Gemini CLI chat? By content: its first record is the metadata record (`sessionId` + `projectHash`). */
export function isGeminiChat(file: string): boolean {
  const head = readHead(file, 4096);
  if (!head) return false;
  try {
    const r = JSON.parse(head.toString('utf8').split('\n')[0]!) as unknown;
    return isObj(r) && typeof r.sessionId === 'string' && typeof r.projectHash === 'string' && !('type' in r) && !('uuid' in r);
  } catch {
    return false;
  }
}

/**
 * The project folder a chat belongs to: 0.61 writes it into `~/.gemini/tmp/<slug>/.project_root`
 * (the chat is in `<slug>/chats/`). Undefined when that file is missing (older layouts).
 */
export function projectRootOf(chatFile: string): string | undefined {
  try {
    const root = readRegularText(path.join(path.dirname(path.dirname(chatFile)), '.project_root')).trim();
    return root || undefined;
  } catch {
    return undefined;
  }
}
