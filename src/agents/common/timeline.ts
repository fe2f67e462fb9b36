// The conversation as every agent's reader gives it: the real prompts in order, each with the assistant's
// text and the tool calls of its turn and their results — one shape for every transcript format, and
// the follower that re-reads a growing transcript by its appended lines only.
import type { EffectOverride } from '../../core/storeFiles/config';
import type { Effect, Severity } from '../../core/storeFiles/records';
import { IncrementalLines, type LineFold } from '../../core/storeFiles/logTail';

export interface TimelineTool {
  id: string;
  name: string;
  input: unknown;
  summary: string;
  effect: Effect;
  severity?: Severity;
  result?: { isError: boolean; preview: string };
}

export interface TimelinePrompt {
  uuid: string;
  /** The agent's prompt id (the hook's `prompt_id`, Codex's turn id), which the file timeline's prompt checkpoints carry. */
  promptId?: string;
  text: string;
  /** ISO 8601, or null when the line has no usable timestamp. */
  time: string | null;
  cwd?: string;
  /** The assistant's text replies of this turn, in order. */
  replies: string[];
  tools: TimelineTool[];
}

export interface TranscriptTimeline {
  session: string;
  leaf?: string;
  prompts: TimelinePrompt[];
  /** Lines that could not be parsed (skipped). */
  badLines: number;
}

/**
 * A transcript of any agent's format read again and again as it grows (the extension follows the
 * open sessions): only the lines appended since the last read are folded (`fold`); a rewritten,
 * shrunk or replaced file is read whole. The timeline is rebuilt from the folded state (no I/O, no JSON).
 */
export class FoldedTimeline<S> {
  private readonly lines: IncrementalLines<S>;

  constructor(
    readonly file: string,
    fold: LineFold<S>,
    private readonly build: (state: S, overrides: readonly EffectOverride[]) => TranscriptTimeline,
  ) {
    this.lines = new IncrementalLines(file, fold);
  }

  /** How the last read went: 'full' or only the appended lines ('tail'). */
  get lastRead(): 'full' | 'tail' {
    return this.lines.lastRead;
  }

  timeline(overrides: readonly EffectOverride[] = []): TranscriptTimeline {
    return this.build(this.lines.read(), overrides);
  }
}

/** What a follower of a transcript gives: the timeline now, parsing only what was appended since the last call. */
export interface TimelineFollower {
  timeline(overrides?: readonly EffectOverride[]): TranscriptTimeline;
  readonly lastRead: 'full' | 'tail';
}
