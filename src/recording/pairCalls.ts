// Tool calls without a call id (Copilot CLI, Cline's extension, Cursor's shell and MCP events): a
// before and an after with the same pair key — tool and deep-equal input — are one call, first in
// first out (parallel calls: all the befores, then the afters in completion order). The before gets
// a fresh id and leaves a tiny file `<store>/pending/<session>/<key hash>.<time>.<monotonic ns>.<id>`; the after
// claims the oldest file of its key (unlink: two afters never claim the same one) and takes its id.
// With the id, the in-flight marker, the `before`/`after` snapshots and shell capture work as with
// agents that send one. Files of befores no after claimed are cleared at the session's next boundary
// (the in-flight repair has taken their `after` by then).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../core/storeFiles/blobs';
import { newId } from '../core/storeFiles/ids';
import { putMarker, takeMarker } from '../core/storeFiles/markerFiles';
import { fileNameOf } from '../core/paths';
import type { Store } from '../core/store';
import type { AgentEvent } from './events';
import { STORE_FILE } from '../core/storeFiles/names';

function dirOf(store: Store, session: string): string {
  return path.join(store.dir, STORE_FILE.pending, fileNameOf(session, '_'));
}

/** Gives a tool event without a call id the id of its pair; other events are left as they are. */
export function pairCall(store: Store, e: AgentEvent): void {
  if ((e.type !== 'before_tool' && e.type !== 'after_tool') || e.callId || !e.pairKey) return;
  const dir = dirOf(store, e.session);
  const key = sha256(Buffer.from(e.pairKey)).slice(0, 32);
  if (e.type === 'before_tool') {
    const id = `pair-${newId()}`;
    try {
      // Wall-clock ms, then the monotonic clock (one clock for every process) orders two befores of one ms.
      const at = `${String(Date.now()).padStart(15, '0')}.${process.hrtime.bigint().toString().padStart(20, '0')}`;
      putMarker(path.join(dir, `${key}.${at}.${id}`));
      e.callId = id;
    } catch (err) {
      store.logError(`pairing ${e.tool}: ${(err as Error).message}`);
    }
    return;
  }
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith(`${key}.`));
  } catch {
    return; // no before: hooks connected mid-call
  }
  for (const n of names.sort()) {
    if (!takeMarker(path.join(dir, n))) continue; // claimed by a parallel after
    e.callId = n.slice(n.lastIndexOf('.') + 1);
    return;
  }
}

/** At a turn boundary: befores that never got their after are done with. */
export function clearPairs(store: Store, session: string): void {
  fs.rmSync(dirOf(store, session), { recursive: true, force: true });
}
