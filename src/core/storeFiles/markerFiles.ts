// The store's marker folders: small files whose being there is the message, one per event, call or request —
// `dedupe/` (an event's first delivery), `pending/` (a tool call waiting for its pair), `inflight/` (a call
// whose after is due), `resident-pending/` (who records a forwarded payload). One way to make a marker (its
// folder made private on first use), one way to claim one among racing processes (whoever creates it, or
// whoever removes it, first: the file system decides, so two claimers never both win), and one sweep of
// those a crash or a hook that stopped waiting left behind.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errCode } from './fsx';

/** Runs `make` in `folder`; when the folder is missing (ENOENT), makes it (0700, parents too) and runs it once more. */
export function inMarkerFolder<T>(folder: string, make: () => T): T {
  try {
    return make();
  } catch (e) {
    if (errCode(e) !== 'ENOENT') throw e;
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    return make();
  }
}

/**
 * Claims the marker `file` by creating it exclusively (0600, empty): true when this call made it, false when
 * it was there already (another process claimed it first). Any other failure throws: the caller cannot tell.
 */
export function claimMarker(file: string): boolean {
  return inMarkerFolder(path.dirname(file), () => {
    try {
      fs.closeSync(fs.openSync(file, 'wx', 0o600));
      return true;
    } catch (e) {
      if (errCode(e) === 'EEXIST') return false;
      throw e;
    }
  });
}

/** Writes the marker `file` (0600), replacing one of that name; its folder is made when missing. */
export function putMarker(file: string, text = ''): void {
  inMarkerFolder(path.dirname(file), () => fs.writeFileSync(file, text, { mode: 0o600 }));
}

/** Takes the marker `file` by removing it: true when this call removed it, false when it was gone (another took it). */
export function takeMarker(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Removes the markers of `folder` that are at least `maxAgeMs` old (by their time of change); a missing folder has none. */
export function sweepMarkers(folder: string, maxAgeMs: number, now = Date.now()): void {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return;
  }
  for (const n of names) {
    try {
      const f = path.join(folder, n);
      if (now - fs.statSync(f).mtimeMs >= maxAgeMs) fs.unlinkSync(f);
    } catch {
      /* gone, or not a file */
    }
  }
}
