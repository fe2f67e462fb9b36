// Fault points for the kill tests (test/faults). `AGENT_REWIND_FAULT=<point>:<n>[,<point>:<n>…]`
// makes the process SIGKILL itself at the n-th time (1-based) it reaches the named point, so a
// test can stop a real `agent-rewind` process at an exact step instead of hoping a timer lands
// there. `<point>:<n>:stop` stops it there instead (SIGSTOP): the test does what must happen
// meanwhile, then lets it go on (SIGCONT). `<point>:<n>:enospc` throws there the error a full disk gives. Unset (always, outside tests), `fault` is a no-op and `faultsArmed` is false: nothing is
// parsed, counted or slowed down.
//
// Points (where the process dies, i.e. what has happened already when it does):
//   blob.write        a blob's temp file holds half its bytes (not renamed into objects/ yet)
//   log.append        half of one files.jsonl append is written (a torn last line)
//   hook.record       a hook has parsed its payload, nothing recorded yet
//   shell.appended    a hook with a shell command's lines has appended them; its scan state is not saved yet
//   rewind.planned    a rewind has planned and passed its checks, nothing recorded
//   rewind.presnaps   the pre-rewind blobs are stored, no line appended
//   rewind.checkpoint the pre-rewind lines and the rewind checkpoint are appended, no journal yet
//   rewind.journal    the journal is written, no file written
//   rewind.tmp        one file's new content is in its temp file beside it, not renamed in yet
//   rewind.write      one more file is written (n = k kills after the k-th write)
//   rewind.written    every file is written, the `rewind` snapshots are not recorded
//   rewind.recorded   the `rewind` snapshots are recorded, the journal not removed yet
//   recover.recorded  a recovery has recorded what the killed rewind wrote, journal not removed
//   lock.acquired     the store lock is held (by a rewind, gc or recovery), nothing else done
//   gc.read           gc holds its locks and has read the log, nothing rewritten or swept yet
//   roots.read        a writer adding a workspace root has read store.json, not written it yet

export const faultsArmed: boolean = !!process.env.AGENT_REWIND_FAULT;

interface Armed {
  at: number;
  seen: number;
  /** Kill, stop, or throw the error a full disk gives (`enospc`): what a write there would throw. */
  signal: 'SIGKILL' | 'SIGSTOP' | 'ENOSPC';
}

let counts: Map<string, Armed> | undefined;

function parse(spec: string): Map<string, Armed> {
  const m = new Map<string, Armed>();
  for (const part of spec.split(',')) {
    const [name, n, how] = part.trim().split(':');
    const at = Number(n ?? 1);
    if (name && Number.isInteger(at) && at > 0)
      m.set(name, { at, seen: 0, signal: how === 'stop' ? 'SIGSTOP' : how === 'enospc' ? 'ENOSPC' : 'SIGKILL' });
  }
  return m;
}

/** Kills this process (SIGKILL, no clean-up of any kind), or stops it, at the armed occurrence of `point`. */
export const fault: (point: string) => void = faultsArmed
  ? (point) => {
      counts ??= parse(process.env.AGENT_REWIND_FAULT ?? '');
      const c = counts.get(point);
      if (!c) return;
      c.seen++;
      if (c.seen !== c.at) return;
      if (c.signal === 'ENOSPC') throw Object.assign(new Error(`ENOSPC: no space left on device (fault ${point})`), { code: 'ENOSPC' });
      process.kill(process.pid, c.signal);
    }
  : () => {};
