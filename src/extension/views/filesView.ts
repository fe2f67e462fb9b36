// The Files view: checkpoints newest first; under each, the files its span changed with +/-
// counts; a file opens the native diff between its states at both ends of the span. A long
// timeline (thousands of prompts) is grouped by session, each group's rows built only when it is
// expanded and shown a page at a time ("Load more"); a filter by prompt text lists the matches.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointKind } from '../../core/storeFiles/records';
import type { SpanChange } from '../../core/timeline/timeline';
import { agentInfo } from './agentInfo';
import type { Attempt } from '../../core/timeline/attempts';
import { attemptItem } from './attemptRows';
import { CMD, CTX } from '../commandIds';
import { countWords } from '../../shared/l10n';
import { oneLine, rewindCountWords, treeLabel } from '../../shared/text';
import { relativeTime } from './relativeTime';
import { clockTime } from '../../shared/time';
import { kindName as coreKindName, promptWords, rowTitle } from '../../core/timeline/presentation';
import { RowCounts, type RowStats } from './rowStats';
import { type CheckpointNode, describeSummary, type TimelineModel, type TurnNode } from '../model/timelineModel';

export type FilesElement =
  | { kind: 'checkpoint'; node: CheckpointNode }
  | { kind: 'file'; checkpointId: string; change: SpanChange }
  | { kind: 'session'; key: string; session: string; agent: string; title: string; turns: TurnNode[]; attempts?: Attempt[] }
  | { kind: 'more'; key: string; remaining: number }
  | { kind: 'attempt'; attempt: Attempt };

/** Above this many rows the root groups them by session; each group (and a filter's result) shows PAGE rows at a time. */
export const GROUP_AFTER = 200;
export const PAGE = 50;
const FILTER_KEY = 'filter:';

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

export class FilesView implements vscode.TreeDataProvider<FilesElement> {
  private readonly emitter = new vscode.EventEmitter<FilesElement | FilesElement[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly byId = new Map<string, FilesElement>();
  /** Rows shown per group (or filter), beyond the first page. */
  private readonly shown = new Map<string, number>();
  private groups: FilesElement[] | undefined;
  /** Whether checkpoints of more than one agent are on the timeline (then each row names its agent). */
  private several: boolean | undefined;
  private filterText = '';
  /** The tree, for its message (set by the composition root). */
  tree: vscode.TreeView<FilesElement> | undefined;

  /** File rows and their counts (drawn again when the counts are in). */
  private readonly counts: RowCounts<FilesElement>;

  constructor(
    private readonly model: TimelineModel,
    stats: RowStats,
  ) {
    this.counts = new RowCounts(stats, (rows) => this.emitter.fire(rows));
    model.onDidChange(() => {
      this.byId.clear();
      this.counts.forget(); // every row is drawn again
      this.groups = undefined;
      this.several = undefined;
      this.emitter.fire(undefined);
    });
  }

  /** Lists only the prompts whose text contains `text` (any case); empty: everything again. */
  setFilter(text: string): void {
    this.filterText = text.trim();
    this.shown.delete(FILTER_KEY);
    this.byId.clear();
    void vscode.commands.executeCommand('setContext', CTX.filtered, this.filterText !== '');
    if (this.tree)
      this.tree.message = this.filterText ? vscode.l10n.t('Prompts containing "{0}"', oneLine(this.filterText, 60)) : undefined;
    this.emitter.fire(undefined);
  }

  get filter(): string {
    return this.filterText;
  }

  /** Shows the next page of a group (or of the filter's matches). */
  loadMore(key: string): void {
    this.shown.set(key, (this.shown.get(key) ?? PAGE) + PAGE);
    const group = this.byId.get(key);
    this.emitter.fire(group && group.kind === 'session' ? group : undefined);
  }

  /** True when rows are grouped (and their counts kept cheap): a timeline of more than GROUP_AFTER rows. */
  get large(): boolean {
    return this.model.turns.length > GROUP_AFTER;
  }

  private get severalAgents(): boolean {
    return (this.several ??= new Set(this.model.checkpoints.map((n) => n.checkpoint.agent).filter(Boolean)).size > 1);
  }

  getChildren(el?: FilesElement): FilesElement[] {
    if (!el) {
      const turns = this.model.turns;
      if (this.filterText) {
        const f = this.filterText.toLowerCase();
        return this.page(
          FILTER_KEY,
          turns.filter((t) => t.node.label.toLowerCase().includes(f)),
        );
      }
      // The line that leads to the attempt in progress; every other attempt is one row where it left the line.
      if (!this.large) return this.lineRows(this.lineTurns(), this.model.attemptRows());
      return (this.groups ??= this.sessionGroups(this.lineTurns()));
    }
    if (el.kind === 'session') return [...(el.attempts ?? []).map((a) => this.attemptElement(a)), ...this.page(el.key, el.turns)];
    if (el.kind === 'attempt')
      return this.model.attemptTurns(el.attempt.n).map((t) => this.remember(t.node.checkpoint.id, { kind: 'checkpoint', node: t.node }));
    if (el.kind === 'file' || el.kind === 'more') return [];
    const id = el.node.checkpoint.id;
    const turn = this.model.turnOf(id);
    // A prompt's row holds its turn: the checkpoints inside it and what the turn edited.
    const files = (turn ? this.model.turnFiles(id) : this.model.spanFiles(id)).map((change) =>
      this.remember(`${id}/${change.path}`, { kind: 'file', checkpointId: id, change }),
    );
    const inside = (turn?.inside ?? []).map((node) => this.remember(node.checkpoint.id, { kind: 'checkpoint', node }));
    return [...inside, ...files];
  }

  private lineTurns(): TurnNode[] {
    return this.model.turns.filter((t) => this.model.onLine(t));
  }

  /** Rows of the line and attempt rows, newest first: an attempt's row just above the row it branched after. */
  private lineRows(line: readonly TurnNode[], attempts: { attempt: Attempt; at: number }[]): FilesElement[] {
    const rows: { at: number; el: FilesElement }[] = line.map((t) => ({
      at: t.node.checkpoint.seq,
      el: this.remember(t.node.checkpoint.id, { kind: 'checkpoint', node: t.node }),
    }));
    for (const r of attempts) rows.push({ at: r.at + 0.5, el: this.attemptElement(r.attempt) });
    return rows.sort((a, b) => b.at - a.at).map((r) => r.el);
  }

  private attemptElement(attempt: Attempt): FilesElement {
    return this.remember(`attempt:${attempt.n}`, { kind: 'attempt', attempt });
  }

  /** The first rows of `turns` (PAGE more per Load more), and a Load more row when some are left. */
  private page(key: string, turns: readonly TurnNode[]): FilesElement[] {
    const n = this.shown.get(key) ?? PAGE;
    const rows = turns.slice(0, n).map((t) => this.remember(t.node.checkpoint.id, { kind: 'checkpoint', node: t.node }));
    if (turns.length > n) rows.push(this.remember(`more:${key}`, { kind: 'more', key, remaining: turns.length - n }));
    return rows;
  }

  /** One group per session, the most recently active first; rows inside newest first, its session's earlier attempts first. */
  private sessionGroups(turns: readonly TurnNode[]): FilesElement[] {
    const groups = this.turnGroups(turns);
    const rest: FilesElement[] = [];
    for (const { attempt } of this.model.attemptRows()) {
      const g = groups.find((el) => el.kind === 'session' && el.session === (attempt.sessions[0] ?? ''));
      if (g?.kind === 'session') (g.attempts ??= []).unshift(attempt);
      else rest.push(this.attemptElement(attempt));
    }
    return [...rest, ...groups];
  }

  private turnGroups(turns: readonly TurnNode[]): FilesElement[] {
    const bySession = new Map<string, TurnNode[]>();
    for (const t of turns) {
      const s = t.node.checkpoint.session ?? '';
      const list = bySession.get(s);
      if (list) list.push(t);
      else bySession.set(s, [t]);
    }
    return [...bySession].map(([session, list]) => {
      const first = [...list].reverse().find((t) => t.node.checkpoint.kind === 'prompt') ?? list[list.length - 1]!;
      const agent = list.find((t) => t.node.checkpoint.agent)?.node.checkpoint.agent ?? '';
      const title = treeLabel(`${agentInfo(agent).name} · ${first.node.label || 'Session'}`);
      return this.remember(`session:${session}`, {
        kind: 'session',
        key: `session:${session}`,
        session,
        agent,
        title,
        turns: list,
        attempts: [],
      });
    });
  }

  private hasChildren(node: CheckpointNode): boolean {
    if (this.large) return true; // decided when expanded: a row's children cost a scan of the log
    const turn = this.model.turnOf(node.checkpoint.id);
    if (!turn) return node.fileCount > 0;
    return turn.inside.length > 0 || this.model.turnFiles(node.checkpoint.id).length > 0;
  }

  private remember(id: string, el: FilesElement): FilesElement {
    const known = this.byId.get(id);
    if (known && known.kind === el.kind) {
      Object.assign(known, el);
      return known;
    }
    this.byId.set(id, el);
    return el;
  }

  /** The element of a checkpoint, for reveal(). */
  checkpointElement(id: string): FilesElement | undefined {
    const node = this.model.find(id);
    return node ? this.remember(id, { kind: 'checkpoint', node }) : undefined;
  }

  getParent(el: FilesElement): FilesElement | undefined {
    if (el.kind === 'session') return undefined;
    if (el.kind === 'attempt') {
      if (!this.large || this.filterText) return undefined;
      const groups = (this.groups ??= this.sessionGroups(this.lineTurns()));
      return groups.find((g) => g.kind === 'session' && !!g.attempts?.some((a) => a.n === el.attempt.n));
    }
    if (el.kind === 'more') return el.key === FILTER_KEY ? undefined : this.byId.get(el.key);
    if (el.kind === 'file') return this.checkpointElement(el.checkpointId);
    const parent = this.model.parentTurn(el.node.checkpoint.id);
    if (parent) return this.checkpointElement(parent.node.checkpoint.id);
    if (this.filterText) return undefined;
    const turn = this.model.turnOf(el.node.checkpoint.id);
    const owner = this.model.attempts.attemptOf.get(el.node.checkpoint.id);
    if (turn && owner !== undefined && !this.model.onLine(turn)) {
      const attempt = this.model.attempts.attempts[owner - 1];
      return attempt && this.attemptElement(attempt);
    }
    if (!this.large) return undefined;
    // A prompt's row in a grouped timeline: its session's group (shown far enough to hold it).
    const groups = (this.groups ??= this.sessionGroups(this.lineTurns()));
    const group = groups.find((g) => g.kind === 'session' && g.session === (el.node.checkpoint.session ?? ''));
    if (group?.kind === 'session') {
      const at = group.turns.findIndex((t) => t.node.checkpoint.id === el.node.checkpoint.id);
      if (at >= (this.shown.get(group.key) ?? PAGE)) this.shown.set(group.key, Math.ceil((at + 1) / PAGE) * PAGE);
    }
    return group;
  }

  getTreeItem(el: FilesElement): vscode.TreeItem {
    if (el.kind === 'attempt')
      return attemptItem(el.attempt, this.model.attemptTurns(el.attempt.n), this.model.attemptOwnWork(el.attempt.n)!);
    if (el.kind === 'session') {
      const item = new vscode.TreeItem(el.title, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = el.key;
      const newest = el.turns[0]!.node.checkpoint;
      const prompts = el.turns.filter((t) => t.node.checkpoint.kind === 'prompt').length;
      item.description = `${promptWords(prompts, vscode.l10n)} · ${relativeTime(newest.time)}`;
      item.iconPath = agentInfo(el.agent).icon;
      item.contextValue = 'agentRewind.sessionGroup';
      item.tooltip = new vscode.MarkdownString().appendText(
        `${el.title}\n${vscode.l10n.t('Session {0}', el.session || vscode.l10n.t('(none)'))}`,
      );
      return item;
    }
    if (el.kind === 'more') {
      const item = new vscode.TreeItem(vscode.l10n.t('Load {0} more', Math.min(PAGE, el.remaining)), vscode.TreeItemCollapsibleState.None);
      item.id = `more:${el.key}`;
      item.description = vscode.l10n.t('{0} not shown', el.remaining);
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.contextValue = 'agentRewind.loadMore';
      item.command = { command: CMD.loadMore, title: vscode.l10n.t('Load More'), arguments: [el.key] };
      return item;
    }
    if (el.kind === 'checkpoint') {
      const { node } = el;
      const c = node.checkpoint;
      const item = new vscode.TreeItem(
        checkpointLabel(node),
        this.hasChildren(node) ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.id = c.id;
      const turn = this.model.turnOf(c.id);
      if (this.large) return this.largeItem(item, node);
      // One count everywhere: what a rewind to this point would change (the row `checkpoints --json` prints; the preview says the same).
      const row = this.model.row(c.id)!;
      const sum = this.model.rewindSummary(c.id);
      const edited = turn ? this.model.turnFiles(c.id).length : node.fileCount;
      const count = rewindCountWords(row.toRewind, vscode.l10n);
      // The count first: at the default sidebar width it is what stays visible after the label.
      const agent = c.agent ? agentInfo(c.agent).name : undefined;
      item.description = `${count} · ${relativeTime(c.time)}${agent && this.severalAgents ? ` · ${agent}` : ''}`;
      const [kindIcon, color] = ICONS[c.kind] ?? ['circle-outline'];
      // With several agents on the timeline a prompt shows whose it was by its agent's icon.
      const icon =
        agent && this.severalAgents && (c.kind === 'prompt' || c.kind === 'session-start') ? agentInfo(c.agent!).codicon : kindIcon;
      // A row a rewind would not change is de-emphasised: its icon is greyed.
      item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(sum.total === 0 ? 'disabledForeground' : (color ?? 'foreground')));
      item.contextValue = `agentRewind.checkpoint.${c.kind}${node.isLastRewind ? '.lastRewind' : ''}`;
      const tip = new vscode.MarkdownString();
      tip.appendMarkdown(`**${kindName(c.kind)}** · ${clockTime(row.time)}\n\n`);
      tip.appendText(row.label.slice(0, 1000));
      tip.appendMarkdown(`\n\n${describeSummary(sum, vscode.l10n)}.`);
      if (edited) tip.appendMarkdown(`\n\n${editedWords(turn !== undefined && c.kind === 'prompt', edited)}`);
      // Agent-provided strings (labels, session ids) go in as text: never markdown, links or command URIs.
      if (c.session)
        tip
          .appendMarkdown('\n\n')
          .appendText(
            agent ? vscode.l10n.t('{0} session {1}', agent, c.session.slice(0, 8)) : vscode.l10n.t('Session {0}', c.session.slice(0, 8)),
          );
      item.tooltip = tip;
      item.accessibilityInformation = {
        label: `${checkpointLabel(node)}, ${kindName(c.kind).toLowerCase()}, ${relativeTime(c.time)}, ${count}${agent && this.severalAgents ? `, ${agent}` : ''}`,
      };
      return item;
    }
    const { change } = el;
    const rel = this.model.relative(change.path);
    const item = new vscode.TreeItem(path.basename(change.path), vscode.TreeItemCollapsibleState.None);
    item.id = `${el.checkpointId}/${change.path}`;
    item.resourceUri = vscode.Uri.file(change.path);
    const dir = path.dirname(rel);
    const what = this.counts.words(el, change);
    item.description = `${dir === '.' ? '' : dir + ' · '}${what}`;
    item.contextValue = 'agentRewind.file';
    item.tooltip = new vscode.MarkdownString().appendText(`${change.path}\n${what}`);
    item.command = { command: CMD.openFileDiff, title: vscode.l10n.t('Open Changes'), arguments: [el] };
    return item;
  }

  /** A row of a grouped timeline: the same count (one sweep counts every row), a shorter tooltip. */
  private largeItem(item: vscode.TreeItem, node: CheckpointNode): vscode.TreeItem {
    const c = node.checkpoint;
    const row = this.model.row(c.id)!;
    const count = rewindCountWords(row.toRewind, vscode.l10n);
    item.description = `${count} · ${relativeTime(row.time)}`;
    const [icon, color] = ICONS[c.kind] ?? ['circle-outline'];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = `agentRewind.checkpoint.${c.kind}${node.isLastRewind ? '.lastRewind' : ''}`;
    const tip = new vscode.MarkdownString();
    tip.appendMarkdown(`**${kindName(c.kind)}** · ${clockTime(row.time)}\n\n`);
    tip.appendText(row.label.slice(0, 1000));
    tip.appendMarkdown(`\n\n${vscode.l10n.t('Preview Rewind says what a rewind to this point would change.')}`);
    item.tooltip = tip;
    item.accessibilityInformation = {
      label: `${checkpointLabel(node)}, ${kindName(c.kind).toLowerCase()}, ${relativeTime(c.time)}, ${count}`,
    };
    return item;
  }
}

/** "This turn edited 3 files." (a prompt's row) or "After this point, until the next checkpoint, the agent edited 1 file." */
function editedWords(ownTurn: boolean, n: number): string {
  if (ownTurn) return countWords(n, vscode.l10n.t('This turn edited 1 file.'), vscode.l10n.t('This turn edited {0} files.', n));
  return countWords(
    n,
    vscode.l10n.t('After this point, until the next checkpoint, the agent edited 1 file.'),
    vscode.l10n.t('After this point, until the next checkpoint, the agent edited {0} files.', n),
  );
}
