// The extension's view of one store: the records (re-read when the watcher fires), checkpoints
// newest first, span files with line counts (cached by content pair), and change events.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lineStats, type LineStats } from '../core/lineStats';
import type { CheckpointRecord, Sequenced } from '../core/records';
import { type LoggedSession, sessionsFromLog } from '../core/sessionsFromLog';
import type { Store } from '../core/store';
import { checkpoints, filesPerCheckpoint, type SpanChange, spanChanges } from '../core/timeline';

export interface CheckpointNode {
  checkpoint: Sequenced<CheckpointRecord>;
  fileCount: number;
  /** The newest rewind checkpoint: undo target. */
  isLastRewind: boolean;
}

export class TimelineModel implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private records: Sequenced[] = [];
  private problems = 0;
  private statsCache = new Map<string, LineStats>();
  private nodes: CheckpointNode[] = [];
  private sessionsCache: LoggedSession[] | undefined;

  constructor(
    readonly store: Store,
    readonly roots: () => readonly vscode.WorkspaceFolder[],
  ) {
    this.reload();
  }

  reload(): void {
    const { records, problems } = this.store.read();
    this.records = records;
    this.problems = problems.length;
    const files = filesPerCheckpoint(records);
    const cps = checkpoints(records);
    const lastRewind = [...cps].reverse().find((c) => c.kind === 'rewind');
    this.nodes = cps.map((c) => ({ checkpoint: c, fileCount: (files.get(c.id) ?? []).length, isLastRewind: c === lastRewind })).reverse();
    this.sessionsCache = undefined;
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

  find(id: string): CheckpointNode | undefined {
    return this.nodes.find((n) => n.checkpoint.id === id);
  }

  lastRewind(): CheckpointNode | undefined {
    return this.nodes.find((n) => n.isLastRewind);
  }

  sessions(): LoggedSession[] {
    return (this.sessionsCache ??= sessionsFromLog(this.records));
  }

  spanFiles(checkpointId: string): SpanChange[] {
    const n = this.find(checkpointId);
    return n ? spanChanges(this.records, n.checkpoint.seq) : [];
  }

  /** +/- of a span change (what the span did to the file), cached by content pair. */
  stats(c: SpanChange): LineStats {
    const from = c.from?.hash ?? null;
    const to = c.to.hash;
    const key = `${from}:${to}`;
    let s = this.statsCache.get(key);
    if (!s) {
      try {
        s = lineStats(from ? this.store.content(from) : null, to ? this.store.content(to) : null);
      } catch {
        s = { insertions: 0, deletions: 0, approximate: true };
      }
      if (this.statsCache.size > 5000) this.statsCache.clear();
      this.statsCache.set(key, s);
    }
    return s;
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
