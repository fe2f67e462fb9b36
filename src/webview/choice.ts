// Which files and hunks of the preview the user chose (pure, no DOM): every file and hunk starts
// chosen; the page keeps what was unticked, so a refreshed plan with a new file offers it ticked.
// What is chosen becomes the rewind's files (ChosenFile: the CLI's --path and --hunks); the core
// shapes the bytes and decides what is refused.
import type { ChosenFile, PreviewFile, PreviewHunk, PreviewModel } from '../shared/messages';

/** What the user unticked: whole files, and hunks by file (a file all of whose hunks are unticked is not chosen). */
export interface Unticked {
  files: string[];
  hunks: Record<string, string[]>;
}

export const noneUnticked = (): Unticked => ({ files: [], hunks: {} });

/** Unticked as the webview kept it, checked field by field. */
export function restoreUnticked(saved: unknown): Unticked {
  const s = saved as Partial<Unticked> | undefined;
  const files = Array.isArray(s?.files) ? s.files.filter((p): p is string => typeof p === 'string') : [];
  const hunks: Record<string, string[]> = {};
  if (s?.hunks && typeof s.hunks === 'object')
    for (const [p, ids] of Object.entries(s.hunks))
      if (Array.isArray(ids)) hunks[p] = ids.filter((i): i is string => typeof i === 'string');
  return { files, hunks };
}

/** Only what the model still lists (a hunk id changes when its lines do: an edited hunk is offered ticked again). */
export function fitUnticked(u: Unticked, m: PreviewModel): Unticked {
  const byPath = new Map(m.files.map((f) => [f.path, f]));
  const hunks: Record<string, string[]> = {};
  for (const [p, ids] of Object.entries(u.hunks)) {
    const known = new Set((byPath.get(p)?.hunks ?? []).map((h) => h.id));
    const kept = ids.filter((id) => known.has(id));
    if (kept.length) hunks[p] = kept;
  }
  return { files: u.files.filter((p) => byPath.has(p)), hunks };
}

export function hunkChosen(u: Unticked, f: PreviewFile, h: PreviewHunk): boolean {
  return !u.files.includes(f.path) && !(u.hunks[f.path] ?? []).includes(h.id);
}

/** The file's chosen hunks (all of them for a file without hunks to choose: it is taken whole). */
export function chosenHunks(u: Unticked, f: PreviewFile): PreviewHunk[] {
  return (f.hunks ?? []).filter((h) => hunkChosen(u, f, h));
}

/** Whether the file is written: ticked, and (when it has hunks) with at least one hunk ticked. */
export function fileChosen(u: Unticked, f: PreviewFile): boolean {
  if (u.files.includes(f.path)) return false;
  return !f.hunks?.length || chosenHunks(u, f).length > 0;
}

/** Ticks or unticks a whole file (ticking it ticks all its hunks). */
export function setFile(u: Unticked, path: string, chosen: boolean): void {
  u.files = u.files.filter((p) => p !== path);
  delete u.hunks[path];
  if (!chosen) u.files.push(path);
}

/** Ticks or unticks one hunk; ticking a hunk of an unticked file ticks the file with that hunk only. */
export function setHunk(u: Unticked, f: PreviewFile, id: string, chosen: boolean): void {
  const all = (f.hunks ?? []).map((h) => h.id);
  let off = u.files.includes(f.path) ? all : (u.hunks[f.path] ?? []);
  u.files = u.files.filter((p) => p !== f.path);
  off = chosen ? off.filter((x) => x !== id) : [...new Set([...off, id])];
  if (off.length) u.hunks[f.path] = off;
  else delete u.hunks[f.path];
}

export interface ChoiceCount {
  /** Files chosen, of all the preview lists. */
  files: number;
  of: number;
  /** Hunks chosen, over the chosen files that have hunks. */
  hunks: number;
  /** Every file and every hunk is chosen: the rewind is the whole one. */
  all: boolean;
}

export function countChoice(m: PreviewModel, u: Unticked): ChoiceCount {
  const chosen = m.files.filter((f) => fileChosen(u, f));
  const hunks = chosen.reduce((n, f) => n + chosenHunks(u, f).length, 0);
  const all = chosen.length === m.files.length && chosen.every((f) => chosenHunks(u, f).length === (f.hunks?.length ?? 0));
  return { files: chosen.length, of: m.files.length, hunks, all };
}

/** What the rewind message carries: undefined for the whole rewind, else each chosen file with its hunks when not all are. */
export function chosenFiles(m: PreviewModel, u: Unticked): ChosenFile[] | undefined {
  if (countChoice(m, u).all) return undefined;
  return m.files
    .filter((f) => fileChosen(u, f))
    .map((f) => {
      const ids = chosenHunks(u, f).map((h) => h.id);
      return ids.length && ids.length < (f.hunks?.length ?? 0) ? { path: f.path, hunks: ids } : { path: f.path };
    });
}

/**
 * Files chosen in part whose chosen hunks touch lines the user changed (the core's touchesMine): with
 * Keep mine the rewind refuses them, as the core's transaction does (shapeWrites' `touching`). A file
 * chosen whole is merged instead (its verdict says whether cleanly).
 */
export function touchingMine(m: PreviewModel, u: Unticked): { file: PreviewFile; hunks: PreviewHunk[] }[] {
  return m.files
    .filter((f) => fileChosen(u, f) && chosenHunks(u, f).length < (f.hunks?.length ?? 0))
    .map((file) => ({ file, hunks: chosenHunks(u, file).filter((h) => h.touchesMine) }))
    .filter((t) => t.hunks.length > 0);
}
