// The conversation as the user sees it: the real prompts on the current chain, in order, each with
// the assistant's text and the tool calls of its turn (classified like recorded calls) and their
// results. Pure over parsed entries; transcriptRead.ts does the I/O.
import * as path from 'node:path';
import type { EffectOverride } from '../../core/storeFiles/config';
import { classifyCall } from '../../core/effects/classifyCall';
import { claudeToolKind } from './toolKind';
import { isRealPrompt, sessionOf, TranscriptGraph } from './transcriptChain';
import type { TranscriptEntry } from './transcriptLine';
import { isoFromTimestamp } from '../../shared/time';
import { FoldedTimeline, type TimelinePrompt, type TimelineTool, type TranscriptTimeline } from '../common/timeline';
import { readTranscript, TRANSCRIPT_FOLD, type TranscriptContents } from './transcriptRead';

/** Builds the timeline of a list of lines (the current conversation, or any chain's conversation). */
export function promptsOf(lines: readonly TranscriptEntry[], overrides: readonly EffectOverride[] = []): TimelinePrompt[] {
  const prompts: TimelinePrompt[] = [];
  const toolById = new Map<string, TimelineTool>();
  let cur: TimelinePrompt | null = null;
  for (const e of lines) {
    if (e.sidechain) continue;
    if (isRealPrompt(e)) {
      const time = isoFromTimestamp(e.timestamp);
      cur = { uuid: e.uuid!, text: e.user!.text, time, replies: [], tools: [] };
      if (e.user!.promptId) cur.promptId = e.user!.promptId;
      if (e.cwd) cur.cwd = e.cwd;
      prompts.push(cur);
      continue;
    }
    if (e.assistant && cur) {
      for (const t of e.assistant.texts) if (t.trim()) cur.replies.push(t);
      for (const u of e.assistant.toolUses) {
        if (toolById.has(u.id)) continue;
        const c = classifyCall(u.name, claudeToolKind(u.name, u.input), u.input, { ...(e.cwd ? { cwd: e.cwd } : {}), overrides });
        const tool: TimelineTool = { id: u.id, name: u.name, input: u.input, summary: c.summary, effect: c.effect };
        if (c.severity) tool.severity = c.severity;
        cur.tools.push(tool);
        toolById.set(u.id, tool);
      }
    }
    for (const r of e.user?.results ?? []) {
      const tool = toolById.get(r.toolUseId);
      if (tool) tool.result = { isError: r.isError, preview: r.preview };
    }
  }
  return prompts;
}

export function timelineOf(
  entries: readonly TranscriptEntry[],
  opts: { fallbackSession: string; overrides?: readonly EffectOverride[]; badLines?: number },
): TranscriptTimeline {
  const graph = new TranscriptGraph(entries);
  const { leaf, lines } = graph.current();
  const t: TranscriptTimeline = {
    session: sessionOf(entries, leaf, opts.fallbackSession),
    prompts: promptsOf(lines, opts.overrides),
    badLines: opts.badLines ?? 0,
  };
  if (leaf?.uuid) t.leaf = leaf.uuid;
  return t;
}

/** Reads a transcript file and returns its timeline. */
export function readTimeline(file: string, overrides: readonly EffectOverride[] = []): TranscriptTimeline {
  const { entries, badLines } = readTranscript(file);
  return timelineOf(entries, { fallbackSession: sessionFallback(file), overrides, badLines: badLines.length });
}

/** A transcript's session when its lines do not say: its file name (Claude Code names them by session id). */
const sessionFallback = (file: string) => path.basename(file).replace(/\.jsonl$/, '');

/** A Claude Code transcript, followed. */
export class TranscriptFollower extends FoldedTimeline<TranscriptContents> {
  constructor(file: string) {
    super(file, TRANSCRIPT_FOLD, ({ entries, badLines }, overrides) =>
      timelineOf(entries, { fallbackSession: sessionFallback(file), overrides, badLines: badLines.length }),
    );
  }
}
