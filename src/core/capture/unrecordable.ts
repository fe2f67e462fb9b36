// What a capture step's scan found and cannot record — a name that is not valid UTF-8, a path over the
// system's limit, a FIFO, socket or device — appended as gap lines (storeFiles/records.ts GapRecord)
// once the step is done, so a plan over that span lists them as not restorable, with the reason.
// A folder's entries are listed again whenever it changes: what this session's gap lines near the
// log's end already say is not said again.
import type { Store } from '../store';
import type { GapRecord } from '../storeFiles/records';
import { escapedPath } from '../scan/entries';
import type { ScanLimits } from '../scan/types';

/** How far back the log is searched for the same gap. */
const RECENT_BYTES = 1024 * 1024;
/** At most this many gap lines per step (a tree full of sockets says the rest in errors.log). */
const MAX_PER_STEP = 200;

type Found = Parameters<NonNullable<ScanLimits['unrecordable']>>;

export class Unrecordable {
  private readonly found: Found[] = [];
  readonly add = (rel: string, reason: Found[1]): void => {
    this.found.push([rel, reason]);
  };

  /** Appends the gaps found (never throws: a failure is a line in errors.log). */
  flush(store: Store, root: string, meta: { session: string; tool?: string; call?: string }): void {
    if (this.found.length === 0) return;
    try {
      const said = new Set(
        store
          .gapsSince(0, RECENT_BYTES)
          .filter((g) => g.session === meta.session)
          .map((g) => `${g.reason}\0${g.path}`),
      );
      const gaps: GapRecord[] = [];
      const time = Date.now();
      for (const [rel, reason] of this.found) {
        const p = escapedPath(root, rel);
        const key = `${reason}\0${p}`;
        if (said.has(key)) continue;
        said.add(key);
        gaps.push({ t: 'gap', path: p, reason, ...meta, time });
      }
      if (gaps.length > MAX_PER_STEP)
        store.logError(`shell capture: ${gaps.length - MAX_PER_STEP} more entries that cannot be recorded were not listed`, {
          root,
          session: meta.session,
        });
      store.appendGaps(gaps.slice(0, MAX_PER_STEP));
    } catch (e) {
      store.logError(`shell capture: recording what cannot be recorded: ${(e as Error).message}`);
    }
    this.found.length = 0;
  }
}
