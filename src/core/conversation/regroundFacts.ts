// What a resumed fork must be told (DESIGN §4 "Re-grounding"), derived from the file timeline:
// the conversation lost its turns from the cut prompt on, but the world did not. Pure over the
// sequenced records and the lineage.
//
// Mapping the transcript cut to the file timeline: the cut prompt's `prompt` checkpoint is found
// (1) by id, for forks of our own session log; (2) by Claude Code's prompt id — the transcript's
// user line `promptId` equals the hook's `prompt_id` that the checkpoint carries; (3) failing
// that, among the parent's (and its ancestors') prompt checkpoints taken before the fork, by
// label = prompt text, the n-th of those with that text where n counts the same text earlier on
// the kept chain.
import { notUndoneAfter, type NotUndone } from '../plan';
import type { CheckpointRecord, Sequenced, SnapRecord } from '../records';
import { isCheckpoint, isSnap } from '../records';
import { latestState, sameContent, stateAt } from '../timeline';
import { ancestorsOf, type ForkLineage, type LineageRecord } from './lineage';

/** Prompt checkpoint labels are cut to this length by the recorder. */
const LABEL_MAX = 2000;

export interface FileNote {
  path: string;
  /** The file is absent now. */
  deleted: boolean;
  /** For a reverted file: its content is again what it was when the cut prompt was sent. */
  asAtCut?: boolean;
}

export interface RegroundFacts {
  /** The cut's checkpoint was found in the file timeline (else nothing about files is known). */
  cutFound: boolean;
  cutTime?: number;
  /** Files the discarded turns changed that still hold those changes. */
  stillEdited: FileNote[];
  /** Files a rewind wrote after the cut (rewound files: their content differs from later tool results). */
  reverted: FileNote[];
  /** Irreversible and compensatable calls the discarded turns made: not undone by any rewind. */
  actions: NotUndone[];
}

function sameText(a: string, b: string): boolean {
  return a.slice(0, LABEL_MAX).trim() === b.slice(0, LABEL_MAX).trim();
}

export function findCutCheckpoint(records: readonly Sequenced[], fork: ForkLineage, lineage: readonly LineageRecord[]): Sequenced<CheckpointRecord> | undefined {
  const cps = records.filter(isCheckpoint) as Sequenced<CheckpointRecord>[];
  if (fork.cutCheckpoint) {
    const c = cps.find((x) => x.id === fork.cutCheckpoint);
    if (c) return c;
  }
  const prompts = cps.filter((c) => c.kind === 'prompt');
  if (fork.cutPromptId) {
    const c = prompts.find((x) => x.promptId === fork.cutPromptId);
    if (c) return c;
  }
  const sessions = new Set([fork.parentSession, ...ancestorsOf(lineage, fork.parentSession)]);
  const candidates = prompts.filter((c) => c.session !== undefined && sessions.has(c.session) && c.time <= fork.time && sameText(c.label, fork.cutText));
  if (candidates.length === 0) return undefined;
  return candidates[Math.min(fork.cutOccurrence, candidates.length - 1)];
}

export function regroundFacts(records: readonly Sequenced[], fork: ForkLineage, lineage: readonly LineageRecord[]): RegroundFacts {
  const cut = findCutCheckpoint(records, fork, lineage);
  if (!cut) return { cutFound: false, stillEdited: [], reverted: [], actions: [] };
  const discarded = new Set<string>([fork.parentSession]);
  if (cut.session) discarded.add(cut.session);
  const changed = new Set<string>();
  const rewound = new Set<string>();
  for (const r of records) {
    if (r.seq <= cut.seq || !isSnap(r)) continue;
    const s = r as Sequenced<SnapRecord>;
    if (s.phase === 'rewind') rewound.add(s.path);
    else if ((s.phase === 'before' || s.phase === 'after') && discarded.has(s.session ?? '')) changed.add(s.path);
  }
  const at = stateAt(records, cut.seq);
  const latest = latestState(records);
  const stillEdited: FileNote[] = [];
  const reverted: FileNote[] = [];
  for (const p of [...new Set([...changed, ...rewound])].sort()) {
    const now = latest.get(p);
    if (!now) continue;
    const then = at.get(p);
    const deleted = now.hash === null && !now.skipped;
    const asAtCut = !!then && sameContent(then, now);
    if (now.phase === 'rewind') reverted.push({ path: p, deleted, asAtCut });
    else if (changed.has(p) && !asAtCut) stillEdited.push({ path: p, deleted });
  }
  return { cutFound: true, cutTime: cut.time, stillEdited, reverted, actions: notUndoneAfter(records, cut.seq, discarded) };
}
