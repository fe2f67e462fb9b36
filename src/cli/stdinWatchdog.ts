// The resident recorder as the watchdog of its hooks' stdin. A hook handed a socket for stdin (what
// every agent written in node gives it) reads it with blocking reads: node can read a socket without
// blocking only through a stream, and a stream costs the hook more than all the rest of its work
// (forward.ts `readPayload`). A blocking read has no deadline, so the hook first leaves a marker,
// `<id>.stdin` (its pid and start time, residentWire.ts), and removes it once read. A marker still there
// at the hook's stdin deadline means an agent that never closed the hook's stdin: the resident ends
// that process — the very one, checked by its start time, never another that got its pid since — and
// says so in errors.log, as a hook that reads through a stream says it at the same deadline.
import * as fs from 'node:fs';
import { processStartOf, stdinMarkerOf } from './residentWire';
import { HOOK_STDIN_DEADLINE_MS } from './stdin';

export class StdinWatchdog {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly dir: string,
    private readonly report: (message: string) => void,
  ) {}

  /**
   * A marker appeared (or was there when the resident started): its hook is ended at its deadline if it still
   * reads then. A marker gone (its hook read its stdin): its timer goes, so that it holds no stopping resident.
   */
  watch(id: string): void {
    let since: number;
    try {
      since = fs.statSync(stdinMarkerOf(this.dir, id)).mtimeMs;
    } catch {
      clearTimeout(this.timers.get(id));
      this.timers.delete(id);
      return;
    }
    if (this.timers.has(id)) return;
    const due = Math.max(0, since + HOOK_STDIN_DEADLINE_MS - Date.now());
    this.timers.set(
      id,
      setTimeout(() => {
        this.timers.delete(id);
        this.endIfStuck(id);
      }, due),
    );
  }

  private endIfStuck(id: string): void {
    const marker = stdinMarkerOf(this.dir, id);
    let text: string;
    try {
      text = fs.readFileSync(marker, 'utf8');
    } catch {
      return; // its hook read its stdin to the end in time
    }
    fs.rmSync(marker, { force: true });
    const [pidText, start] = text.split(' ');
    const pid = Number(pidText);
    if (!(pid > 0) || !start || processStartOf(pid) !== start) return; // that hook is gone
    this.report(
      `hook: stdin was not closed within ${HOOK_STDIN_DEADLINE_MS / 1000} s; nothing recorded for this call (the resident recorder ended hook process ${pid})`,
    );
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* it ended by itself just now */
    }
  }
}
