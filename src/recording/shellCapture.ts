// Shell capture's one entry for the recorder: an event in, the lines shell capture adds for it out
// (and, at a session start, a note for the checkpoint's label). Each event takes at most one step of
// the capture subsystem (core/capture/), which loads, scans, saves and builds the records itself.
// Loaded lazily: hooks for other tools and for events without a shell part never pay for it.
import {
  captureAfterShell,
  captureBeforeShell,
  captureOrphanShell,
  captureSessionStart,
  hasBaseline,
  holdCapture,
} from '../core/capture/capture';
import type { CaptureHold } from '../core/capture/hold';
import { prefetchScan, cancelPrefetch } from '../core/scan/gitAssist';
import type { LogRecord } from '../core/storeFiles/records';
import type { Store } from '../core/store';
import type { ChangeSource } from './changeSource';
import type { AgentEvent } from './events';

/** The session's folder as the recorder resolved it (core/workspace/roots.ts `sessionRoot`). */
export type SessionPlace = { root: string | null; reason?: string } | null;

export interface ShellCaptureContext {
  /** Workspace folders named on the hook's command line. */
  explicit: readonly string[];
  /** The resident's file watcher, settled; hook processes have none. */
  source?: ChangeSource;
  /** Where a session start or prompt's session is. */
  where: SessionPlace;
}

export interface ShellCaptureLines {
  lines: LogRecord[];
  /** For the session-start checkpoint's label: why capture is off, if it is. */
  note: string | null;
  /**
   * Called once the event's lines are appended (`true`), or when they will not be (`false`; the first call
   * counts): the scan state is saved only then, and its lock held until then (core/capture/hold.ts).
   */
  settle(appended: boolean): void;
}

/** The one call the recorder makes: what shell capture adds to this event. */
export function captureShell(store: Store, e: AgentEvent, boundary: boolean, ctx: ShellCaptureContext): ShellCaptureLines {
  const hold = holdCapture(store, e.session);
  const settle = (appended: boolean) =>
    hold.settle(appended, (err) =>
      store.logError(`shell capture (saving the scan state): ${(err as Error).message}`, { session: e.session }),
    );
  try {
    return { ...captureSteps(store, e, boundary, ctx, hold), settle };
  } catch (err) {
    settle(false);
    throw err;
  }
}

function captureSteps(
  store: Store,
  e: AgentEvent,
  boundary: boolean,
  ctx: ShellCaptureContext,
  hold: CaptureHold,
): Omit<ShellCaptureLines, 'settle'> {
  const capture = { explicit: ctx.explicit, hold, ...(ctx.source ? { source: ctx.source } : {}) };
  const lines = (boundary && captureOrphanShell(store, e.session, capture)) || [];
  switch (e.type) {
    case 'session_start': {
      if (ctx.where && ctx.where.root === null) {
        const note = `shell capture off: ${ctx.where.reason}; only the agent's file tools are recorded`;
        store.logError(note, { session: e.session });
        return { lines, note };
      }
      return { lines, note: captureSessionStart(store, e.session, e.cwd, capture) };
    }
    case 'prompt':
      // An agent with no session start of its own (Cursor): its first prompt takes the baseline.
      if (e.baseline && ctx.where?.root && !hasBaseline(store, e.session)) captureSessionStart(store, e.session, e.cwd, capture);
      return { lines, note: null };
    case 'before_tool':
      return { lines: [...lines, ...captureBeforeShell(store, e, e.cwd, capture)], note: null };
    case 'after_tool':
      return { lines: [...lines, ...captureAfterShell(store, e, capture)], note: null };
    default:
      return { lines, note: null };
  }
}

/**
 * Called as soon as a hook knows it carries a shell call: starts the git question its scan will
 * ask (see core/scan/gitAssist.ts `prefetchScan`), so git runs while the hook does its other work.
 */
export function prefetchShellScan(store: Store, session: string): void {
  try {
    prefetchScan(store.dir, session);
  } catch {
    /* the scan asks again itself */
  }
}

export { cancelPrefetch as cancelShellPrefetch };
