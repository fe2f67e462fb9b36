// `agent-rewind status [--json]`: whether the store's resident recorder runs (pid, since, roots,
// watches) and what the store holds. Output contract: DESIGN §5 and the README's command-line section.
import * as fs from 'node:fs';
import type { Fallbacks } from '../core/capture/narrowing';
import { residentHolder } from '../core/storeFiles/lock';
import type { Store } from '../core/store';
import { checkpointWords, pathWords, promptWords, sessionWords, timelineCounts } from '../core/timeline/presentation';
import { isoTime } from '../shared/time';
import { recordingHealth } from '../core/upkeep/recordingHealth';
import { askResident } from '../resident/forward';
import { EXIT, out, outJson } from './output';
import { shown } from '../shared/text';
import { residentOff } from '../resident/residentWire';

export interface StatusJson {
  store: string;
  resident:
    | { running: true; pid: number; since: string; roots: string[]; watches: number; served: number; fallbacks?: Fallbacks }
    | { running: false; off: boolean; pid?: number };
  /** `prompts`: the Files view's prompt rows (the status bar's number); `sessions`: agent sessions only. */
  counts: { checkpoints: number; prompts: number; sessions: number; paths: number; logBytes: number };
  /** What was not recorded, said once: shell capture off, the store's write failures, dropped payloads (times in ISO 8601). */
  recording: {
    captureOff: { session: string; root: string; files: number; limit: number; since: string }[];
    writeFailures: { code: string; first: string; last: string }[];
    droppedPayloads: { count: number; first: string; last: string; paths: string[] } | null;
  };
}

const iso = isoTime;

function recordingJson(store: Store): StatusJson['recording'] {
  const h = recordingHealth(store);
  return {
    captureOff: h.captureOff.map((c) => ({ ...c, since: iso(c.since) })),
    writeFailures: h.writeFailures.map((f) => ({ code: f.code, first: iso(f.first), last: iso(f.last) })),
    droppedPayloads: h.dropped ? { ...h.dropped, first: iso(h.dropped.first), last: iso(h.dropped.last) } : null,
  };
}

/** The `recording` part of status in sentences: nothing when everything was recorded. */
export function recordingLines(r: StatusJson['recording']): string[] {
  const lines: string[] = [];
  for (const c of r.captureOff)
    lines.push(
      `Shell capture is off for session ${shown(c.session)} in ${shown(c.root)} since ${c.since}: ${c.files} files, over maxScanFiles (${c.limit}); what shell commands change there is not recorded (agent file edits are). Raise maxScanFiles to capture them.`,
    );
  for (const f of r.writeFailures)
    lines.push(
      `The store could not be written (${f.code}${f.code === 'ENOSPC' ? ': no space left on its disk' : ''}) between ${f.first} and ${f.last}: what agents did then was not recorded. Free space on the store's disk; \`agent-rewind plan\` lists the spans it touches.`,
    );
  const d = r.droppedPayloads;
  if (d)
    lines.push(
      `${d.count} hook payload(s) over 64 MB dropped since ${d.first} (last ${d.last}); the changes they carried were not recorded${d.paths.length ? `: ${d.paths.map(shown).join(', ')}` : ''}.`,
    );
  return lines;
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
  // The timeline's counts as the status bar shows them (core/timeline/presentation.ts).
  const counts = timelineCounts(store.checkpointList().checkpoints);
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
    counts: {
      checkpoints: counts.checkpoints,
      prompts: counts.prompts,
      sessions: counts.sessions,
      paths: store.latestSnaps().size,
      logBytes: fileSize(store.logFile),
    },
    recording: recordingJson(store),
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
    outJson(s);
    return EXIT.ok;
  }
  const c = s.counts;
  out(`Store: ${shown(s.store)}`);
  out(residentLine(s.resident));
  const fb = s.resident.running ? fallbacksLine(s.resident.fallbacks) : null;
  if (fb) out(fb);
  out(
    `Recorded: ${checkpointWords(c.checkpoints)}, ${promptWords(c.prompts)}, ${sessionWords(c.sessions)}, ${pathWords(c.paths)}; timeline ${(c.logBytes / 1048576).toFixed(1)} MB.`,
  );
  const gaps = recordingLines(s.recording);
  if (gaps.length) out(`Not recorded:\n${gaps.map((l) => `  ${l}`).join('\n')}`);
  return EXIT.ok;
}
