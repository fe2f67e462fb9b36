// Tool calls whose PostToolUse never came (the hook was killed or timed out, the agent crashed):
// without repair their `after` is missing, and every later checkpoint would state the file as it
// was *before* the call. A file tool's PreToolUse leaves a marker (one small file per call, so
// parallel calls never race); its PostToolUse removes it. At the session's next turn boundary —
// a prompt, Stop, SessionStart, SessionEnd, when no call of the last turn can still be running —
// markers still there get their `after` snapshots taken then (a shell call still pending in shell
// capture is finished the same way, by shell capture: ./shellCapture.ts). Recorded before the boundary's own checkpoint.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileNameOf } from '../core/paths';
import { putMarker } from '../core/storeFiles/markerFiles';
import type { LogRecord } from '../core/storeFiles/records';
import type { Store } from '../core/store';
import type { AfterToolEvent, BeforeToolEvent, EventBase } from './events';
import { STORE_FILE } from '../core/storeFiles/names';
import { readJsonFile } from '../core/storeFiles/jsonFile';

interface Marker {
  tool: string;
  call: string;
  paths: string[];
  time: number;
}

function dirOf(store: Store, session: string): string {
  return path.join(store.dir, STORE_FILE.inflight, fileNameOf(session, '_'));
}

/** PreToolUse of a file tool: the call is in flight until its PostToolUse. */
export function markInflight(store: Store, e: BeforeToolEvent): void {
  if (!e.callId || e.paths.length === 0) return;
  const dir = dirOf(store, e.session);
  const m: Marker = { tool: e.tool, call: e.callId, paths: e.paths, time: Date.now() };
  try {
    putMarker(path.join(dir, `${fileNameOf(e.callId, '_')}.json`), JSON.stringify(m));
  } catch (err) {
    store.logError(`in-flight marker for ${e.tool} ${e.callId}: ${(err as Error).message}`);
  }
}

/** PostToolUse (or its failure): the call ended; called once its lines are in the file. */
export function clearInflight(store: Store, e: AfterToolEvent): void {
  if (!e.callId || e.paths.length === 0) return;
  fs.rmSync(path.join(dirOf(store, e.session), `${fileNameOf(e.callId, '_')}.json`), { force: true });
}

/** The `after` lines of the session's calls that never got theirs; `done` removes their markers once the lines are in the file. */
export function repairOrphans(store: Store, e: EventBase): { lines: LogRecord[]; done: () => void } {
  const lines: LogRecord[] = [];
  const dir = dirOf(store, e.session);
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    /* none in flight: the common case */
  }
  const now = Date.now();
  for (const n of names) {
    // A marker torn by a kill reads as nothing: its PreToolUse recorded nothing either.
    const m = readJsonFile(path.join(dir, n)) as Marker | null | undefined;
    if (!m || !Array.isArray(m.paths)) continue;
    for (const p of m.paths) {
      const s = store.snapshot(p, 'after', { origin: 'agent', session: e.session, tool: m.tool, call: m.call, time: now });
      if (s) lines.push(s);
    }
  }
  return {
    lines,
    done: () => {
      for (const n of names) fs.rmSync(path.join(dir, n), { force: true });
    },
  };
}
