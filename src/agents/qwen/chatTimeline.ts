// A Qwen Code chat as the Conversation view and `conversation show` see it: the real prompts on the
// active chain in order (id = the prompt record's uuid, what a fork is cut before), each with the
// model's text replies and the tool calls of its turn (classified like recorded calls) and their results.
import * as path from 'node:path';
import type { EffectOverride } from '../../core/storeFiles/config';
import { classifyCall } from '../../core/effects/classifyCall';
import { oneLine } from '../../shared/text';
import { isoFromTimestamp } from '../../shared/time';
import { FoldedTimeline, type TimelinePrompt, type TimelineTool, type TranscriptTimeline } from '../common/timeline';
import { activeChain, partsOf, QWEN_RECORDS_FOLD, qwenPromptOf, type QwenRecord, readQwenRecords } from './chatFile';
import { qwenToolKind } from './hookPayload';

function responsePreview(response: { output?: unknown; error?: unknown } | undefined): string {
  if (!response) return '';
  return oneLine(String(response.output ?? response.error ?? JSON.stringify(response)), 200);
}

export function qwenPrompts(chain: readonly QwenRecord[][], overrides: readonly EffectOverride[] = []): TimelinePrompt[] {
  const prompts: TimelinePrompt[] = [];
  const toolById = new Map<string, TimelineTool>();
  let cur: TimelinePrompt | null = null;
  for (const fragments of chain) {
    const first = fragments[0]!;
    const p = qwenPromptOf(fragments);
    if (p) {
      cur = { uuid: p.id, text: p.text, time: isoFromTimestamp(p.time), replies: [], tools: [] };
      if (first.cwd) cur.cwd = first.cwd;
      prompts.push(cur);
      continue;
    }
    if (!cur) continue;
    const cwd = first.cwd;
    for (const part of fragments.flatMap(partsOf)) {
      if (first.type === 'assistant' && typeof part.text === 'string' && part.text.trim() && !part.thought) cur.replies.push(part.text);
      const call = part.functionCall;
      if (call?.name && call.id && !toolById.has(call.id)) {
        const input = (call.args && typeof call.args === 'object' ? call.args : {}) as Record<string, unknown>;
        const cls = classifyCall(call.name, qwenToolKind(call.name, input, cwd).kind, input, { ...(cwd ? { cwd } : {}), overrides });
        const tool: TimelineTool = { id: call.id, name: call.name, input, summary: cls.summary, effect: cls.effect };
        if (cls.severity) tool.severity = cls.severity;
        cur.tools.push(tool);
        toolById.set(call.id, tool);
      }
      const res = part.functionResponse;
      const tool = res?.id ? toolById.get(res.id) : undefined;
      if (tool) {
        const status = first.toolCallResult?.status ?? first.toolCallResult?.executionStatus;
        tool.result = { isError: status === 'error' || res?.response?.error !== undefined, preview: responsePreview(res?.response) };
      }
    }
  }
  return prompts;
}

function timelineOf(file: string, records: readonly QwenRecord[], overrides: readonly EffectOverride[]): TranscriptTimeline {
  const chain = activeChain(records);
  const leaf = chain[chain.length - 1]?.[0];
  const t: TranscriptTimeline = {
    // A chat resumes under the id its records carry (the file is named by it, too).
    session: leaf?.sessionId ?? path.basename(file).replace(/\.jsonl$/, ''),
    prompts: qwenPrompts(chain, overrides),
    badLines: 0,
  };
  if (leaf) t.leaf = leaf.uuid;
  return t;
}

export function readQwenTimeline(file: string, overrides: readonly EffectOverride[] = []): TranscriptTimeline {
  return timelineOf(file, readQwenRecords(file), overrides);
}

/** A chat followed as the CLI appends to it: only the new lines are parsed (the chain walk is redone: it is cheap). */
export class QwenChatFollower extends FoldedTimeline<QwenRecord[]> {
  constructor(file: string) {
    super(file, QWEN_RECORDS_FOLD, (records, overrides) => timelineOf(file, records, overrides));
  }
}
