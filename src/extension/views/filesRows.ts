// The Files view's rows, one small class per kind: a checkpoint (a prompt's turn, a session start, a
// step, a manual or rewind checkpoint), a file of its span, a session's group, "Load more", an
// attempt. Each holds what it shows and draws its own tree item; which rows exist and in what order
// is the view's (filesView.ts).
import * as vscode from 'vscode';
import type { CheckpointKind } from '../../core/storeFiles/records';
import type { Attempt } from '../../core/timeline/attempts';
import type { SpanChange } from '../../core/timeline/timeline';
import { countWords } from '../../shared/l10n';
import { oneLine, rewindCountWords, treeLabel } from '../../shared/text';
import { CMD } from '../commandIds';
import { type CheckpointNode, describeSummary, type TimelineModel, type TurnNode } from '../model/timelineModel';
import { agentInfo } from './agentInfo';
import { attemptItem } from './attemptRows';
import { clockTime } from '../../shared/time';
import {
  kindName as coreKindName,
  rowLine,
  rowTitle,
  sessionGroupDescription,
  type SessionGroupOf,
} from '../../core/timeline/presentation';
import { relativeTime } from './relativeTime';
import type { RowCounts } from './rowStats';
import { describeRow, fileRowItem, textTip } from './rowTip';

/** Rows shown per group (or filter) at a time; "Load more" shows as many again. */
export const PAGE = 50;

const ICONS: Record<CheckpointKind, [string, string?]> = {
  prompt: ['comment'],
  'session-start': ['debug-start'],
  'before-tool': ['warning', 'editorWarning.foreground'],
  manual: ['bookmark'],
  rewind: ['history', 'charts.blue'],
};

/** The kind in words, for tooltips and quick picks (core/timeline/presentation.ts). */
export function kindName(kind: CheckpointKind): string {
  return coreKindName(kind, vscode.l10n);
}

/** A row's label: cut by the tree at the sidebar's edge (treeLabel), or to `width` where no tree cuts it (quick picks). */
export function checkpointLabel(n: CheckpointNode, width?: number): string {
  const title = rowTitle({ kind: n.checkpoint.kind, label: n.label }, vscode.l10n);
  return width ? oneLine(title, width) : treeLabel(title);
}

/** What a row needs of its view to draw itself. */
export interface RowContext {
  readonly model: TimelineModel;
  /** A grouped timeline (more than GROUP_AFTER rows): counts kept cheap, tooltips shorter. */
  readonly large: boolean;
  /** Checkpoints of more than one agent are on the timeline (then each row names its agent). */
  readonly severalAgents: boolean;
  readonly counts: RowCounts<FilesElement>;
  /** Rows the user opened: drawn open again when the tree is rebuilt (a filter cleared). */
  readonly open: ReadonlySet<string>;
}

/** No arrow on a row with nothing under it; open when the user had it open. */
function collapsible(ctx: RowContext, id: string, hasChildren: boolean): vscode.TreeItemCollapsibleState {
  if (!hasChildren) return vscode.TreeItemCollapsibleState.None;
  return ctx.open.has(id) ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
}

/** Whether a checkpoint's row has children: the checkpoints inside its turn, or files its turn (or span) changed. */
export function rowHasChildren(model: TimelineModel, node: CheckpointNode): boolean {
  const turn = model.turnOf(node.checkpoint.id);
  // A step inside a turn lists no files: its prompt's row lists the turn's (one list, not two).
  if (!turn) return !model.parentTurn(node.checkpoint.id) && node.fileCount > 0;
  // From the per-checkpoint file counts made at reload: no scan of the log to draw an arrow.
  return turn.inside.length > 0 || node.fileCount > 0 || turn.turn.inside.some((c) => (model.find(c.id)?.fileCount ?? 0) > 0);
}

export class CheckpointRow {
  readonly kind = 'checkpoint';
  constructor(public node: CheckpointNode) {}

  get id(): string {
    return this.node.checkpoint.id;
  }

  item(ctx: RowContext): vscode.TreeItem {
    const { node } = this;
    const c = node.checkpoint;
    const { model } = ctx;
    const sum = model.rewindSummary(c.id);
    // One count everywhere: what a rewind to this point would change (the row `checkpoints --json` prints; the preview says the same).
    const row = model.row(c.id)!;
    const count = rewindCountWords(row.toRewind, vscode.l10n);
    // The count leads the row (at the default sidebar width a long prompt hides everything after it); a rewind's row leads with its action.
    const line = rowLine(row, vscode.l10n);
    const item = new vscode.TreeItem(line.lead, collapsible(ctx, c.id, rowHasChildren(model, node)));
    item.id = c.id;
    const agent = c.agent && ctx.severalAgents && !ctx.large ? agentInfo(c.agent).name : undefined;
    item.description = [line.after, relativeTime(row.time), agent].filter(Boolean).join(' · ');
    const [kindIcon, color] = ICONS[c.kind] ?? ['circle-outline'];
    // With several agents on the timeline a prompt shows whose it was by its agent's icon.
    const icon = agent && (c.kind === 'prompt' || c.kind === 'session-start') ? agentInfo(c.agent!).codicon : kindIcon;
    // A row a rewind would not change is de-emphasised: its icon is greyed.
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(sum.total === 0 ? 'disabledForeground' : (color ?? 'foreground')));
    item.contextValue = `agentRewind.checkpoint.${c.kind}${node.isLastRewind ? '.lastRewind' : ''}${node.folded.length ? '.folded' : ''}`;
    const tip = new vscode.MarkdownString();
    tip.appendMarkdown(`**${kindName(c.kind)}** · ${clockTime(row.time)}\n\n`);
    tip.appendText(row.label.slice(0, 1000));
    if (ctx.large) tip.appendMarkdown(`\n\n${vscode.l10n.t('Preview Rewind says what a rewind to this point would change.')}`);
    else {
      tip.appendMarkdown(`\n\n${describeSummary(sum, vscode.l10n)}.`);
      const turn = model.turnOf(c.id);
      const edited = turn ? model.turnFiles(c.id).length : node.fileCount;
      if (edited) tip.appendMarkdown(`\n\n${editedWords(turn !== undefined && c.kind === 'prompt', edited)}`);
      // Agent-provided strings (labels, session ids) go in as text: never markdown, links or command URIs.
      if (c.session)
        tip
          .appendMarkdown('\n\n')
          .appendText(
            agent ? vscode.l10n.t('{0} session {1}', agent, c.session.slice(0, 8)) : vscode.l10n.t('Session {0}', c.session.slice(0, 8)),
          );
    }
    if (node.folded.length) {
      // The checkpoints this row stands for (same files): each still a rewind target ("Rewind to…" on this row).
      tip.appendMarkdown(`\n\n${vscode.l10n.t('Same files as this row, also rewind targets (Rewind to…):')}`);
      for (const f of node.folded) tip.appendMarkdown('\n- ').appendText(`${checkpointLabel(f, 120)} · ${clockTime(f.checkpoint.time)}`);
    }
    return describeRow(
      item,
      tip,
      `${checkpointLabel(node)}, ${kindName(c.kind).toLowerCase()}, ${relativeTime(c.time)}, ${count}${agent ? `, ${agent}` : ''}`,
    );
  }
}

export class FileRow {
  readonly kind = 'file';
  constructor(
    public checkpointId: string,
    public change: SpanChange,
  ) {}

  item(ctx: RowContext): vscode.TreeItem {
    const { change } = this;
    const what = ctx.counts.words(this, change);
    const item = fileRowItem(change.path, ctx.model.relative(change.path), what, what);
    item.id = `${this.checkpointId}/${change.path}`;
    item.contextValue = 'agentRewind.file';
    item.command = { command: CMD.openFileDiff, title: vscode.l10n.t('Open Changes'), arguments: [this] };
    return item;
  }
}

/** One session's rows of a grouped timeline (rows newest first), with its earlier attempts: the model's group (presentation.ts), drawn. */
export class SessionGroup {
  readonly kind = 'session';
  constructor(
    public key: string,
    public group: SessionGroupOf<TurnNode>,
    public attempts: Attempt[] = [],
  ) {}

  get session(): string {
    return this.group.session;
  }

  get agent(): string {
    return this.group.agent;
  }

  get turns(): TurnNode[] {
    return this.group.rows;
  }

  /** What tells it apart: its newest prompt (the first row it shows, so Load more never hides it), else its newest row. */
  get title(): string {
    return treeLabel(checkpointLabel(this.group.title.node));
  }

  item(ctx: RowContext): vscode.TreeItem {
    const item = new vscode.TreeItem(this.title, collapsible(ctx, this.key, true));
    item.id = this.key;
    const { oldest, newest } = this.group;
    // Its time span tells it from a group of the same agent; a group without a prompt says no count at all.
    item.description = sessionGroupDescription(this.group, (t) => clockTime(t), vscode.l10n);
    const agent = agentInfo(this.agent);
    // The agent is its icon (and in the tooltip): the label keeps its width for what differs between groups.
    item.iconPath = agent.icon;
    item.contextValue = 'agentRewind.sessionGroup';
    return describeRow(
      item,
      textTip(
        `${agent.name} · ${this.title}\n${vscode.l10n.t('Session {0}', this.session || vscode.l10n.t('(none)'))}\n${clockTime(oldest)} – ${clockTime(newest)}`,
      ),
      `${agent.name}, ${this.title}, ${String(item.description)}`,
    );
  }
}

export class MoreRow {
  readonly kind = 'more';
  constructor(
    public key: string,
    public remaining: number,
  ) {}

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Load {0} more', Math.min(PAGE, this.remaining)), vscode.TreeItemCollapsibleState.None);
    item.id = `more:${this.key}`;
    item.description = vscode.l10n.t('{0} not shown', this.remaining);
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.contextValue = 'agentRewind.loadMore';
    item.command = { command: CMD.loadMore, title: vscode.l10n.t('Load More'), arguments: [this.key] };
    return item;
  }
}

export class AttemptRow {
  readonly kind = 'attempt';
  constructor(public attempt: Attempt) {}

  item(ctx: RowContext): vscode.TreeItem {
    const n = this.attempt.n;
    const item = attemptItem(this.attempt, ctx.model.attemptTurns(n), ctx.model.attemptOwnWork(n)!);
    if (item.collapsibleState !== vscode.TreeItemCollapsibleState.None) item.collapsibleState = collapsible(ctx, `attempt:${n}`, true);
    return item;
  }
}

export type FilesElement = CheckpointRow | FileRow | SessionGroup | MoreRow | AttemptRow;

/** "This turn edited 3 files." (a prompt's row) or "After this point, until the next checkpoint, the agent edited 1 file." */
function editedWords(ownTurn: boolean, n: number): string {
  if (ownTurn) return countWords(n, vscode.l10n.t('This turn edited 1 file.'), vscode.l10n.t('This turn edited {0} files.', n));
  return countWords(
    n,
    vscode.l10n.t('After this point, until the next checkpoint, the agent edited 1 file.'),
    vscode.l10n.t('After this point, until the next checkpoint, the agent edited {0} files.', n),
  );
}
