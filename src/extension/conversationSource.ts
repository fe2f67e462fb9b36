// Builds the Conversation view's sessions: from each session's transcript (Claude Code, Codex, Gemini) when it can
// be read (prompts with their uuids, so a fork can cut before them), else from what the hooks
// recorded. Forks from lineage.jsonl are nested under their parent. Transcripts are read again only
// when they change (size/mtime), and then only their appended lines (they can be tens of MB); the
// same for lineage.jsonl.
import * as fs from 'node:fs';
import { agentCapabilities, followAnyTimeline } from '../agents/capabilities';
import type { TranscriptTimeline } from '../agents/claude/transcriptTimeline';
import { type ForkLineage, LineageFollower } from '../core/conversation/lineage';
import type { LoggedSession } from '../core/sessionsFromLog';
import type { Store } from '../core/store';
import { type ConvPrompt, type ConvSession, fromLog } from './conversationModel';

interface Cached {
  stamp: string;
  timeline: TranscriptTimeline | null;
  follower: ReturnType<typeof followAnyTimeline>;
}

export class ConversationSource {
  private readonly cache = new Map<string, Cached>();
  private readonly lineage: LineageFollower;

  constructor(private readonly store: Store) {
    this.lineage = new LineageFollower(store.dir);
  }

  private stampOf(file: string): string | null {
    try {
      const st = fs.statSync(file);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return null;
    }
  }

  /** A transcript's timeline, or null when it is missing or unreadable. */
  timeline(file: string): TranscriptTimeline | null {
    const stamp = this.stampOf(file);
    if (!stamp) return null;
    const hit = this.cache.get(file);
    if (hit && hit.stamp === stamp) return hit.timeline;
    let timeline: TranscriptTimeline | null = null;
    const follower = hit?.follower ?? followAnyTimeline(file);
    try {
      timeline = follower.timeline(this.store.config().effects);
    } catch {
      timeline = null; // a transcript we cannot read: fall back to the hooks' record
    }
    this.cache.set(file, { stamp, timeline, follower });
    return timeline;
  }

  /** A cheap fingerprint of every transcript we show, to notice growth without a hook event. */
  fingerprint(sessions: readonly ConvSession[]): string {
    const parts: string[] = [];
    const walk = (s: ConvSession) => {
      if (s.transcript) parts.push(this.stampOf(s.transcript) ?? '-');
      s.forks.forEach(walk);
    };
    sessions.forEach(walk);
    return parts.join('|');
  }

  build(logged: readonly LoggedSession[]): ConvSession[] {
    const fromHooks = new Map(fromLog(logged).map((s) => [s.id, s]));
    const byId = new Map<string, ConvSession>();
    for (const s of logged) {
      const base = fromHooks.get(s.session)!;
      // Only a transcript format we can read (the capability table); else our own record of the session.
      byId.set(s.session, s.transcript && agentCapabilities(s.agent).transcriptReadable ? this.withTranscript(base, s) : base);
    }
    let lineage: ForkLineage[] = [];
    try {
      lineage = this.lineage.read().filter((r): r is ForkLineage => r.t === 'fork');
    } catch {
      lineage = [];
    }
    // Forks not resumed yet have no hook records: show them from their transcript.
    for (const f of lineage) {
      if (byId.has(f.session) || f.source !== 'transcript') continue;
      const base: ConvSession = {
        id: f.session,
        agent: f.agent,
        title: f.cutText,
        time: f.time,
        transcript: f.transcript,
        forks: [],
        prompts: [],
        ...(f.cwd ? { cwd: f.cwd } : {}),
      };
      byId.set(f.session, this.withTranscript(base, undefined));
    }
    const top: ConvSession[] = [];
    const parentOf = new Map(lineage.map((f) => [f.session, f.parentSession]));
    for (const s of byId.values()) {
      const parent = parentOf.get(s.id);
      const p = parent ? byId.get(parent) : undefined;
      if (p && p !== s) {
        s.parent = p.id;
        p.forks.push(s);
      } else top.push(s);
    }
    for (const s of byId.values()) s.forks.sort((a, b) => a.time - b.time);
    return top.sort((a, b) => b.time - a.time);
  }

  private withTranscript(base: ConvSession, logged: LoggedSession | undefined): ConvSession {
    const t = base.transcript ? this.timeline(base.transcript) : null;
    if (!t || t.prompts.length === 0) return base;
    const checkpoints = logged?.prompts.map((p) => p.checkpoint) ?? [];
    const used = new Set<string>();
    const prompts: ConvPrompt[] = t.prompts.map((p, index) => {
      // The file checkpoint taken at this prompt: by Claude Code's prompt id, else by text in order.
      const cp =
        (p.promptId ? checkpoints.find((c) => c.promptId === p.promptId) : undefined) ??
        checkpoints.find((c) => !used.has(c.id) && c.label.trim() === p.text.slice(0, 2000).trim());
      if (cp) used.add(cp.id);
      const time = p.time ? Date.parse(p.time) : (cp?.time ?? base.time);
      return {
        key: p.uuid,
        uuid: p.uuid,
        text: p.text,
        time,
        ...(cp ? { checkpointId: cp.id } : {}),
        forkable: index > 0,
        tools: p.tools.map((x) => ({
          id: x.id,
          name: x.name,
          summary: x.summary,
          effect: x.effect,
          ...(x.severity ? { severity: x.severity } : {}),
        })),
      };
    });
    return { ...base, title: prompts[0]!.text, prompts };
  }
}
