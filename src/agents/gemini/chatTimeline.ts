// A Gemini CLI chat as the Conversation view and `conversation show` see it: the real prompts in
// order (id = the user message's id, what a fork is cut before), each with the model's text replies
// and the tool calls of its turn (classified like recorded calls) and their results. The chat is
// replayed first (chatFile.ts), so rewritten and rewound messages count as the CLI counts them.
import * as path from 'node:path';
import type { EffectOverride } from '../../core/storeFiles/config';
import { classifyCall } from '../../core/effects/classifyCall';
import { oneLine } from '../../shared/text';
import { isoFromTimestamp } from '../../shared/time';
import { FoldedTimeline, type TimelinePrompt, type TimelineTool, type TranscriptTimeline } from '../common/timeline';
import { type Chat, partsOf, projectRootOf, promptOf, readRecords, RECORDS_FOLD, replayChat } from './chatFile';
import { geminiToolKind } from './toolKind';

function resultPreview(result: unknown): string {
  if (typeof result === 'string') return oneLine(result, 200);
  if (!Array.isArray(result)) return '';
  for (const p of result as { functionResponse?: { response?: { output?: unknown; error?: unknown } } }[]) {
    const r = p.functionResponse?.response;
    if (r) return oneLine(String(r.output ?? r.error ?? JSON.stringify(r)), 200);
  }
  return '';
}

export function chatPrompts(chat: Chat, opts: { cwd?: string; overrides?: readonly EffectOverride[] } = {}): TimelinePrompt[] {
  const prompts: TimelinePrompt[] = [];
  const seen = new Set<string>();
  let cur: TimelinePrompt | null = null;
  for (const m of chat.messages) {
    const p = promptOf(m);
    if (p) {
      cur = { uuid: p.id, text: p.text, time: isoFromTimestamp(p.time), replies: [], tools: [] };
      if (opts.cwd) cur.cwd = opts.cwd;
      prompts.push(cur);
      continue;
    }
    if (!cur || m.type !== 'gemini') continue;
    for (const part of partsOf(m.content))
      if (typeof part.text === 'string' && part.text.trim() && !part.thought) cur.replies.push(part.text);
    for (const c of m.toolCalls ?? []) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      const kind = geminiToolKind(c.name, c.args, opts.cwd);
      const cls = classifyCall(c.name, kind, c.args, { ...(opts.cwd ? { cwd: opts.cwd } : {}), overrides: opts.overrides ?? [] });
      const tool: TimelineTool = { id: c.id, name: c.name, input: c.args, summary: cls.summary, effect: cls.effect };
      if (cls.severity) tool.severity = cls.severity;
      if (c.status || c.result !== undefined) tool.result = { isError: c.status === 'error', preview: resultPreview(c.result) };
      cur.tools.push(tool);
    }
  }
  return prompts;
}

function timelineOf(file: string, records: Record<string, unknown>[], overrides: readonly EffectOverride[]): TranscriptTimeline {
  const chat = replayChat(records);
  const cwd = projectRootOf(file);
  const session = typeof chat.meta.sessionId === 'string' ? chat.meta.sessionId : path.basename(file).replace(/\.jsonl?$/, '');
  const t: TranscriptTimeline = { session, prompts: chatPrompts(chat, { ...(cwd ? { cwd } : {}), overrides }), badLines: 0 };
  const last = chat.messages[chat.messages.length - 1];
  if (last) t.leaf = last.id;
  return t;
}

/** Reads a chat file; `session` is the id the chat resumes under. */
export function readChatTimeline(file: string, overrides: readonly EffectOverride[] = []): TranscriptTimeline {
  return timelineOf(file, readRecords(file), overrides);
}

/** A chat followed as the CLI appends to it: only the new lines are parsed (the replay is redone: it is cheap). */
export class ChatFollower extends FoldedTimeline<Record<string, unknown>[]> {
  constructor(file: string) {
    super(file, RECORDS_FOLD, (records, overrides) => timelineOf(file, records, overrides));
  }
}
