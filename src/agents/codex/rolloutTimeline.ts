// The Codex conversation as the user sees it: its turns in order, each with the prompt that
// started it, the assistant's replies and the tool calls (classified like recorded calls, under the
// names Codex's hooks give them: `Bash`, `apply_patch`) and their results. A prompt's id is its
// turn's `turn_id` — the id UserPromptSubmit sends, which the prompt checkpoint carries as `promptId`.
import type { EffectOverride } from '../../core/storeFiles/config';
import { classifyCall } from '../../core/effects/classifyCall';
import { isoFromTimestamp } from '../../shared/time';
import { FoldedTimeline, type TimelinePrompt, type TimelineTool, type TranscriptTimeline } from '../common/timeline';
import type { RolloutEntry } from './rolloutLine';
import { readRollout, ROLLOUT_FOLD, type RolloutContents, rolloutContents, type RolloutState } from './rolloutRead';
import { codexToolKind } from './toolKind';

export interface RolloutTurn {
  turnId: string;
  /** Entry positions (in `entries`) of the turn's `task_started` and its end marker (`task_complete` / `turn_aborted`, if any). */
  start: number;
  end: number | null;
  /** The first prompt of the turn (a turn without one — a review, a compaction — is not a prompt). */
  prompt?: RolloutEntry;
}

const END_MARKERS = new Set(['task_complete', 'turn_aborted']);

/** The turns of a rollout, in order. */
export function turnsOf(entries: readonly RolloutEntry[]): RolloutTurn[] {
  const turns: RolloutTurn[] = [];
  let cur: RolloutTurn | null = null;
  entries.forEach((e, i) => {
    if (e.type !== 'event_msg') return;
    if (e.sub === 'task_started' && e.turnId) {
      cur = { turnId: e.turnId, start: i, end: null };
      turns.push(cur);
    } else if (e.sub && END_MARKERS.has(e.sub) && cur && (!e.turnId || e.turnId === cur.turnId)) {
      cur.end = i;
      cur = null;
    } else if (e.prompt !== undefined && cur && !cur.prompt) cur.prompt = e;
  });
  return turns;
}

/** Hook-side name of a call (what `agent-rewind checkpoints` shows for the same call). */
function hookName(name: string): string {
  return name === 'exec_command' || name === 'shell' || name === 'local_shell' ? 'Bash' : name;
}

/** Did the call fail? Codex writes the exit code into the output text. */
function failed(text: string): boolean {
  const m = /(?:^Exit code: |Process exited with code )(\d+)/m.exec(text);
  if (m) return m[1] !== '0';
  return /^apply_patch verification failed/.test(text) || /^error:/i.test(text);
}

export function promptsOf(entries: readonly RolloutEntry[], overrides: readonly EffectOverride[] = []): TimelinePrompt[] {
  const prompts: TimelinePrompt[] = [];
  const toolById = new Map<string, TimelineTool>();
  let cwd: string | undefined;
  let cur: TimelinePrompt | null = null;
  const startOf = new Map(turnsOf(entries).map((t) => [t.start, t]));
  entries.forEach((e, i) => {
    if (e.cwd) cwd = e.cwd;
    const turn = startOf.get(i);
    if (turn) {
      cur = null;
      if (turn.prompt) {
        cur = {
          uuid: turn.turnId,
          promptId: turn.turnId,
          text: turn.prompt.prompt!,
          time: isoFromTimestamp(turn.prompt.timestamp ?? e.timestamp),
          replies: [],
          tools: [],
        };
        if (cwd) cur.cwd = cwd;
        prompts.push(cur);
      }
      return;
    }
    if (!cur) return;
    if (e.assistantText?.trim()) cur.replies.push(e.assistantText);
    if (e.call && !toolById.has(e.call.callId)) {
      const name = hookName(e.call.name);
      const kind = codexToolKind(e.call.name, e.call.input, cwd);
      const c = classifyCall(name, kind, e.call.input, { ...(cwd ? { cwd } : {}), overrides });
      const tool: TimelineTool = { id: e.call.callId, name, input: e.call.input, summary: c.summary, effect: c.effect };
      if (c.severity) tool.severity = c.severity;
      cur.tools.push(tool);
      toolById.set(e.call.callId, tool);
    }
    if (e.output) {
      const tool = toolById.get(e.output.callId);
      if (tool) tool.result = { isError: failed(e.output.text), preview: e.output.text.slice(0, 500) };
    }
  });
  return prompts;
}

const timelineOf = (r: RolloutContents, overrides: readonly EffectOverride[]): TranscriptTimeline => ({
  session: r.session,
  prompts: promptsOf(r.entries, overrides),
  badLines: r.badLines.length,
});

/** Reads a rollout and returns its timeline (the same shape as Claude Code's). */
export function readRolloutTimeline(file: string, overrides: readonly EffectOverride[] = []): TranscriptTimeline {
  return timelineOf(readRollout(file), overrides);
}

/** A rollout followed as Codex appends to it: only the new lines are parsed. */
export class RolloutFollower extends FoldedTimeline<RolloutState> {
  constructor(file: string) {
    super(file, ROLLOUT_FOLD, (state, overrides) => timelineOf(rolloutContents(file, state), overrides));
  }
}
