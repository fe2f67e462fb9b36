// Qwen Code chat files (0.24: `~/.qwen/projects/<project path, every non-alphanumeric as ->/chats/<session>.jsonl`,
// the hooks' `transcript_path`), read the way the CLI's own loader reads them (its bundled
// `validateTranscriptRecord` / `prepareTranscriptRecords`; findings in test/fixtures/agents/qwen/real-0.24.4/).
//
// The file is an append-only JSONL log of records `{ uuid, parentUuid, sessionId, timestamp, type, subtype?,
// cwd, version, message?: { role, parts: [Gemini parts] }, … }`, `type` one of user | assistant |
// tool_result | system. The conversation is a chain: from the last conversation record (artifact and
// managed-session records are not), follow `parentUuid` to the root. Several records may share a uuid
// (fragments of one message, in file order); all carry the same parent. A resume sends the chain's
// messages to the model, so a fork is the chain up to a cut, under a new session id.
import { readHead, readRegularText } from '../../core/storeFiles/fsx';
import type { LineFold } from '../../core/storeFiles/logTail';
import * as path from 'node:path';

export type QwenPart = {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name?: string; args?: unknown };
  functionResponse?: { id?: string; name?: string; response?: { output?: unknown; error?: unknown } };
  [k: string]: unknown;
};

export interface QwenRecord {
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  type: string;
  subtype?: string;
  timestamp?: string;
  cwd?: string;
  provenance?: string;
  message?: { role?: string; parts?: QwenPart[] };
  toolCallResult?: { callId?: string; status?: string; executionStatus?: string };
  [k: string]: unknown;
}

const RECORD_TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);
/** System records that are not part of the conversation chain (0.24's `isTranscriptConversationRecord`). */
const NOT_CONVERSATION = new Set([
  'session_artifact_event',
  'session_artifact_snapshot',
  'session_sources_snapshot',
  'managed_session_header_v1',
  'managed_session_event_v1',
  'managed_session_commit_v1',
]);
/** User records that are not the user typing a prompt (0.24's turn counting skips them). */
const NOT_PROMPT_SUBTYPES = new Set(['realtime_message', 'goal_runtime', 'notification', 'cron', 'mid_turn_user_message']);

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A record the CLI accepts (identity fields and a known type), else null: the CLI skips the others too. */
function validRecord(v: unknown): QwenRecord | null {
  if (!isObj(v)) return null;
  const ok =
    typeof v.uuid === 'string' &&
    v.uuid.length > 0 &&
    (typeof v.parentUuid === 'string' || v.parentUuid === null) &&
    typeof v.sessionId === 'string' &&
    v.sessionId.length > 0 &&
    typeof v.type === 'string' &&
    RECORD_TYPES.has(v.type);
  return ok ? (v as unknown as QwenRecord) : null;
}

function addRecord(out: QwenRecord[], line: string): void {
  if (!line.trim()) return;
  try {
    const r = validRecord(JSON.parse(line));
    if (r) out.push(r);
  } catch {
    /* the CLI skips a bad line too */
  }
}

export function readQwenRecords(file: string): QwenRecord[] {
  const text = readRegularText(file); // a FIFO given as a chat file is refused, never waited on
  const out: QwenRecord[] = [];
  for (const line of text.split('\n')) addRecord(out, line);
  return out;
}

/** The records one line at a time, so a chat that grows is parsed only where it grew. */
export const QWEN_RECORDS_FOLD: LineFold<QwenRecord[]> = {
  start: () => [],
  add: (out, raw) => addRecord(out, raw.toString('utf8')),
};

export const isConversationRecord = (r: QwenRecord): boolean => !(r.type === 'system' && r.subtype && NOT_CONVERSATION.has(r.subtype));

/**
 * The active chain, oldest first, each entry every fragment of that uuid in file order: from the
 * last conversation record up its `parentUuid`s (a cycle or a missing parent ends the walk, as in the CLI).
 */
export function activeChain(records: readonly QwenRecord[]): QwenRecord[][] {
  const fragments = new Map<string, QwenRecord[]>();
  let leaf: string | undefined;
  for (const r of records) {
    if (!isConversationRecord(r)) continue;
    const list = fragments.get(r.uuid);
    if (list) list.push(r);
    else fragments.set(r.uuid, [r]);
    leaf = r.uuid;
  }
  const chain: QwenRecord[][] = [];
  const seen = new Set<string>();
  for (let at = leaf; at && !seen.has(at);) {
    const list = fragments.get(at);
    if (!list) break;
    seen.add(at);
    chain.push(list);
    at = list[0]!.parentUuid ?? undefined;
  }
  return chain.reverse();
}

export const partsOf = (r: QwenRecord): QwenPart[] => (Array.isArray(r.message?.parts) ? r.message.parts.filter(isObj) : []);

/**
 * A real prompt: a `user` record the user typed (provenance `real_user` where 0.24 writes it; not a
 * notification, cron or mid-turn message), with text, not only function responses.
 */
export function qwenPromptOf(fragments: readonly QwenRecord[]): { id: string; text: string; time?: string } | null {
  const r = fragments[0]!;
  if (r.type !== 'user' || (r.subtype && NOT_PROMPT_SUBTYPES.has(r.subtype))) return null;
  if (r.provenance !== undefined && r.provenance !== 'real_user') return null;
  const parts = fragments.flatMap(partsOf);
  const text = parts
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => String(p.text))
    .join('\n')
    .trim();
  if (!text || text.startsWith('/')) return null;
  return { id: r.uuid, text, ...(r.timestamp ? { time: r.timestamp } : {}) };
}

/** Is `file` a Qwen Code chat? By content: a record of the head has Qwen's identity fields and Gemini-style `message.parts`. */
export function isQwenChat(file: string): boolean {
  const head = readHead(file, 16384);
  if (!head) return false;
  const lines = head.toString('utf8').split('\n');
  for (const line of lines.slice(0, lines.length > 1 ? -1 : 1)) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    const r = validRecord(v);
    if (!r) return false;
    if (r.message !== undefined) return isObj(r.message) && Array.isArray(r.message.parts);
  }
  return false;
}

/** The session's chat file where 0.24 keeps it (what the hooks' `transcript_path` names), whether it exists or not. */
export function qwenChatFile(home: string, projectDir: string, session: string): string {
  return path.join(home, '.qwen', 'projects', projectDir.replace(/[^A-Za-z0-9]/g, '-'), 'chats', `${session}.jsonl`);
}
