// The timeline as every surface presents it (issue 42): one row per checkpoint and per attempt, with
// its kind, label, agent, session, time and counts, and the timeline's counts — built here, once, and
// rendered by the CLI (`checkpoints`, `attempts`, `status`; text and --json), the Files and Conversation
// views, the status bar, the quick picks and the preview. A surface adds no label, count or grouping of
// its own: it looks the words up (a `Localizer`: English for the CLI, vscode.l10n in the extension, the
// page's bundle in the preview) and lays them out. Pure: no file, no clock (the time is a number).
import { countWords, ENGLISH, type Localizer } from '../../shared/l10n';
import { rewindCountWords, treeLabel } from '../../shared/text';
import type { CheckpointKind, CheckpointRecord } from '../storeFiles/records';
import { type Attempt, attemptBroughtBy, type AttemptTree, type OwnWork } from './attempts';
import { attemptRewindLabel, labelOfRewindCheckpoint, type RewindLookups } from './rewindLabels';

/** One checkpoint as a row: the fields `checkpoints --json` prints (with the time as a number). */
export interface CheckpointRow {
  id: string;
  kind: CheckpointKind;
  /** As recorded; for a rewind checkpoint the label its target gives it (rewindLabels.ts), never nested. */
  label: string;
  session: string | null;
  agent: string | null;
  /** Milliseconds since the epoch: each surface writes it its own way (ISO in the CLI, clockTime in the views). */
  time: number;
  /** The files a rewind to it would change (plan --to's `files`): the number on its row, its tooltip and the preview. */
  toRewind: number;
  /** Distinct paths changed between it and the next checkpoint. */
  edited: number;
}

type CheckpointFields = Pick<CheckpointRecord, 'id' | 'kind' | 'label' | 'session' | 'agent' | 'time'>;

/** The row of checkpoint `c`; `label` when the caller computed it (a rewind's, from its target), else the recorded one. */
export function checkpointRow(c: CheckpointFields, counts: { toRewind: number; edited: number }, label: string = c.label): CheckpointRow {
  // In the order `checkpoints --json` prints its fields.
  return {
    id: c.id,
    time: c.time,
    kind: c.kind,
    label,
    session: c.session ?? null,
    agent: c.agent ?? null,
    toRewind: counts.toRewind,
    edited: counts.edited,
  };
}

/**
 * The one label of a checkpoint: as recorded, but a rewind checkpoint's is said from its target — a take
 * from or a switch to an attempt by that attempt's number, an undo or redo by the first point that is not a
 * rewind (old stores recorded nested labels). `tree` is asked only for a rewind to a rewind (rare).
 */
export function checkpointLabel(
  c: Pick<CheckpointRecord, 'id' | 'kind' | 'label' | 'target' | 'targetCall' | 'partial'>,
  look: RewindLookups,
  tree: () => AttemptTree,
  l10n: Localizer = ENGLISH,
): string {
  if (c.kind !== 'rewind') return c.label;
  if (c.target !== undefined && look.checkpoint(c.target)?.kind === 'rewind') {
    const n = attemptBroughtBy(tree(), c);
    if (n !== undefined) return attemptRewindLabel(n, !!c.partial, l10n);
  }
  return labelOfRewindCheckpoint(c, look, l10n);
}

/** A kind in words, for tooltips and quick picks (an unknown kind, from a newer store: as it is). */
export function kindName(kind: string, l10n: Localizer = ENGLISH): string {
  switch (kind) {
    case 'prompt':
      return l10n.t('Prompt');
    case 'session-start':
      return l10n.t('Session start');
    case 'before-tool':
      return l10n.t('Before a command that cannot be undone');
    case 'manual':
      return l10n.t('Manual checkpoint');
    case 'rewind':
      return l10n.t('Before a rewind');
    default:
      return kind;
  }
}

/** What a row says first: its label ("Before Bash: git push" for the checkpoint before a call), or its kind when it has none. */
export function rowTitle(row: Pick<CheckpointRow, 'kind' | 'label'>, l10n: Localizer = ENGLISH): string {
  if (row.kind === 'before-tool') return l10n.t('Before {0}', row.label);
  return row.label || kindName(row.kind, l10n);
}

/**
 * A checkpoint's line in the Files view, as its two parts: `lead` (the tree item's label) and `after` (what its
 * description starts with). The count leads the line, so it survives the default sidebar width — but a rewind's
 * bookkeeping row leads with its title, whose first words say the action ("Before undo of rewind to…", which
 * the count would push out of sight), and says its count after. The words are `rowTitle`'s, the CLI's label.
 */
export function rowLine(
  row: Pick<CheckpointRow, 'kind' | 'label' | 'toRewind'>,
  l10n: Localizer = ENGLISH,
): { lead: string; after?: string } {
  const count = rewindCountWords(row.toRewind, l10n);
  const title = treeLabel(rowTitle(row, l10n));
  return row.kind === 'rewind' ? { lead: title, after: count } : { lead: treeLabel(`${count} · ${title}`) };
}

/** "1 prompt" / "3 prompts". */
export function promptWords(n: number, l10n: Localizer = ENGLISH): string {
  return countWords(n, l10n.t('1 prompt'), l10n.t('{0} prompts', n));
}

/** "1 file" / "7 files". */
export function fileWords(n: number, l10n: Localizer = ENGLISH): string {
  return countWords(n, l10n.t('1 file'), l10n.t('{0} files', n));
}

/** "1 checkpoint" / "3 checkpoints". */
export function checkpointWords(n: number, l10n: Localizer = ENGLISH): string {
  return countWords(n, l10n.t('1 checkpoint'), l10n.t('{0} checkpoints', n));
}

/** "1 path" / "3 paths". */
export function pathWords(n: number, l10n: Localizer = ENGLISH): string {
  return countWords(n, l10n.t('1 path'), l10n.t('{0} paths', n));
}

/** "1 session" / "2 sessions". */
export function sessionWords(n: number, l10n: Localizer = ENGLISH): string {
  return countWords(n, l10n.t('1 session'), l10n.t('{0} sessions', n));
}

/** One attempt as a row: its counts are of its own work (attempts.ts ownWork), the same in the view, its tooltip and `attempts`. */
export interface AttemptRow {
  n: number;
  current: boolean;
  /** When it was left (ms), or null for the attempt in progress. */
  left: number | null;
  prompts: number;
  files: number;
  sessions: number;
  agents: string[];
  /** The label of its first own prompt, or null. */
  firstPrompt: string | null;
}

export function attemptRow(a: Attempt, own: OwnWork): AttemptRow {
  return {
    n: a.n,
    current: a.current,
    left: a.end?.time ?? null,
    prompts: own.prompts.length,
    files: own.files.length,
    sessions: own.sessions.length,
    agents: own.agents,
    firstPrompt: own.prompts[0]?.label ?? null,
  };
}

/** "Attempt 2". */
export function attemptTitle(n: number, l10n: Localizer = ENGLISH): string {
  return l10n.t('Attempt {0}', n);
}

/** "1 prompt · 7 files · left 5:30 AM" (`time` writes the moment: clockTime in the views, ISO in the CLI). */
export function attemptDescription(row: AttemptRow, time: (t: number) => string, l10n: Localizer = ENGLISH): string {
  return [
    promptWords(row.prompts, l10n),
    fileWords(row.files, l10n),
    row.left !== null ? l10n.t('left {0}', time(row.left)) : l10n.t('in progress'),
  ].join(' · ');
}

/** The timeline's counts: the status bar's and `status`'s. */
export interface TimelineCounts {
  checkpoints: number;
  /** The Files view's prompt rows. */
  prompts: number;
  /** Checkpoints taken before a call that cannot be undone (inside their prompt's row). */
  beforeCalls: number;
  sessionStarts: number;
  rewinds: number;
  manual: number;
  /** Agent sessions: a rewind, its undo, a take or a manual checkpoint is the user's own action, never a session. */
  sessions: number;
}

export function timelineCounts(cps: readonly Pick<CheckpointRecord, 'kind' | 'session'>[]): TimelineCounts {
  const n: TimelineCounts = { checkpoints: cps.length, prompts: 0, beforeCalls: 0, sessionStarts: 0, rewinds: 0, manual: 0, sessions: 0 };
  const sessions = new Set<string>();
  for (const c of cps) {
    if (c.kind === 'prompt') n.prompts++;
    else if (c.kind === 'before-tool') n.beforeCalls++;
    else if (c.kind === 'session-start') n.sessionStarts++;
    else if (c.kind === 'rewind') n.rewinds++;
    else if (c.kind === 'manual') n.manual++;
    if (c.session !== undefined && c.kind !== 'rewind' && c.kind !== 'manual') sessions.add(c.session);
  }
  n.sessions = sessions.size;
  return n;
}

/**
 * A grouped timeline's session group (the Files view groups a long timeline by session): its rows (newest first,
 * as given), what tells it apart — its agent, its newest prompt (the first row it shows, so "Load more" never hides
 * what names it), its time span — and its prompt count.
 */
export interface SessionGroupOf<T> {
  /** '' for the rows of no session (the user's own: rewinds, manual checkpoints). */
  session: string;
  /** The first agent its rows name, or ''. */
  agent: string;
  rows: T[];
  /** The row it is named after: its newest prompt, else its newest row. */
  title: T;
  prompts: number;
  oldest: number;
  newest: number;
}

/** What grouping reads of a row. */
export type GroupedRow = Pick<CheckpointRecord, 'kind' | 'session' | 'agent' | 'time'>;

/** Rows (newest first) grouped by session, in order of each session's newest row. */
export function sessionGroups<T>(rows: readonly T[], of: (row: T) => GroupedRow): SessionGroupOf<T>[] {
  const bySession = new Map<string, T[]>();
  for (const r of rows) {
    const s = of(r).session ?? '';
    const list = bySession.get(s);
    if (list) list.push(r);
    else bySession.set(s, [r]);
  }
  return [...bySession].map(([session, list]) => {
    const times = list.map((r) => of(r).time);
    return {
      session,
      agent: list.map((r) => of(r).agent).find((a) => a) ?? '',
      rows: list,
      title: list.find((r) => of(r).kind === 'prompt') ?? list[0]!,
      prompts: list.filter((r) => of(r).kind === 'prompt').length,
      oldest: Math.min(...times),
      newest: Math.max(...times),
    };
  });
}

/** "50 prompts · 5:02 AM–6:40 AM": its count (none for a group without a prompt), then its span (`time` writes a moment). */
export function sessionGroupDescription(
  g: Pick<SessionGroupOf<unknown>, 'prompts' | 'oldest' | 'newest'>,
  time: (t: number) => string,
  l10n: Localizer = ENGLISH,
): string {
  const span = g.oldest === g.newest || time(g.oldest) === time(g.newest) ? time(g.newest) : `${time(g.oldest)}–${time(g.newest)}`;
  return [g.prompts ? promptWords(g.prompts, l10n) : '', span].filter(Boolean).join(' · ');
}
