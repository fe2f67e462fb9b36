// The extension's view of one store: the records (the appended lines read when the watcher fires), checkpoints
// newest first, span files with line counts (cached by content pair), and change events.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { IncrementalLog } from '../../core/storeFiles/logTail';
import type { CheckpointRecord, Sequenced } from '../../core/storeFiles/records';
import { type LoggedSession, sessionsFromLog } from '../../core/timeline/sessionsFromLog';
import type { Store } from '../../core/store';
import { computeChanges } from '../../core/timeline/changeSet';
import { rewindSumsOf } from '../../core/rewind/plan';
import { IncrementalStretches } from '../../core/timeline/rewindCounts';
import { groupTurns, type RewindSummary, type Turn, turnChanges } from '../../core/timeline/turns';
export { describeSummary, type RewindSummary } from '../../core/timeline/turns';
import {
  attemptBroughtBy,
  type AttemptTree,
  buildAttempts,
  type LineView,
  lineView,
  type OwnWork,
  ownWorkOfAll,
} from '../../core/timeline/attempts';
import { foldRows } from '../../core/timeline/folding';
import { GrowingFolds } from '../../core/timeline/growingLog';
import { checkpoints, recordedFoldersOf, type SpanChange, spanChanges } from '../../core/timeline/timeline';
import { type RewindLookups, rewindLookups, type RewindMeaning, rewindMeaning } from '../../core/timeline/rewindLabels';
import {
  attemptRow,
  type AttemptRow,
  checkpointLabel,
  checkpointRow,
  type CheckpointRow,
  timelineCounts,
  type TimelineCounts,
} from '../../core/timeline/presentation';

export interface CheckpointNode {
  checkpoint: Sequenced<CheckpointRecord>;
  fileCount: number;
  /** What the row says: the checkpoint's label, or for a rewind one computed from its target (never nested). */
  label: string;
  /** The newest rewind checkpoint: undo target. */
  isLastRewind: boolean;
  /** Checkpoints of identical workspace state folded into this row (core/timeline/folding.ts), oldest first. */
  folded: CheckpointNode[];
}

export interface TurnNode {
  node: CheckpointNode;
  inside: CheckpointNode[];
  turn: Turn;
}

export class TimelineModel implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private records: Sequenced[] = [];
  private problems = 0;
  private nodes: CheckpointNode[] = [];
  private sessionsCache: LoggedSession[] | undefined;
  private turnNodes: TurnNode[] = [];
  /** Lookups by checkpoint id (10,000 rows: a search per row asked was a scan of them all). */
  private nodeById = new Map<string, CheckpointNode>();
  private turnById = new Map<string, TurnNode>();
  private parentById = new Map<string, TurnNode>();
  private lastRewindNode: CheckpointNode | undefined;
  /** False until the log was read the first time (a model made with `loadLater`, before its load). */
  private loaded = false;
  private summaries = new Map<string, RewindSummary>();
  private readonly stretches = new IncrementalStretches();
  private turnFileCache = new Map<string, SpanChange[]>();
  private attemptTree: AttemptTree | undefined;
  private ownWork: Map<number, OwnWork> | undefined;
  private line: LineView | undefined;
  private lookups: RewindLookups = rewindLookups([]);
  private countsCache: TimelineCounts | undefined;
  /** A folded checkpoint's id → the id of the row that holds it (core/timeline/folding.ts). */
  private foldedInto = new Map<string, string>();
  private readonly folds = new GrowingFolds();
  private readonly log: IncrementalLog;

  /**
   * `loadLater`: the log is read by the first `reload()`, or by the first question asked before it (so activation can
   * show the views, saying they are loading, before a long log is read).
   */
  constructor(
    readonly store: Store,
    readonly roots: () => readonly vscode.WorkspaceFolder[],
    opts: { loadLater?: boolean } = {},
  ) {
    this.log = new IncrementalLog(store.logFile);
    if (!opts.loadLater) this.reload();
  }

  /** True until the log was read the first time. */
  get loading(): boolean {
    return !this.loaded;
  }

  /** Reads the log now when nothing asked for it yet: every question below sees the log, loaded later or not. */
  private ensure(): void {
    if (!this.loaded) this.reload();
  }

  reload(): void {
    this.loaded = true;
    // Only the lines appended since the last reload are read and parsed (a rewritten log: all of it).
    const { records, problems } = this.log.read();
    if (records === this.records && problems.length === this.problems) {
      this.emitter.fire(); // nothing new in the log; whoever asked still gets their refresh
      return;
    }
    this.records = records;
    this.problems = problems.length;
    this.lookups = rewindLookups(records);
    this.attemptTree = undefined; // the labels below ask for it
    // After a hook only the appended records are folded (10,000 checkpoints: two passes over 100,000 records a refresh).
    const { files, same } = this.folds.of(records);
    const cps = checkpoints(records);
    const lastRewind = [...cps].reverse().find((c) => c.kind === 'rewind');
    this.nodes = cps
      .map((c) => ({
        checkpoint: c,
        fileCount: (files.get(c.id) ?? []).length,
        label: this.label(c),
        isLastRewind: c === lastRewind,
        folded: [] as CheckpointNode[],
      }))
      .reverse();
    const byId = new Map(this.nodes.map((n) => [n.checkpoint.id, n]));
    // A row whose workspace state is its neighbour's is listed on that row, not as a row of its own.
    this.foldedInto = foldRows(cps, same).into;
    for (const [id, host] of this.foldedInto) byId.get(host)!.folded.push(byId.get(id)!);
    this.turnNodes = groupTurns(cps)
      .filter((turn) => !this.foldedInto.has(turn.head.id))
      .map((turn) => ({
        turn,
        node: byId.get(turn.head.id)!,
        // Steps inside a turn in the order they happened, as the Conversation view lists a prompt's calls.
        inside: turn.inside.filter((c) => !this.foldedInto.has(c.id)).map((c) => byId.get(c.id)!),
      }))
      .reverse();
    // Newest first, as the linear searches found them: the first row that holds an id wins.
    this.nodeById = new Map();
    for (const n of this.nodes) if (!this.nodeById.has(n.checkpoint.id)) this.nodeById.set(n.checkpoint.id, n);
    this.turnById = new Map();
    this.parentById = new Map();
    for (const t of this.turnNodes) {
      if (!this.turnById.has(t.node.checkpoint.id)) this.turnById.set(t.node.checkpoint.id, t);
      for (const n of t.inside) if (!this.parentById.has(n.checkpoint.id)) this.parentById.set(n.checkpoint.id, t);
    }
    this.lastRewindNode = this.nodes.find((n) => n.isLastRewind);
    this.summaries.clear();
    this.turnFileCache.clear();
    this.sessionsCache = undefined;
    this.line = undefined;
    this.ownWork = undefined;
    this.countsCache = undefined;
    this.emitter.fire();
  }

  get all(): readonly Sequenced[] {
    this.ensure();
    return this.records;
  }

  get badLines(): number {
    this.ensure();
    return this.problems;
  }

  /** Checkpoints, newest first. */
  get checkpoints(): readonly CheckpointNode[] {
    this.ensure();
    return this.nodes;
  }

  /** One row per prompt (and per manual / rewind checkpoint), newest first. */
  get turns(): readonly TurnNode[] {
    this.ensure();
    return this.turnNodes;
  }

  /** The attempts (core/timeline/attempts.ts), built once per change of the log. */
  get attempts(): AttemptTree {
    this.ensure();
    return (this.attemptTree ??= buildAttempts(this.records));
  }

  /** Whether a row is on the line that leads to the attempt in progress (the rest is under its attempt's row). */
  onLine(t: TurnNode): boolean {
    const c = t.node.checkpoint;
    return (this.line ??= lineView(this.attempts)).onLine(c.id, c.seq, c.kind);
  }

  /** Each attempt not in progress, with the log position where it leaves the line. */
  attemptRows(): LineView['rows'] {
    return (this.line ??= lineView(this.attempts)).rows;
  }

  /** An attempt's own work (core/timeline/attempts.ts ownWork): the counts its row shows, as `attempts` does. */
  attemptOwnWork(n: number): OwnWork | undefined {
    return (this.ownWork ??= ownWorkOfAll(this.attempts)).get(n);
  }

  /** The rows of an attempt that are not on the line, newest first (its end is the attempt's own row). */
  attemptTurns(n: number): TurnNode[] {
    const a = this.attempts.attempts[n - 1];
    if (!a) return [];
    return this.turnNodes.filter((t) => {
      const id = t.node.checkpoint.id;
      return this.attempts.attemptOf.get(id) === n && id !== a.end?.id && !this.onLine(t);
    });
  }

  turnOf(id: string): TurnNode | undefined {
    this.ensure();
    return this.turnById.get(id);
  }

  /** The row a checkpoint inside a turn belongs to. */
  parentTurn(id: string): TurnNode | undefined {
    this.ensure();
    return this.parentById.get(id);
  }

  /** What the turn itself edited, from its prompt to its end. */
  turnFiles(id: string): SpanChange[] {
    const t = this.turnOf(id);
    if (!t) return this.spanFiles(id);
    let files = this.turnFileCache.get(id);
    if (!files) this.turnFileCache.set(id, (files = turnChanges(this.records, t.turn)));
    return files;
  }

  /**
   * What a rewind to this checkpoint would write: the preview's file count and `checkpoints`'
   * `toRewind`, by the same function (rewindCountsOf), for every checkpoint at once on first ask.
   */
  rewindSummary(id: string): RewindSummary {
    this.ensure();
    if (this.summaries.size === 0 && this.nodes.length) {
      const oldestFirst = [...this.nodes].reverse();
      // After a hook only the paths its lines recorded are swept again (10,000 checkpoints: every path's sweep was most of a refresh).
      const stretches = this.stretches.of(
        this.records,
        oldestFirst.map((n) => n.checkpoint.seq),
      );
      // The roots from the records held here: asking the store would read the whole log again when it has no index yet.
      const counts = rewindSumsOf(this.store, stretches, oldestFirst.length, () => recordedFoldersOf(this.nodes.map((n) => n.checkpoint)));
      oldestFirst.forEach((n, i) => this.summaries.set(n.checkpoint.id, counts[i]!));
    }
    return this.summaries.get(id) ?? { total: 0, restore: 0, delete: 0, recreate: 0 };
  }

  /** True when a rewind to this checkpoint would change `p`. */
  rewindsPath(id: string, p: string): boolean {
    const c = this.find(id)?.checkpoint;
    return !!c && computeChanges(this.records, c, { paths: [p] }).changes.length > 0;
  }

  find(id: string): CheckpointNode | undefined {
    this.ensure();
    return this.nodeById.get(id);
  }

  /** The checkpoint whose row shows `id`: itself, or the row it is folded into. */
  rowOf(id: string): string {
    return this.foldedInto.get(id) ?? id;
  }

  lastRewind(): CheckpointNode | undefined {
    this.ensure();
    return this.lastRewindNode;
  }

  /** What a rewind to this checkpoint is, in words: a rewind, or the undo / redo of one. */
  meaning(checkpointId: string): RewindMeaning {
    const c = this.find(checkpointId)?.checkpoint;
    return c ? rewindMeaning(c, this.lookups, vscode.l10n) : { action: 'rewind', point: `"${checkpointId}"` };
  }

  /** A checkpoint's label (core/timeline/presentation.ts): a rewind's is computed from its target, never nested. */
  label(c: CheckpointRecord): string {
    return checkpointLabel(c, this.lookups, () => this.attempts, vscode.l10n);
  }

  /** A checkpoint as every surface presents it (core/timeline/presentation.ts): the fields `checkpoints --json` prints. */
  row(id: string): CheckpointRow | undefined {
    const n = this.find(id);
    return n && checkpointRow(n.checkpoint, { toRewind: this.rewindSummary(id).total, edited: n.fileCount }, n.label);
  }

  /** An attempt as a row: its own work's counts (the ones `attempts` prints). */
  attemptRow(n: number): AttemptRow | undefined {
    const a = this.attempts.attempts[n - 1];
    const own = this.attemptOwnWork(n);
    return a && own && attemptRow(a, own);
  }

  /** The timeline's counts (the status bar's, and `status`'s). */
  counts(): TimelineCounts {
    return (this.countsCache ??= timelineCounts(this.nodes.map((n) => n.checkpoint)));
  }

  /** For a rewind checkpoint whose target is an attempt's end (a switch, or with `partial` a take): that attempt. */
  attemptTaken(c: Sequenced<CheckpointRecord> | CheckpointRecord | undefined): number | undefined {
    if (c?.kind !== 'rewind' || c.target === undefined) return undefined;
    // Only rewinds to a rewind can be: the tree is built only when there are any.
    return this.lookups.checkpoint(c.target)?.kind === 'rewind' ? attemptBroughtBy(this.attempts, c) : undefined;
  }

  sessions(): LoggedSession[] {
    this.ensure();
    return (this.sessionsCache ??= sessionsFromLog(this.records));
  }

  spanFiles(checkpointId: string): SpanChange[] {
    const n = this.find(checkpointId);
    return n ? spanChanges(this.records, n.checkpoint.seq) : [];
  }

  /** A path relative to its workspace folder (with the folder name in multi-root workspaces). */
  relative(p: string): string {
    const folders = this.roots();
    for (const f of folders) {
      const rel = path.relative(f.uri.fsPath, p);
      if (!rel.startsWith('..') && !path.isAbsolute(rel)) return folders.length > 1 ? `${f.name}/${rel}` : rel;
    }
    return p;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
