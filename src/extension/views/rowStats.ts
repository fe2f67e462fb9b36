// What a file row of either view says of its change — deleted, created, binary, +n −m — with the
// counts made off the host (offHost/lineStatsSource.ts): a row is drawn at once, "…" in place of its
// counts, and drawn again when they are in.
import * as vscode from 'vscode';
import type { LineStats } from '../../core/timeline/lineStats';
import type { SpanChange } from '../../core/timeline/timeline';

/** The counts of a change when known (undefined: asked for; `onReady` fires when counts come in). */
export interface RowStats {
  of(c: SpanChange): LineStats | undefined;
  readonly onReady: vscode.Event<void>;
}

const gone = (s: SpanChange['to'] | undefined) => !!s && s.hash === null && !s.skipped;

/** The row's words, and whether its counts are still being made (then draw it again on `onReady`). */
function changeWords(c: SpanChange, stats: RowStats): { words: string; counting: boolean } {
  if (gone(c.to)) return { words: vscode.l10n.t('deleted'), counting: false };
  if (!c.from || gone(c.from)) return { words: vscode.l10n.t('created'), counting: false };
  const s = stats.of(c);
  if (!s) return { words: '+… −…', counting: true };
  return { words: s.binary ? vscode.l10n.t('binary') : `+${s.insertions} −${s.deletions}`, counting: false };
}

/**
 * A view's file rows and their counts: `words` says what to draw now and keeps a row drawn without
 * its counts, and when counts come in those rows are handed to `redraw` (the view fires them).
 */
export class RowCounts<T> implements vscode.Disposable {
  private readonly waiting = new Set<T>();
  private readonly ready: vscode.Disposable;

  constructor(
    private readonly stats: RowStats,
    redraw: (rows: T[]) => void,
  ) {
    this.ready = stats.onReady(() => {
      const rows = [...this.waiting];
      this.waiting.clear();
      if (rows.length) redraw(rows);
    });
  }

  /** What the row `el` of change `c` says now. */
  words(el: T, c: SpanChange): string {
    const { words, counting } = changeWords(c, this.stats);
    if (counting) this.waiting.add(el);
    return words;
  }

  dispose(): void {
    this.ready.dispose();
    this.waiting.clear();
  }

  /** The whole view is drawn again: no row waits any more. */
  forget(): void {
    this.waiting.clear();
  }
}
