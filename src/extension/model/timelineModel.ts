// The extension's view of one store: the records (the appended lines read when the watcher fires), checkpoints
// newest first, span files with line counts (cached by content pair), and change events.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { IncrementalLog } from '../../core/storeFiles/logTail';
import type { CheckpointRecord, Sequenced } from '../../core/storeFiles/records';
import { type LoggedSession, sessionsFromLog } from '../../core/timeline/sessionsFromLog';
import type { Store } from '../../core/store';
import { computeChanges } from '../../core/timeline/changeSet';
import { rewindCountsOf } from '../../core/rewind/plan';
import { historiesOf } from '../../core/timeline/rewindCounts';
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
import { foldsOf } from '../../core/timeline/folding';
import { checkpoints, filesPerCheckpoint, type SpanChange, spanChanges } from '../../core/timeline/timeline';
import {
  attemptRewindLabel,
  labelOfRewindCheckpoint,
  type RewindLookups,
  rewindLookups,
  type RewindMeaning,
  rewindMeaning,
} from '../../core/timeline/rewindLabels';

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
  private summaries = new Map<string, RewindSummary>();
  private turnFileCache = new Map<string, SpanChange[]>();
  private attemptTree: AttemptTree | undefined;
  private ownWork: Map<number, OwnWork> | undefined;
  private line: LineView | undefined;
  private lookups: RewindLookups = rewindLookups([]);
  private folds = new Map<string, string>();
  private readonly log: IncrementalLog;

  constructor(
    readonly store: Store,
    readonly roots: () => readonly vscode.WorkspaceFolder[],
  ) {
    this.log = new IncrementalLog(store.logFile);
    this.reload();
  }

  reload(): void {
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
    const files = filesPerCheckpoint(records);
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
    this.folds = foldsOf(records).into;
    for (const [id, host] of this.folds) byId.get(host)!.folded.push(byId.get(id)!);
    this.turnNodes = groupTurns(cps)
      .filter((turn) => !this.folds.has(turn.head.id))
      .map((turn) => ({
        turn,
        node: byId.get(turn.head.id)!,
        // Steps inside a turn in the order they happened, as the Conversation view lists a prompt's calls.
        inside: turn.inside.filter((c) => !this.folds.has(c.id)).map((c) => byId.get(c.id)!),
      }))
      .reverse();
    this.summaries.clear();
    this.turnFileCache.clear();
    this.sessionsCache = undefined;
    this.line = undefined;
    this.ownWork = undefined;
    this.emitter.fire();
  }

  get all(): readonly Sequenced[] {
    return this.records;
  }

  get badLines(): number {
    return this.problems;
  }

  /** Checkpoints, newest first. */
  get checkpoints(): readonly CheckpointNode[] {
    return this.nodes;
  }

  /** One row per prompt (and per manual / rewind checkpoint), newest first. */
  get turns(): readonly TurnNode[] {
    return this.turnNodes;
  }

  /** The attempts (core/timeline/attempts.ts), built once per change of the log. */
  get attempts(): AttemptTree {
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
    return this.turnNodes.find((t) => t.node.checkpoint.id === id);
  }

  /** The row a checkpoint inside a turn belongs to. */
  parentTurn(id: string): TurnNode | undefined {
    return this.turnNodes.find((t) => t.inside.some((n) => n.checkpoint.id === id));
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
    if (this.summaries.size === 0 && this.nodes.length) {
      const oldestFirst = [...this.nodes].reverse();
      const counts = rewindCountsOf(
        this.store,
        historiesOf(this.records),
        oldestFirst.map((n) => n.checkpoint.seq),
      );
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
    return this.nodes.find((n) => n.checkpoint.id === id);
  }

  /** The checkpoint whose row shows `id`: itself, or the row it is folded into. */
  rowOf(id: string): string {
    return this.folds.get(id) ?? id;
  }

  lastRewind(): CheckpointNode | undefined {
    return this.nodes.find((n) => n.isLastRewind);
  }

  /** What a rewind to this checkpoint is, in words: a rewind, or the undo / redo of one. */
  meaning(checkpointId: string): RewindMeaning {
    const c = this.find(checkpointId)?.checkpoint;
    return c ? rewindMeaning(c, this.lookups, vscode.l10n) : { action: 'rewind', point: `"${checkpointId}"` };
  }

  /** A checkpoint's label; a rewind's is computed from its target, never nested. */
  label(c: CheckpointRecord): string {
    const attempt = this.attemptTaken(c);
    if (attempt !== undefined) return attemptRewindLabel(attempt, !!c.partial, vscode.l10n);
    return labelOfRewindCheckpoint(c, this.lookups, vscode.l10n);
  }

  /** For a rewind checkpoint whose target is an attempt's end (a switch, or with `partial` a take): that attempt. */
  attemptTaken(c: Sequenced<CheckpointRecord> | CheckpointRecord | undefined): number | undefined {
    if (c?.kind !== 'rewind' || c.target === undefined) return undefined;
    // Only rewinds to a rewind can be: the tree is built only when there are any.
    return this.lookups.checkpoint(c.target)?.kind === 'rewind' ? attemptBroughtBy(this.attempts, c) : undefined;
  }

  sessions(): LoggedSession[] {
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
