// What the Conversation view shows of a transcript — its prompts and their tool calls, without tool
// inputs, results or replies — and how it crosses from the worker that parses transcripts to the
// extension host: as a change against the outline the host already holds (the prompts from the first
// one that differs), so a refresh after a few appended lines sends a few prompts, not thousands.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { followAnyTimeline } from '../../agents/capabilities';
import type { TimelineFollower, TranscriptTimeline } from '../../agents/common/timeline';
import type { EffectOverride } from '../../core/storeFiles/config';
import type { Effect, Severity } from '../../core/storeFiles/records';

export interface OutlineTool {
  id: string;
  name: string;
  summary: string;
  effect: Effect;
  severity?: Severity;
}

export interface OutlinePrompt {
  uuid: string;
  /** The agent's prompt id (the hook's), which the prompt's file checkpoint carries. */
  promptId?: string;
  text: string;
  /** ISO 8601, or null. */
  time: string | null;
  tools: OutlineTool[];
}

export interface Outline {
  session: string;
  prompts: OutlinePrompt[];
  badLines: number;
}

/**
 * An outline as a change: `keep` leading prompts of the outline `base` names, then `prompts`.
 * `version` names the result, for the next request's `base`. `missing`: the file cannot be read.
 */
export type OutlineDelta =
  | { version: string; missing?: undefined; session: string; badLines: number; keep: number; prompts: OutlinePrompt[] }
  | { version: string; missing: true };

/** An outline as the host holds it, with the version the worker gave it. */
export interface HeldOutline {
  version: string;
  outline: Outline | null;
}

export function outlineOf(t: TranscriptTimeline): Outline {
  return {
    session: t.session,
    badLines: t.badLines,
    prompts: t.prompts.map((p) => ({
      uuid: p.uuid,
      ...(p.promptId ? { promptId: p.promptId } : {}),
      text: p.text,
      time: p.time,
      tools: p.tools.map((x) => ({
        id: x.id,
        name: x.name,
        summary: x.summary,
        effect: x.effect,
        ...(x.severity ? { severity: x.severity } : {}),
      })),
    })),
  };
}

/**
 * One transcript, followed (only appended lines are parsed) and sent as changes. It remembers what
 * it sent last; a host that says it holds something else (an answer it dropped, a new window) gets
 * the whole outline.
 */
export class OutlineSender {
  private readonly follower: TimelineFollower;
  private sent: { version: string; keys: string[] } | undefined;

  constructor(readonly file: string) {
    this.follower = followAnyTimeline(file);
  }

  next(base: string | null, overrides: readonly EffectOverride[]): OutlineDelta {
    let outline: Outline;
    try {
      // A follower reads a missing file as empty; the view must know it is gone (it shows the hooks' record instead).
      if (!fs.statSync(this.file).isFile()) throw new Error('not a file');
      outline = outlineOf(this.follower.timeline(overrides));
    } catch {
      this.sent = undefined;
      return { version: randomUUID(), missing: true };
    }
    // A prompt's JSON is its identity: a tool call added, a result classified again, a rewritten chain.
    const keys = outline.prompts.map((p) => JSON.stringify(p));
    const before = this.sent && this.sent.version === base ? this.sent.keys : [];
    let keep = 0;
    while (keep < before.length && keep < keys.length && before[keep] === keys[keep]) keep++;
    const version = randomUUID();
    this.sent = { version, keys };
    return { version, session: outline.session, badLines: outline.badLines, keep, prompts: outline.prompts.slice(keep) };
  }
}

/** The host's side: the outline a delta makes of the one held (which it never changes). */
export function applyOutline(held: HeldOutline | undefined, d: OutlineDelta): HeldOutline {
  if (d.missing) return { version: d.version, outline: null };
  const kept = d.keep > 0 ? (held?.outline?.prompts.slice(0, d.keep) ?? []) : [];
  if (kept.length !== d.keep) throw new Error(`A transcript change keeps ${d.keep} prompts of an outline that has ${kept.length}.`);
  return { version: d.version, outline: { session: d.session, badLines: d.badLines, prompts: [...kept, ...d.prompts] } };
}
