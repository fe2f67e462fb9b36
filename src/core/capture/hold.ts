// One event's hold on a session's shell capture. The scan state may only say "the disk was scanned to here"
// once the log holds the lines that scan produced: saved before them, a hook killed in its append (or a
// resident killed after it) would leave a state that already knows the command's changes and a log without
// them, and no later scan would see them again. So the event takes the scan state's lock at its first step
// and keeps it until its lines are appended; a step that produced lines defers its save to then (and every
// save after it, in order). Killed before the saves, the state is the one before the command and the call is
// still pending: the next turn boundary captures the command's changes again (test/faults/killPoints.test.ts).
import { fault } from '../faults';
import { holdFileLock } from '../storeFiles/lock';

/** Never block the agent: after 5 s without the lock the scan goes on without it; a holder past 60 s is stuck. */
const LOCK_OPTS = { waitMs: 5000, staleMs: 60000 };

export class CaptureHold {
  private release: (() => void) | null = null;
  private readonly deferred: (() => void)[] = [];
  private settled = false;

  /** `file`: the scan state of the event's session (every step of one event is for that session). */
  constructor(private readonly file: string) {}

  /** Runs one capture step under the scan state's lock, taken at the first step and kept until settle. */
  locked<T>(step: () => T): T {
    this.release ??= holdFileLock(`${this.file}.lock`, 'shell capture', LOCK_OPTS);
    return step();
  }

  /** Saves a step's state: now, or — when the step produced lines, or a save is already waiting — once they are appended. */
  save(write: () => void, afterAppend: boolean): void {
    if (afterAppend || this.deferred.length) this.deferred.push(write);
    else write();
  }

  /**
   * The event's lines are in the log (`appended`), or will not be (an error before the append): runs the
   * deferred saves only in the first case, then lets the lock go. Once; later calls do nothing.
   * `failed` is told of a save that threw (the state stays the one before: the next scan sees the changes again).
   */
  settle(appended: boolean, failed: (err: unknown) => void): void {
    if (this.settled) return;
    this.settled = true;
    try {
      if (appended && this.deferred.length) {
        fault('shell.appended');
        for (const write of this.deferred) write();
      }
    } catch (err) {
      failed(err);
    } finally {
      this.release?.();
    }
  }
}
