// Shell capture's status file, `<store>/capture.json`: per session, is capture on, off (and why), or
// taking its baseline. Read by the CLI (`agent-rewind status`) and the VS Code status bar.
import * as path from 'node:path';
import { writeFileAtomic } from '../storeFiles/fsx';
import type { ScanState } from '../scan/types';
import type { Store } from '../store';
import { STORE_FILE } from '../storeFiles/names';
import { readJsonFile } from '../storeFiles/jsonFile';

export interface CaptureStatus {
  session: string;
  root: string;
  /** `baseline`: the session's first scan is running (VS Code shows progress until it is not). */
  state: 'on' | 'off' | 'baseline';
  files: number;
  limit: number;
  /** Files whose baseline copy is still to be made (done before the next shell command). */
  pending?: number;
  baselineMs?: number;
  git?: boolean;
  message?: string;
  time: number;
}

/** A baseline that started this long ago and never finished was killed (its hook is gone). */
export const BASELINE_STALE_MS = 120000;

export function readCaptureStatus(storeDir: string): Record<string, CaptureStatus> {
  const v = readJsonFile(path.join(storeDir, STORE_FILE.captureStatus)) as { sessions?: Record<string, CaptureStatus> } | null | undefined;
  return v?.sessions ?? {};
}

/** Sessions whose baseline is running now. */
export function baselinesRunning(all: Record<string, CaptureStatus>, now = Date.now()): CaptureStatus[] {
  return Object.values(all).filter((s) => s.state === 'baseline' && now - s.time < BASELINE_STALE_MS);
}

export function writeCaptureStatus(store: Store, s: CaptureStatus): void {
  try {
    const all = readCaptureStatus(store.dir);
    all[s.session] = s;
    const keep = Object.values(all)
      .sort((a, b) => b.time - a.time)
      .slice(0, 50);
    const file = path.join(store.dir, STORE_FILE.captureStatus);
    writeFileAtomic(file, JSON.stringify({ sessions: Object.fromEntries(keep.map((k) => [k.session, k])) }, null, 2) + '\n');
  } catch (e) {
    store.logError(`shell capture: could not write ${STORE_FILE.captureStatus}: ${(e as Error).message}`);
  }
}

/** The baseline's late copies are done: the status stops counting them. */
export function refreshStatus(store: Store, state: ScanState): void {
  const all = readCaptureStatus(store.dir);
  const s = all[state.session];
  if (s && s.pending) {
    delete s.pending;
    writeCaptureStatus(store, { ...s, time: Date.now() });
  }
}

export function offMessage(count: number, limit: number, store: Store): string {
  return (
    `Shell capture is off for this session: the workspace has more than ${limit.toLocaleString('en-US')} files that are not ignored ` +
    `(counted ${count.toLocaleString('en-US')} before stopping), the limit set by maxScanFiles. Files changed by shell commands will not be ` +
    `recorded or rewound; edits through the agent's file tools still are. To capture them, raise "maxScanFiles" in ` +
    `${path.join(store.dir, STORE_FILE.config)} (VS Code: the Agent Rewind "Max Scan Files" setting) or add large folders to "excludes", then start a new session.`
  );
}
