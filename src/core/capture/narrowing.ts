// A file watcher's help (the resident recorder; hook processes have none): a scan looks only at the
// paths the watcher vouches changed since the state it starts from was scanned. The watcher itself
// is the recording layer's ChangeSource (recording/changeSource.ts); capture needs only this much of it.
//
// What it could not narrow is counted here (DESIGN §5, `resident.fallbacks` of `agent-rewind
// status`): each scan of a hook call the watcher could not narrow at all, by reason, and the folders
// it does not cover that narrowed scans look at alone.
import * as path from 'node:path';
import { writeFileAtomic } from '../storeFiles/fsx';
import type { ScanOptions, ScanResult, ScanState } from '../scan/types';
import { STORE_FILE } from '../storeFiles/names';
import { readJsonFile } from '../storeFiles/jsonFile';

/** The part of a ChangeSource that narrows a scan. `T` is its opaque token. */
export interface ChangeSight<T = unknown> {
  /** The current moment for `root` (taken BEFORE a scan starts). Undefined: not watched, or cannot vouch. */
  token(root: string): T | undefined;
  /** Absolute paths under `root` that may have changed since `token`; undefined: cannot vouch, scan. */
  changedSince(root: string, token: T): ReadonlySet<string> | undefined;
  /** Is this folder (absolute) watched now? */
  covers(root: string, dir: string): boolean;
  /** A short code for why `root` does not vouch (or did not since a token was taken). */
  reason?(root: string): string;
  /** A number that changes whenever the set of folders watched under `root` does (`covers` answers may be remembered until then). */
  coverage?(root: string): number;
  /** Watch these folders (absolute) too: the scan enters them, the watcher does not cover them. */
  include?(root: string, dirs: readonly string[]): void;
  /**
   * Since when it vouches for `root`: the token of the moment its watch (of this epoch) became ready, and
   * that moment's wall-clock time. Undefined: it does not vouch. (A state a hook saved may be narrowed from it.)
   */
  readySince?(root: string): { token: T; wall: number } | undefined;
  /** When the watch of this folder (absolute) under `root` was set up (wall-clock ms); undefined: not watched. */
  watchedAt?(root: string, dir: string): number | undefined;
}

/**
 * Per state file: the watcher's token taken just before the scan that produced the state as saved
 * (identified by its `scanned` time). A state this process saved itself is narrowed from it; one a hook
 * saved (the resident was starting, or did not answer in time) has another `scanned`, and is narrowed
 * only where the watcher vouches for everything since that scan began (`adopted`), else scanned whole.
 */
const tokens = new Map<string, { scanned: number; token: unknown }>();

/**
 * How much later than the watch a scan must have begun for the watch to vouch for what changed after it:
 * the scan's start (a hook's `Date.now()`) and the watch's (the resident's) are read from the wall clock,
 * in two processes, in milliseconds, and the clock may have been set a little between them.
 */
export const ADOPT_SLACK_MS = 1000;

/**
 * Scans this process ran with a watcher at hand: narrowed to its paths, or whole (for status and tests);
 * `adopted`: of the narrowed ones, those of a state this process did not save (a hook's, scanned after the watch was up).
 */
export const watchedScans = { narrowed: 0, whole: 0, adopted: 0 };

/**
 * What the watcher could not narrow since this process started: `total` scans of the whole tree
 * (`byReason`), `partial` narrowed scans that looked at some folders alone, and those folders
 * (absolute) per root as the latest scan of that root left them.
 */
export interface Fallbacks {
  total: number;
  byReason: Record<string, number>;
  partial: number;
  wholeFolders: string[];
  /** Session starts: the tree walked (no state the watcher vouches for), or a held state brought up to date. */
  sessionStarts: { walked: number; narrowed: number };
}

const counted = {
  total: 0,
  byReason: {} as Record<string, number>,
  partial: 0,
  alone: new Map<string, string[]>(),
  starts: { walked: 0, narrowed: 0 },
};

/** A session start with a watcher at hand: walked, or narrowed (./watchedStart.ts). */
export function countStart(narrowed: boolean): void {
  counted.starts[narrowed ? 'narrowed' : 'walked']++;
}

/** What this process's watcher could not narrow; `unwatched`: folders it could not watch (scanned alone too). */
export function fallbacks(unwatched: readonly string[] = []): Fallbacks {
  const wholeFolders = [...new Set([...counted.alone.values()].flat().concat(unwatched))].sort();
  return {
    total: counted.total,
    byReason: { ...counted.byReason },
    partial: counted.partial,
    wholeFolders,
    sessionStarts: { ...counted.starts },
  };
}

/** The resident's fallbacks for VS Code's status bar (it reads files, it asks no process): `<store>/watch-fallbacks.json`. */

export interface FallbacksFile {
  pid: number;
  fallbacks: Fallbacks;
}

/** Writes them when they differ from what the file holds (`last`: the text written before); returns the text now there. */
export function writeFallbacks(storeDir: string, f: Fallbacks, last: string): string {
  const text = JSON.stringify({ pid: process.pid, fallbacks: f } satisfies FallbacksFile) + '\n';
  if (text !== last) writeFileAtomic(path.join(storeDir, STORE_FILE.watchFallbacks), text);
  return text;
}

/** The fallbacks the resident with this pid wrote, or null (none written, or another process's). */
export function readFallbacks(storeDir: string, pid: number): Fallbacks | null {
  const v = readJsonFile(path.join(storeDir, STORE_FILE.watchFallbacks)) as FallbacksFile | null | undefined;
  return v?.pid === pid && v.fallbacks && typeof v.fallbacks.total === 'number' ? v.fallbacks : null;
}

function wholeTree(reason: string): void {
  watchedScans.whole++;
  counted.total++;
  counted.byReason[reason] = (counted.byReason[reason] ?? 0) + 1;
}

/** The state files whose state this process saved last with a token, newest scan first (a session start may start from one). */
export function heldTokenFiles(): string[] {
  return [...tokens.entries()].sort((a, b) => b[1].scanned - a[1].scanned).map(([file]) => file);
}

function watched(source: ChangeSight, state: ScanState, paths: ReadonlySet<string>): NonNullable<ScanOptions['changed']> {
  const coverage = source.coverage?.(state.root);
  return { paths, covers: (dir) => source.covers(state.root, dir), ...(coverage !== undefined ? { coverage } : {}) };
}

/**
 * The paths the watcher vouches changed since the state in `file` was scanned, or why it cannot (a fallback
 * reason). The state this process saved last is narrowed from the token kept with it; any other — a hook saved
 * it (before the resident was ready, or when it did not answer in time), or none since the start — is adopted
 * where the watch vouches for what changed since its scan began (counted `adopted`).
 */
function sightOf(source: ChangeSight, file: string, state: ScanState): { changed: NonNullable<ScanOptions['changed']> } | { why: string } {
  const held = tokens.get(file);
  if (!held || held.scanned !== state.scanned) {
    const adopted = adoptedChanges(source, state);
    if (!adopted) return { why: 'state-not-held' };
    watchedScans.adopted++;
    return { changed: adopted };
  }
  const paths = source.changedSince(state.root, held.token);
  return paths ? { changed: watched(source, state, paths) } : { why: source.reason?.(state.root) ?? 'not-watched' };
}

/** The paths the watcher vouches changed since the state in `file` was scanned, or undefined (a fallback not counted: a session start walks). */
export function vouchedChanges(source: ChangeSight, file: string, state: ScanState): ScanOptions['changed'] {
  const sight = sightOf(source, file, state);
  return 'changed' in sight ? sight.changed : undefined;
}

/** Is the token this process kept for `file` the one of the scan that made a state scanned at `scanned`? */
export function holdsToken(file: string, scanned: number): boolean {
  return tokens.get(file)?.scanned === scanned;
}

/** The paths the watcher vouches changed since this state was scanned, or undefined (scan the whole tree; counted by reason). */
export function watchedChanges(source: ChangeSight | undefined, file: string, state: ScanState): ScanOptions['changed'] {
  if (!source) return undefined;
  const sight = sightOf(source, file, state);
  if ('why' in sight) {
    wholeTree(sight.why);
    return undefined;
  }
  return sight.changed;
}

/**
 * A state this process did not save, narrowed where the watcher vouches for every change since its scan
 * began (`state.scanned`, a time taken before the scan looked at anything):
 * - begun after the root's watch was ready (with ADOPT_SLACK_MS to spare): what changed since is what the
 *   watcher saw since it was ready. Every folder's watch was set up before the ready moment, and the events
 *   of the setup are only delivered after it (the setup runs at once, without yielding): they are there too.
 * - begun while the watch was being set up: the same, except that each folder watched later than the scan
 *   began (or too close to it to tell) is scanned alone — what changed in it between the scan and its watch
 *   raised no event.
 * - begun before the root's own watch, or unknown: undefined (the whole tree is scanned).
 * A scan time in the future (the clock was set back since) proves nothing: the whole tree too.
 */
function adoptedChanges(source: ChangeSight, state: ScanState): ScanOptions['changed'] {
  const root = state.root;
  const ready = source.readySince?.(root);
  const rootAt = source.watchedAt?.(root, root);
  if (!ready || rootAt === undefined || !(state.scanned > rootAt + ADOPT_SLACK_MS) || state.scanned > Date.now()) return undefined;
  const paths = source.changedSince(root, ready.token);
  if (!paths) return undefined;
  if (state.scanned > ready.wall + ADOPT_SLACK_MS) return watched(source, state, paths);
  // Which folders are covered differs from the watcher's own answer: not remembered (no `coverage`).
  const before = state.scanned - ADOPT_SLACK_MS;
  const covers = (dir: string) => {
    const at = source.watchedAt!(root, dir);
    return at !== undefined && at < before && source.covers(root, dir);
  };
  return { paths, covers };
}

/**
 * After a scan with a watcher at hand: counted (narrowed, partly, or whole when the scan could not use the
 * watcher's paths: a rule file changed), and the folders it does not cover handed to it to watch.
 */
export function countScan(source: ChangeSight | undefined, state: ScanState, changed: ScanOptions['changed'], r: ScanResult): void {
  if (!source) return;
  if (changed && !r.narrowed) wholeTree(state.dirTimes ? 'rule-file-changed' : 'folder-times');
  else if (changed) {
    watchedScans.narrowed++;
    const base = state.root + path.sep;
    // Only the folders it does not watch: one an adopted state's scan looked at alone (its watch began after
    // that state's scan) is watched, and no fallback to show.
    const alone = (r.alone ?? [])
      .map((rel) => (rel ? base + rel.split('/').join(path.sep) : state.root))
      .filter((abs) => !source.covers(state.root, abs));
    if (r.alone?.length) counted.partial++;
    counted.alone.set(state.root, alone);
    if (!r.uncovered) return; // every folder it enters is watched: nothing to hand over
  }
  includeUncovered(source, state);
}

/** The folders of the state the watcher does not cover, handed to it to watch (a baseline's, a scan's). */
export function includeUncovered(source: ChangeSight | undefined, state: ScanState): void {
  if (!source?.include || !source.token(state.root) || state.off) return;
  const base = state.root + path.sep;
  const out: string[] = [];
  for (const rel of state.dirs.keys()) {
    const abs = rel ? base + rel.split('/').join(path.sep) : state.root;
    if (!source.covers(state.root, abs)) out.push(abs);
  }
  if (out.length) source.include(state.root, out);
}

/** After saving `state`: the token taken before the scan that made it (none: the next call scans). */
export function keepToken(file: string, state: ScanState, token: unknown): void {
  if (token && !state.off) tokens.set(file, { scanned: state.scanned, token });
  else tokens.delete(file);
}
