// Builds the Conversation view's sessions: from each session's transcript (Claude Code, Codex, Gemini, Qwen Code;
// OpenCode's made on demand by export) when it can
// be read (prompts with their uuids, so a fork can cut before them), else from what the hooks
// recorded. Forks from lineage.jsonl are nested under their parent. Transcripts are read off the
// extension host (the view worker), again only when they change (size/mtime), and then only
// their appended lines (they can be tens of MB); lineage.jsonl (small) is followed here the same way.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentCapabilities, transcriptMaker } from '../../agents/capabilities';
import { STORE_FILE } from '../../core/storeFiles/names';
import { type ForkLineage, LineageFollower } from '../../core/conversation/lineage';
import type { LoggedSession } from '../../core/timeline/sessionsFromLog';
import type { Store } from '../../core/store';
import { type ConvPrompt, type ConvSession, fromLog } from './conversationModel';
import type { TranscriptReader } from '../offHost/transcriptReader';
import type { Outline } from '../offHost/transcriptOutline';
import { isError } from '../../core/errors';

interface Cached {
  stamp: string;
  outline: Outline | null;
}

/** A transcript made on demand for a session whose hooks name none (an OpenCode export), and the session state it was made at. */
interface Found {
  stamp: string;
  file?: string;
  running?: Promise<void>;
}

export class ConversationSource {
  private readonly cache = new Map<string, Cached>();
  private readonly lineage: LineageFollower;
  private readonly found = new Map<string, Found>();

  constructor(
    private readonly store: Store,
    private readonly reader: TranscriptReader,
  ) {
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

  private forks(): ForkLineage[] {
    try {
      return this.lineage.read().filter((r): r is ForkLineage => r.t === 'fork');
    } catch {
      return [];
    }
  }

  /**
   * Reads every transcript that changed since the last call (off the host, in the view worker);
   * `build` then shows them. Until a transcript is read, its session shows what the
   * hooks recorded.
   */
  async prepare(logged: readonly LoggedSession[]): Promise<void> {
    this.findTranscripts(logged); // not awaited: the view shows the hooks' record until the export lands (the fingerprint notices it)
    const files = new Set<string>();
    for (const s of logged) {
      const t = this.transcriptOf(s);
      if (t && agentCapabilities(s.agent).transcriptReadable) files.add(t);
    }
    const known = new Set(logged.map((s) => s.session));
    for (const f of this.forks()) if (f.source === 'transcript' && !known.has(f.session)) files.add(f.transcript);
    const overrides = this.store.config().effects;
    await Promise.all(
      [...files].map(async (file) => {
        const stamp = this.stampOf(file);
        if (!stamp) return void this.cache.delete(file);
        if (this.cache.get(file)?.stamp === stamp) return;
        let outline: Outline | null = null;
        try {
          outline = await this.reader.read(file, overrides);
        } catch (e) {
          if (isError(e, 'worker-cancelled')) throw e;
          outline = null; // a transcript we cannot read: fall back to the hooks' record
        }
        this.cache.set(file, { stamp, outline });
      }),
    );
  }

  private transcriptOf(s: LoggedSession): string | undefined {
    return s.transcript ?? this.found.get(s.session)?.file;
  }

  /**
   * Makes the transcript of each session whose agent keeps none in a file (OpenCode: `opencode export`
   * into the store's `transcripts/<agent>/`), again only when the hooks recorded more of it (a prompt or
   * a call), one export at a time per session. A failed export keeps the last one (or the hooks'
   * record) until the session moves on: no retry loop when the agent's CLI is missing. Never awaited
   * by the view: a cold OpenCode start can take a minute on a busy machine.
   */
  private findTranscripts(logged: readonly LoggedSession[]): void {
    for (const s of logged) {
      const find = s.transcript ? undefined : transcriptMaker(s.agent);
      if (!find || !s.prompts.length) continue;
      const stamp = `${s.prompts.length}:${s.prompts.reduce((n, p) => n + p.calls.length, 0)}`;
      const had = this.found.get(s.session);
      if (had?.running || had?.stamp === stamp) continue;
      const entry: Found = { stamp, ...(had?.file ? { file: had.file } : {}) };
      this.found.set(s.session, entry);
      entry.running = find(s.session, s.cwd, path.join(this.store.dir, STORE_FILE.transcripts, s.agent))
        .then(
          (file) => void (entry.file = file),
          () => undefined,
        )
        .finally(() => delete entry.running);
    }
  }

  /** Resolves when every transcript being made now is made (or failed). */
  async transcriptsMade(): Promise<void> {
    await Promise.all([...this.found.values()].map((f) => f.running));
  }

  /** A cheap fingerprint of every transcript we show, to notice growth without a hook event. */
  fingerprint(sessions: readonly ConvSession[]): string {
    const parts: string[] = [];
    const walk = (s: ConvSession) => {
      if (s.transcript) parts.push(this.stampOf(s.transcript) ?? '-');
      s.forks.forEach(walk);
    };
    sessions.forEach(walk);
    // A transcript made on demand that landed (or was made again) since the view was built.
    for (const [session, f] of this.found) parts.push(`${session}:${f.file ? (this.stampOf(f.file) ?? '-') : '-'}`);
    return parts.join('|');
  }

  build(logged: readonly LoggedSession[]): ConvSession[] {
    const fromHooks = new Map(fromLog(logged).map((s) => [s.id, s]));
    const byId = new Map<string, ConvSession>();
    for (const s of logged) {
      const base = fromHooks.get(s.session)!;
      const transcript = this.transcriptOf(s);
      if (transcript) base.transcript = transcript;
      // Only a transcript format we can read (the capability table); else our own record of the session.
      byId.set(s.session, transcript && agentCapabilities(s.agent).transcriptReadable ? this.withTranscript(base, s) : base);
    }
    const lineage = this.forks();
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
    const t = base.transcript ? this.cache.get(base.transcript)?.outline : null;
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
        tools: p.tools,
      };
    });
    return { ...base, title: prompts[0]!.text, prompts };
  }
}
