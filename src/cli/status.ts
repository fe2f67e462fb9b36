// `agent-rewind status [--json]`: whether the store's resident recorder runs (pid, since, roots,
// watches) and what the store holds. Output contract: DESIGN §5 and the README's command-line section.
import * as fs from 'node:fs';
import type { Fallbacks } from '../core/capture/narrowing';
import { readCaptureStatus } from '../core/capture/status';
import { residentHolder } from '../core/storeFiles/lock';
import type { Store } from '../core/store';
import { askResident } from './forward';
import { EXIT, out } from './output';
import { residentOff } from './residentWire';

export interface StatusJson {
  store: string;
  resident:
    | { running: true; pid: number; since: string; roots: string[]; watches: number; served: number; fallbacks?: Fallbacks }
    | { running: false; off: boolean; pid?: number };
  counts: { checkpoints: number; sessions: number; paths: number; logBytes: number };
  /** Sessions whose shell capture is off (above the file limit), when there are any: never silent. */
  captureOff?: { session: string; root: string; files: number; limit: number; message: string }[];
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

export async function storeStatus(store: Store): Promise<StatusJson> {
  const live = residentHolder(store.dir);
  const answer = live ? await askResident(store.dir) : null;
  const { checkpoints } = store.checkpointList();
  const sessions = new Set(checkpoints.map((c) => c.session).filter((s) => s !== undefined)).size;
  const off = Object.values(readCaptureStatus(store.dir))
    .filter((c) => c.state === 'off')
    .map((c) => ({ session: c.session, root: c.root, files: c.files, limit: c.limit, message: c.message ?? '' }));
  return {
    store: store.dir,
    resident: answer
      ? {
          running: true,
          pid: answer.pid,
          since: new Date(answer.since).toISOString(),
          roots: answer.roots,
          watches: answer.watches,
          served: answer.served,
          ...(answer.fallbacks ? { fallbacks: answer.fallbacks } : {}),
        }
      : { running: false, off: residentOff(process.env), ...(live ? { pid: live.pid } : {}) },
    counts: { checkpoints: checkpoints.length, sessions, paths: store.latestSnaps().size, logBytes: fileSize(store.logFile) },
    ...(off.length ? { captureOff: off } : {}),
  };
}

/** The resident's line, as the status command and the status bar tooltip word it. */
export function residentLine(r: StatusJson['resident']): string {
  if (r.running)
    return `Resident recorder: running (process ${r.pid}, since ${r.since}; ${r.roots.length} root(s), ${r.watches} watch(es); ${r.served} hook(s) served).`;
  if (r.pid) return `Resident recorder: process ${r.pid} holds the lock but does not answer; hooks record by themselves.`;
  return r.off
    ? 'Resident recorder: off (AGENT_REWIND_RESIDENT=0); hooks record by themselves.'
    : 'Resident recorder: not running; hooks record by themselves, and the next one starts it.';
}

/**
 * What the resident's file watcher could not narrow, in words (null when the watcher is off): scans of the
 * whole workspace by reason, and the folders it looks at alone.
 */
export function fallbacksLine(f: Fallbacks | undefined): string | null {
  if (!f) return null;
  const reasons = Object.entries(f.byReason)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const whole = f.total ? `${f.total} shell scan(s) of the whole workspace (${reasons})` : 'no shell scan of the whole workspace';
  const alone = f.wholeFolders.length
    ? `; ${f.wholeFolders.length} folder(s) it does not watch are scanned alone: ${f.wholeFolders.join(', ')}`
    : '';
  const starts = f.sessionStarts ? `; session starts: ${f.sessionStarts.walked} walked the tree, ${f.sessionStarts.narrowed} narrowed` : '';
  return `File watcher: ${whole} since it started${alone}${starts}.`;
}

export async function printStatus(store: Store, json: boolean): Promise<number> {
  const s = await storeStatus(store);
  if (json) {
    out(JSON.stringify(s, null, 2));
    return EXIT.ok;
  }
  const c = s.counts;
  out(`Store: ${s.store}`);
  out(residentLine(s.resident));
  const fb = s.resident.running ? fallbacksLine(s.resident.fallbacks) : null;
  if (fb) out(fb);
  for (const c of s.captureOff ?? [])
    out(
      `Shell capture is off for session ${c.session} in ${c.root}: more than ${c.limit} files (maxScanFiles); shell commands there are not recorded.`,
    );
  out(
    `Recorded: ${c.checkpoints} checkpoint(s), ${c.sessions} session(s), ${c.paths} path(s); timeline ${(c.logBytes / 1048576).toFixed(1)} MB.`,
  );
  return EXIT.ok;
}
