// One line of a Claude Code transcript, reduced to what the timeline and the forker need. The
// transcript is an internal, changing format: anything unexpected becomes an
// entry of an unknown type that is walked through or skipped, never an error.
import { trimInput } from '../../core/storeFiles/records';

/** What a `user` entry is. Only `prompt` is a turn the user typed (what `conversation show` lists). */
export type UserKind = 'prompt' | 'tool-result' | 'meta' | 'compact-summary' | 'command-output' | 'interrupt' | 'empty';

export interface ToolUseInfo {
  id: string;
  name: string;
  /** The input with long strings cut: enough to summarize and classify the call. */
  input: unknown;
}

export interface ToolResultInfo {
  toolUseId: string;
  isError: boolean;
  /** The start of the result text, for display. */
  preview: string;
}

export interface TranscriptEntry {
  /** 0-based index of the line in file order. */
  line: number;
  /** Byte range of the line in the file (without its newline), so a fork copies it unchanged. */
  offset: number;
  bytes: number;
  type: string;
  uuid?: string;
  parentUuid: string | null;
  sidechain: boolean;
  /** The line has a top-level `sessionId` (the fork rewrites it). */
  hasSessionId: boolean;
  sessionId?: string;
  /** Metadata written by a subagent (`agentId`), which belongs with the sidechain. */
  agentId?: string;
  timestamp?: string;
  cwd?: string;
  subtype?: string;
  user?: { kind: UserKind; text: string; promptId?: string; results: ToolResultInfo[] };
  assistant?: { messageId?: string; texts: string[]; toolUses: ToolUseInfo[] };
}

const MAX_TEXT = 20000;
const MAX_PREVIEW = 500;

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function blocksOf(content: unknown): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.map(obj).filter((b): b is Record<string, unknown> => b !== null);
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocksOf(content)
    .map((b) => (b.type === 'text' ? (str(b.text) ?? '') : `[${String(b.type)}]`))
    .join('\n');
}

function tag(text: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  return m ? m[1]!.trim() : undefined;
}

/**
 * Classifies a user message's text and gives the text to display. Claude Code wraps slash commands
 * and `!` shell input in tags: an invocation is a prompt the user typed (shown as `/name args` or
 * `! command`); the caveat it adds and the output of a local command are not turns of the user.
 */
export function classifyUserText(raw: string): { kind: UserKind; text: string } {
  const t = raw.trim();
  if (t === '') return { kind: 'empty', text: '' };
  if (t.startsWith('<local-command-caveat>')) return { kind: 'meta', text: t };
  if (/^<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>/.test(t)) return { kind: 'command-output', text: t };
  if (/^\[Request interrupted by user[^\]]*\]$/.test(t)) return { kind: 'interrupt', text: t };
  const name = t.startsWith('<command-') ? tag(t, 'command-name') : undefined;
  if (name !== undefined) {
    const args = tag(t, 'command-args') ?? '';
    const shown = name.startsWith('/') ? name : `/${name}`;
    return { kind: 'prompt', text: args ? `${shown} ${args}` : shown };
  }
  const bash = tag(t, 'bash-input');
  if (bash !== undefined && t.startsWith('<bash-input>')) return { kind: 'prompt', text: `! ${bash}` };
  return { kind: 'prompt', text: raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) + '…' : raw };
}

function userInfo(j: Record<string, unknown>, content: unknown): NonNullable<TranscriptEntry['user']> {
  const blocks = blocksOf(content);
  const results: ToolResultInfo[] = [];
  const texts: string[] = [];
  let images = 0;
  for (const b of blocks) {
    if (b.type === 'tool_result') {
      const id = str(b.tool_use_id);
      if (id) results.push({ toolUseId: id, isError: b.is_error === true, preview: resultText(b.content).slice(0, MAX_PREVIEW) });
    } else if (b.type === 'text') texts.push(str(b.text) ?? '');
    else if (b.type === 'image' || b.type === 'document') images++;
  }
  const promptId = str(j.promptId);
  const base = { results, ...(promptId ? { promptId } : {}) };
  if (j.isCompactSummary === true) return { ...base, kind: 'compact-summary', text: texts.join('\n') };
  if (j.isMeta === true) return { ...base, kind: 'meta', text: texts.join('\n') };
  const joined = texts.join('\n');
  if (results.length > 0 && joined.trim() === '' && images === 0) return { ...base, kind: 'tool-result', text: '' };
  if (joined.trim() === '' && images > 0) return { ...base, kind: 'prompt', text: images === 1 ? '[image]' : `[${images} images]` };
  const c = classifyUserText(joined);
  return { ...base, kind: c.kind, text: c.text };
}

function assistantInfo(message: Record<string, unknown>): NonNullable<TranscriptEntry['assistant']> {
  const texts: string[] = [];
  const toolUses: ToolUseInfo[] = [];
  for (const b of blocksOf(message.content)) {
    if (b.type === 'text') {
      const t = str(b.text) ?? '';
      texts.push(t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) + '…' : t);
    } else if (b.type === 'tool_use' || b.type === 'server_tool_use') {
      const id = str(b.id);
      const name = str(b.name);
      if (id && name) toolUses.push({ id, name, input: trimInput(b.input ?? {}) });
    }
  }
  const messageId = str(message.id);
  return { texts, toolUses, ...(messageId ? { messageId } : {}) };
}

/** Parses one line. Returns null for a line that is not a JSON object (torn or garbage). */
export function parseTranscriptLine(text: string, line: number, offset: number, bytes: number): TranscriptEntry | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const j = obj(v);
  if (!j) return null;
  const e: TranscriptEntry = {
    line,
    offset,
    bytes,
    type: str(j.type) ?? '(none)',
    parentUuid: str(j.parentUuid) ?? null,
    sidechain: j.isSidechain === true,
    hasSessionId: 'sessionId' in j,
  };
  const uuid = str(j.uuid);
  if (uuid) e.uuid = uuid;
  const sessionId = str(j.sessionId);
  if (sessionId) e.sessionId = sessionId;
  const agentId = str(j.agentId);
  if (agentId) e.agentId = agentId;
  const ts = str(j.timestamp);
  if (ts) e.timestamp = ts;
  const cwd = str(j.cwd);
  if (cwd) e.cwd = cwd;
  const subtype = str(j.subtype);
  if (subtype) e.subtype = subtype;
  const message = obj(j.message);
  if (e.type === 'user' && message) e.user = userInfo(j, message.content);
  if (e.type === 'assistant' && message) e.assistant = assistantInfo(message);
  return e;
}
