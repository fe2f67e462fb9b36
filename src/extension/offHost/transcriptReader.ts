// The host side of transcript reading: asks the view worker for each transcript's outline as a
// change against the one held here, and applies it. Without a worker (it could not start, or died)
// the same sender runs here, so the answers are the same either way. No vscode here: unit-testable.
import type { EffectOverride } from '../../core/storeFiles/config';
import type { WorkerClient } from './workerClient';
import { applyOutline, type HeldOutline, type Outline, type OutlineDelta, OutlineSender } from './transcriptOutline';

export class TranscriptReader {
  private readonly held = new Map<string, HeldOutline>();
  /** Senders on the host, used only when the worker is unusable. */
  private readonly local = new Map<string, OutlineSender>();

  constructor(private readonly worker: WorkerClient | undefined) {}

  /** The transcript's outline now, or null when it cannot be read (the caller falls back to the hooks' record). */
  async read(file: string, overrides: readonly EffectOverride[]): Promise<Outline | null> {
    const held = this.held.get(file);
    // applyOutline refuses a change against prompts not held here (versions are unique: it cannot
    // happen); the caller then shows the hooks' record, and the next read, asking from this same
    // version, gets the whole outline.
    const next = applyOutline(held, await this.ask(file, held?.version ?? null, overrides));
    this.held.set(file, next);
    return next.outline;
  }

  private ask(file: string, base: string | null, overrides: readonly EffectOverride[]): Promise<OutlineDelta> {
    const here = async () => {
      let s = this.local.get(file);
      if (!s) this.local.set(file, (s = new OutlineSender(file)));
      return s.next(base, overrides);
    };
    return this.worker ? this.worker.outline(file, base, [...overrides], here) : here();
  }
}
