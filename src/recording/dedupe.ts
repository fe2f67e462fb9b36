// An agent that loads two hook files of ours (`.claude/settings.local.json` and
// `.github/hooks/agent-rewind.json`: VS Code and Copilot CLI both do) delivers every event twice,
// with the same input — the same `timestamp` included (FINDINGS.md §6 "Double recording"). The
// first delivery creates a marker named after (agent, session, event, timestamp, tool, input) with
// O_EXCL; a second delivery of the same key within the window finds it and records nothing. Payloads
// without a timestamp (Claude Code, Cursor) are never deduplicated: two identical calls in a row are
// two calls. Markers older than the window are swept at turn boundaries.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../core/storeFiles/blobs';
import { claimMarker, sweepMarkers } from '../core/storeFiles/markerFiles';
import type { Store } from '../core/store';
import type { AgentEvent } from './events';
import { STORE_FILE } from '../core/storeFiles/names';

/** Both deliveries of one event come within the hook timeout of each other; a later same key is a new event. */
export const DEDUPE_WINDOW_MS = 10 * 60 * 1000;

function keyOf(e: AgentEvent, stamp: string): string {
  const tool = e.type === 'before_tool' || e.type === 'after_tool' ? [e.tool, JSON.stringify(e.input ?? null)] : [];
  const text = e.type === 'prompt' ? e.text : '';
  return sha256(Buffer.from(JSON.stringify([e.agent, e.session, e.type, stamp, text, ...tool]))).slice(0, 40);
}

/** True when this delivery is the first of its event (record it); false for a repeat (drop it). */
export function firstDelivery(store: Store, e: AgentEvent, stamp: string | undefined, now = Date.now()): boolean {
  if (!stamp) return true;
  const file = path.join(store.dir, STORE_FILE.dedupe, keyOf(e, stamp));
  try {
    if (claimMarker(file)) return true;
  } catch {
    return true; // cannot tell: record rather than lose
  }
  try {
    if (now - fs.statSync(file).mtimeMs < DEDUPE_WINDOW_MS) return false;
    fs.utimesSync(file, new Date(now), new Date(now)); // a stale marker: this is a new event
  } catch {
    /* swept meanwhile: record */
  }
  return true;
}

/** Removes markers older than the window (at turn boundaries; a handful of files). */
export function sweepDedupe(store: Store, now = Date.now()): void {
  sweepMarkers(path.join(store.dir, STORE_FILE.dedupe), DEDUPE_WINDOW_MS, now);
}
