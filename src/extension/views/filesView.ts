// The Files view: checkpoints newest first, as a story: rows of identical workspace state fold into
// one (core/timeline/folding.ts), rewind bookkeeping sits on the line, every earlier attempt is one
// row where it left the line. Under a prompt, the steps inside its turn and the files the turn
// changed with +/- counts; a file opens the native diff between its states at both ends. A long
// timeline (thousands of prompts) is grouped by session, each group's rows built only when it is
// expanded and shown a page at a time ("Load more"); a filter by prompt text lists the matches.
// The rows themselves (what each says) are filesRows.ts.
import * as vscode from 'vscode';
import type { Attempt } from '../../core/timeline/attempts';
import { sessionGroups } from '../../core/timeline/presentation';
import { countWords } from '../../shared/l10n';
import { oneLine } from '../../shared/text';
import { CTX } from '../commandIds';
import type { TimelineModel, TurnNode } from '../model/timelineModel';
import {
  AttemptRow,
  CheckpointRow,
  type FilesElement,
  FileRow,
  MoreRow,
  PAGE,
  type RowContext,
  rowHasChildren,
  SessionGroup,
} from './filesRows';
import { RowCounts, type RowStats } from './rowStats';

export { checkpointLabel, type FilesElement, FileRow, kindName, PAGE } from './filesRows';

/** Above this many rows the root groups them by session; each group (and a filter's result) shows PAGE rows at a time. */
export const GROUP_AFTER = 200;
const FILTER_KEY = 'filter:';

export class FilesView implements vscode.TreeDataProvider<FilesElement>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<FilesElement | FilesElement[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly byId = new Map<string, FilesElement>();
  /** Rows shown per group (or filter), beyond the first page. */
  private readonly shown = new Map<string, number>();
  /** Ids of the rows the user has open (kept while a filter hides them). */
  private readonly open = new Set<string>();
  private groups: FilesElement[] | undefined;
  /** Whether checkpoints of more than one agent are on the timeline (then each row names its agent). */
  private several: boolean | undefined;
  private filterText = '';
  private treeView: vscode.TreeView<FilesElement> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  /** File rows and their counts (drawn again when the counts are in). */
  private readonly counts: RowCounts<FilesElement>;

  constructor(
    private readonly model: TimelineModel,
    stats: RowStats,
  ) {
    this.counts = new RowCounts(stats, (rows) => this.emitter.fire(rows));
    this.disposables.push(
      this.emitter,
      this.counts,
      model.onDidChange(() => {
        this.byId.clear();
        this.counts.forget(); // every row is drawn again
        this.groups = undefined;
        this.several = undefined;
        this.emitter.fire(undefined);
      }),
    );
  }

  /** The tree that shows this view (set by the composition root): its message, and which rows are open. */
  set tree(tree: vscode.TreeView<FilesElement> | undefined) {
    this.treeView = tree;
    if (!tree) return;
    this.disposables.push(
      tree.onDidExpandElement((e) => this.open.add(this.keyOf(e.element))),
      tree.onDidCollapseElement((e) => this.open.delete(this.keyOf(e.element))),
    );
  }

  get tree(): vscode.TreeView<FilesElement> | undefined {
    return this.treeView;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private keyOf(el: FilesElement): string {
    if (el.kind === 'checkpoint') return el.node.checkpoint.id;
    if (el.kind === 'session') return el.key;
    if (el.kind === 'attempt') return `attempt:${el.attempt.n}`;
    return '';
  }

  private get ctx(): RowContext {
    return { model: this.model, large: this.large, severalAgents: this.severalAgents, counts: this.counts, open: this.open };
  }

  /** Lists only the prompts whose text contains `text` (any case); empty: everything again, opened as it was. */
  setFilter(text: string): void {
    this.filterText = text.trim();
    this.shown.delete(FILTER_KEY);
    this.byId.clear();
    void vscode.commands.executeCommand('setContext', CTX.filtered, this.filterText !== '');
    if (this.treeView) this.treeView.message = this.filterMessage();
    this.emitter.fire(undefined);
  }

  /** 'Prompts containing "x": 3 matches' (undefined without a filter). */
  filterMessage(): string | undefined {
    if (!this.filterText) return undefined;
    const n = this.matches().length;
    const what = oneLine(this.filterText, 60);
    return countWords(
      n,
      vscode.l10n.t('Prompts containing "{0}": 1 match', what),
      vscode.l10n.t('Prompts containing "{0}": {1} matches', what, n),
    );
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

  private matches(): readonly TurnNode[] {
    const f = this.filterText.toLowerCase();
    return this.model.turns.filter((t) => t.node.label.toLowerCase().includes(f));
  }

  getChildren(el?: FilesElement): FilesElement[] {
    if (!el) {
      if (this.filterText) return this.page(FILTER_KEY, this.matches());
      // The line that leads to the attempt in progress; every other attempt is one row where it left the line.
      if (!this.large) return this.lineRows(this.lineTurns(), this.model.attemptRows());
      return (this.groups ??= this.sessionGroups(this.lineTurns()));
    }
    if (el.kind === 'session') return [...el.attempts.map((a) => this.attemptElement(a)), ...this.page(el.key, el.turns)];
    if (el.kind === 'attempt') return this.model.attemptTurns(el.attempt.n).map((t) => this.checkpointRow(t.node.checkpoint.id));
    if (el.kind === 'file' || el.kind === 'more') return [];
    const id = el.node.checkpoint.id;
    if (!rowHasChildren(this.model, el.node)) return [];
    const turn = this.model.turnOf(id);
    // A prompt's row holds its turn: the steps inside it (in the order they happened) and what the turn edited.
    const files = (turn ? this.model.turnFiles(id) : this.model.spanFiles(id)).map((change) =>
      this.remember(`${id}/${change.path}`, new FileRow(id, change)),
    );
    const inside = (turn?.inside ?? []).map((node) => this.checkpointRow(node.checkpoint.id));
    return [...inside, ...files];
  }

  private checkpointRow(id: string): FilesElement {
    return this.remember(id, new CheckpointRow(this.model.find(id)!));
  }

  private lineTurns(): TurnNode[] {
    return this.model.turns.filter((t) => this.model.onLine(t));
  }

  /** Rows of the line and attempt rows, newest first: an attempt's row just above the row it branched after. */
  private lineRows(line: readonly TurnNode[], attempts: { attempt: Attempt; at: number }[]): FilesElement[] {
    const rows: { at: number; el: FilesElement }[] = line.map((t) => ({
      at: t.node.checkpoint.seq,
      el: this.checkpointRow(t.node.checkpoint.id),
    }));
    for (const r of attempts) rows.push({ at: r.at + 0.5, el: this.attemptElement(r.attempt) });
    return rows.sort((a, b) => b.at - a.at).map((r) => r.el);
  }

  private attemptElement(attempt: Attempt): FilesElement {
    return this.remember(`attempt:${attempt.n}`, new AttemptRow(attempt));
  }

  /** The first rows of `turns` (PAGE more per Load more), and a Load more row when some are left. */
  private page(key: string, turns: readonly TurnNode[]): FilesElement[] {
    const n = this.shown.get(key) ?? PAGE;
    const rows = turns.slice(0, n).map((t) => this.checkpointRow(t.node.checkpoint.id));
    if (turns.length > n) rows.push(this.remember(`more:${key}`, new MoreRow(key, turns.length - n)));
    return rows;
  }

  /** One group per session, the most recently active first; rows inside newest first, its session's earlier attempts first. */
  private sessionGroups(turns: readonly TurnNode[]): FilesElement[] {
    const groups = this.turnGroups(turns);
    const rest: FilesElement[] = [];
    for (const { attempt } of this.model.attemptRows()) {
      const g = groups.find((el) => el.session === (attempt.sessions[0] ?? ''));
      if (g) g.attempts.unshift(attempt);
      else rest.push(this.attemptElement(attempt));
    }
    return [...rest, ...groups];
  }

  private turnGroups(turns: readonly TurnNode[]): SessionGroup[] {
    // The grouping is the model's (presentation.ts): the view only draws it.
    return sessionGroups(turns, (t) => t.node.checkpoint).map((g) => {
      const key = `session:${g.session}`;
      return this.remember(key, new SessionGroup(key, g)) as SessionGroup;
    });
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

  /** The element of a checkpoint's row, for reveal(): a folded checkpoint's is the row it is folded into. */
  checkpointElement(id: string): FilesElement | undefined {
    const row = this.model.rowOf(id);
    return this.model.find(row) ? this.checkpointRow(row) : undefined;
  }

  getParent(el: FilesElement): FilesElement | undefined {
    if (el.kind === 'session') return undefined;
    if (el.kind === 'attempt') {
      if (!this.large || this.filterText) return undefined;
      const groups = (this.groups ??= this.sessionGroups(this.lineTurns()));
      return groups.find((g) => g.kind === 'session' && g.attempts.some((a) => a.n === el.attempt.n));
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
    return el.item(this.ctx);
  }
}
