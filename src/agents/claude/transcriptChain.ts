// How Claude Code rebuilds a conversation from its transcript, as pure
// functions over the parsed entries: index by uuid (later duplicates win), find the leaf, walk
// parentUuid to the root, then add back the lines that branch off that chain — the other lines of
// an assistant message split over several lines, and the results of parallel tool calls.
import type { TranscriptEntry } from './transcriptLine';

export class TranscriptGraph {
  readonly byUuid = new Map<string, TranscriptEntry>();

  constructor(readonly entries: readonly TranscriptEntry[]) {
    for (const e of entries) if (e.uuid) this.byUuid.set(e.uuid, e);
  }

  /** The entry that owns its uuid (a line overwritten by a later duplicate is not part of anything). */
  isLive(e: TranscriptEntry): boolean {
    return !!e.uuid && this.byUuid.get(e.uuid) === e;
  }

  /** The last non-sidechain, non-progress chain entry in file order that no such entry names as its parent. */
  leaf(): TranscriptEntry | undefined {
    const named = new Set<string>();
    for (const e of this.entries) if (e.uuid && !e.sidechain && e.type !== 'progress' && e.parentUuid) named.add(e.parentUuid);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (!e.uuid || e.sidechain || e.type === 'progress' || !this.isLive(e)) continue;
      if (!named.has(e.uuid)) return e;
    }
    return undefined;
  }

  /** `uuid` and its ancestors, root first. Stops at a null parent (root, compact boundary) or a missing one. */
  chain(uuid: string | null | undefined): TranscriptEntry[] {
    const out: TranscriptEntry[] = [];
    const seen = new Set<string>();
    let cur = uuid ? this.byUuid.get(uuid) : undefined;
    while (cur && cur.uuid && !seen.has(cur.uuid)) {
      seen.add(cur.uuid);
      out.push(cur);
      cur = cur.parentUuid ? this.byUuid.get(cur.parentUuid) : undefined;
    }
    return out.reverse();
  }

  /**
   * The lines a resume of `chain` uses: the chain, the other lines of its assistant messages (same
   * message.id), and one result line for every tool_use they hold (the one on the chain when there
   * is one, else the last in file order). Returned in file order. Sidechain lines never belong.
   */
  conversation(chain: readonly TranscriptEntry[]): TranscriptEntry[] {
    const keep = new Set<TranscriptEntry>(chain);
    const messageIds = new Set<string>();
    for (const e of chain) if (e.assistant?.messageId) messageIds.add(e.assistant.messageId);
    for (const e of this.entries) {
      if (e.sidechain || !this.isLive(e) || !e.assistant?.messageId) continue;
      if (messageIds.has(e.assistant.messageId)) keep.add(e);
    }
    const uses = new Set<string>();
    for (const e of keep) for (const u of e.assistant?.toolUses ?? []) uses.add(u.id);
    const answered = new Set<string>();
    for (const e of chain) for (const r of e.user?.results ?? []) answered.add(r.toolUseId);
    const lastResult = new Map<string, TranscriptEntry>();
    for (const e of this.entries) {
      if (e.sidechain || !this.isLive(e) || !e.user) continue;
      for (const r of e.user.results) if (uses.has(r.toolUseId) && !answered.has(r.toolUseId)) lastResult.set(r.toolUseId, e);
    }
    for (const e of lastResult.values()) keep.add(e);
    return [...keep].sort((a, b) => a.line - b.line);
  }

  /** The current conversation: the leaf's chain plus its branching lines. */
  current(): { leaf: TranscriptEntry | undefined; chain: TranscriptEntry[]; lines: TranscriptEntry[] } {
    const leaf = this.leaf();
    const chain = this.chain(leaf?.uuid);
    return { leaf, chain, lines: this.conversation(chain) };
  }
}

/** Real prompts: user entries the user typed, not meta, compact summaries, tool results or sidechain. */
export function isRealPrompt(e: TranscriptEntry): boolean {
  return e.type === 'user' && !e.sidechain && e.user?.kind === 'prompt';
}

/** The session id of a transcript: the leaf's, else the last one seen, else the fallback (the file name). */
export function sessionOf(entries: readonly TranscriptEntry[], leaf: TranscriptEntry | undefined, fallback: string): string {
  if (leaf?.sessionId) return leaf.sessionId;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.sessionId && !e.sidechain && !e.agentId) return e.sessionId;
  }
  return fallback;
}
