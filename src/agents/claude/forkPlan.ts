// Which lines of a transcript a fork cut before prompt U keeps,
// pure over parsed entries:
// - chain entries: U's ancestors, the other lines of their assistant messages, and the result of
//   every kept tool_use — exactly what a resume of that point uses. Sidechain and `progress` lines,
//   dead branches, and everything from U on are dropped. A kept line whose parent was a dropped
//   `progress` line is re-parented to its nearest kept ancestor, so the chain stays walkable.
// - metadata lines (no uuid): dropped when they describe the parent as a whole (titles, summaries,
//   last prompt, prompt queue, cost totals, file-history snapshots of the parent's backups) or
//   belong to a subagent; any other type, known or not, is kept when it was written before U — it
//   then describes the session as of the cut (mode, tools used so far, request log, content
//   replacements) — and dropped when written after U, during the discarded turns.
// - cut points are the prompts `conversation show` lists: on the current chain (a prompt on a dead
//   branch, or before the last compact boundary, is refused), never the first one listed — after a
//   compaction that is the first prompt after the boundary, so a fork never holds only a summary.
// Uuids are kept (not regenerated): the fork re-reads with the same prompt uuids, and Claude Code
// resumes it by its file name and sessionId (checked against the real CLI 2.1.332).
import { isRealPrompt, TranscriptGraph } from './transcriptChain';
import type { TranscriptEntry } from './transcriptLine';

const WHOLE_PARENT = new Set([
  'summary',
  'last-prompt',
  'queue-operation',
  'custom-title',
  'ai-title',
  'file-history-snapshot',
  'cost-state',
  'progress',
]);

/** Metadata about the parent session as a whole, which a fork must not inherit. */
export function isWholeParentMetadata(type: string): boolean {
  return WHOLE_PARENT.has(type) || /(^|-)title$/.test(type) || /(^|-)summary$/.test(type);
}

export type CutRefusalReason = 'not-found' | 'not-a-prompt' | 'sidechain' | 'off-branch' | 'first-prompt' | 'carries-results';

export interface CutRefusal {
  reason: CutRefusalReason;
  /** One plain sentence saying what to do instead. */
  message: string;
}

export interface ForkPlan {
  cut: TranscriptEntry;
  /** Lines to write, in file order. */
  keep: TranscriptEntry[];
  /** New parentUuid for kept lines whose parent was dropped (by line index). */
  reparent: Map<number, string | null>;
  /** The fork's leaf: the cut's nearest kept ancestor. */
  leaf: string;
  /** Uuids of the prompts the fork keeps (the current chain's prompts before the cut), in order. */
  prompts: string[];
  /** Prompts on the current chain before the cut whose text equals the cut's (to tell repeated prompts apart). */
  occurrence: number;
}

const SHOW = 'run `agent-rewind conversation show` to list the prompts you can cut before';

function describe(e: TranscriptEntry): string {
  if (e.type === 'assistant') return 'an assistant reply';
  if (e.type === 'user') {
    switch (e.user?.kind) {
      case 'tool-result':
        return 'a tool result';
      case 'meta':
        return 'a message Claude Code added (isMeta)';
      case 'compact-summary':
        return 'a compaction summary';
      case 'command-output':
        return 'the output of a local command';
      case 'interrupt':
        return 'an interruption notice';
      default:
        return 'an empty message';
    }
  }
  return `a "${e.type}" line`;
}

export function planFork(
  entries: readonly TranscriptEntry[],
  cutUuid: string,
): { ok: true; plan: ForkPlan } | { ok: false; refusal: CutRefusal } {
  const refuse = (reason: CutRefusalReason, message: string) => ({ ok: false as const, refusal: { reason, message } });
  const graph = new TranscriptGraph(entries);
  const cut = graph.byUuid.get(cutUuid);
  if (!cut) return refuse('not-found', `This transcript has no entry ${cutUuid}; ${SHOW}.`);
  if (cut.sidechain) return refuse('sidechain', `Entry ${cutUuid} belongs to a subagent's side conversation, not the main one; ${SHOW}.`);
  if (!isRealPrompt(cut))
    return refuse(
      'not-a-prompt',
      `Entry ${cutUuid} is ${describe(cut)}, not a prompt you typed, and a conversation is only cut before a prompt; ${SHOW}.`,
    );

  const current = graph.current();
  const prompts = current.lines.filter(isRealPrompt);
  const at = prompts.indexOf(cut);
  if (at < 0)
    return refuse(
      'off-branch',
      `Prompt ${cutUuid} is on a branch of this conversation that was abandoned (rewound inside Claude Code); ${SHOW}.`,
    );
  if (at === 0)
    return refuse(
      'first-prompt',
      `Cutting before the first prompt would leave nothing to resume; pick a later prompt, or start a new session instead.`,
    );
  if (cut.user!.results.length > 0)
    return refuse(
      'carries-results',
      `Prompt ${cutUuid} also carries tool results, so cutting before it would leave a tool call unanswered; pick another prompt.`,
    );

  const ancestors = graph.chain(cut.parentUuid);
  const chainLines = graph.conversation(ancestors).filter((e) => e.type !== 'progress' && !e.sidechain);
  const kept = new Set<TranscriptEntry>(chainLines);
  const nearestKept = (uuid: string | null): string | null => {
    const seen = new Set<string>();
    let u = uuid;
    while (u && !seen.has(u)) {
      seen.add(u);
      const e = graph.byUuid.get(u);
      if (!e) return null;
      if (kept.has(e)) return u;
      u = e.parentUuid;
    }
    return null;
  };
  const reparent = new Map<number, string | null>();
  for (const e of chainLines) {
    if (!e.parentUuid) continue;
    const p = graph.byUuid.get(e.parentUuid);
    if (p && kept.has(p)) continue;
    const np = nearestKept(e.parentUuid);
    if (np !== e.parentUuid) reparent.set(e.line, np);
  }
  const metadata = entries.filter((e) => !e.uuid && e.line < cut.line && !isWholeParentMetadata(e.type) && !e.agentId && !e.sidechain);
  const keep = [...chainLines, ...metadata].sort((a, b) => a.line - b.line);
  const leaf = nearestKept(cut.parentUuid);
  if (!leaf)
    return refuse(
      'first-prompt',
      `Nothing comes before prompt ${cutUuid} in this conversation, so there is nothing to resume; pick a later prompt.`,
    );
  const before = prompts.slice(0, at);
  const occurrence = before.filter((p) => p.user!.text === cut.user!.text).length;
  return { ok: true, plan: { cut, keep, reparent, leaf, prompts: before.map((p) => p.uuid!), occurrence } };
}
