// The +/- counts of the views' file rows, counted in the view worker (a count reads and diffs two
// blobs: up to a few MB a row). A row asks and is drawn at once without its count; the counts asked
// for in one turn of the event loop go as one request, and `ready` says when they are in, so the
// views draw those rows again. Kept by content pair. No vscode here: unit-testable.
import { type LineStats, storedLineStats } from '../../core/timeline/lineStats';
import type { Store } from '../../core/store';
import type { WorkerClient } from './workerClient';

type Pair = [string | null, string | null];
const MAX_KEPT = 5000;

export class LineStatsSource {
  private readonly kept = new Map<string, LineStats>();
  private readonly asked = new Map<string, Pair>();
  private counting: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly worker: WorkerClient | undefined,
    /** Called when counts asked for are in (the views draw their waiting rows again). */
    private readonly ready: () => void,
  ) {}

  /** The counts of `from` → `to` when known; otherwise undefined, and they are asked for. */
  get(from: string | null, to: string | null): LineStats | undefined {
    const key = `${from}:${to}`;
    const s = this.kept.get(key);
    if (s) return s;
    this.asked.set(key, [from, to]);
    this.counting ??= Promise.resolve().then(() => this.count());
    return undefined;
  }

  /** Resolves when every count asked for so far is in. */
  async settled(): Promise<void> {
    while (this.counting) await this.counting;
  }

  private async count(): Promise<void> {
    while (this.asked.size) {
      const batch = [...this.asked];
      this.asked.clear();
      const pairs = batch.map(([, p]) => p);
      const here = async () => pairs.map(([from, to]) => storedLineStats((h) => this.store.content(h), from, to));
      let stats: LineStats[];
      try {
        stats = this.worker ? await this.worker.stats(this.store.dir, pairs, here) : await here();
      } catch {
        // Cancelled (the window is closing) or failed: nothing to count with, said as an estimate of nothing.
        stats = pairs.map(() => ({ insertions: 0, deletions: 0, approximate: true }));
      }
      if (this.kept.size + batch.length > MAX_KEPT) this.kept.clear();
      batch.forEach(([key], i) => this.kept.set(key, stats[i]!));
      this.ready();
    }
    this.counting = undefined;
  }
}
