// Line-level content for a rewind that writes less than the target's whole file (pure, on bytes):
// the hunks between the disk now and the target, the file with a chosen subset of them taken, and
// "keep mine" — a three-way merge (base: what the agent left, mine: the disk now, target: the state
// at the rewind point) that reverts the agent's change and keeps the user's lines.
//
// The line diffs are jsdiff's (Myers, bounded by an edit budget); the merge of the two change lists
// over the base is diff3's: changes from both sides that overlap or touch (adjacent lines, or an
// insertion at the same place) are a conflict unless they are the same change, as git's merge
// decides. Lines are split after every LF and keep their ends, and bytes are read as latin1 (one
// char per byte), so CRLF, a missing final newline and any encoding come out byte for byte.
import { createHash } from 'node:crypto';
import { diffArrays } from 'diff';
import { isBinary } from '../timeline/lineStats';

/** `[start, lines]`: 1-based first line and count; for 0 lines, the line after which (0 = the top), as in a unified diff. */
export type LineRange = [number, number];

export interface Hunk {
  /** Stable for the same two contents: the position and the lines it changes. */
  id: string;
  /** The lines it replaces in the file now. */
  from: LineRange;
  /** The lines it writes, as numbered in the target. */
  to: LineRange;
  plus: number;
  minus: number;
}

/** One change over the lines of `a`: `a[start, end)` becomes `lines` (at `bStart` in `b`). */
interface Edit {
  start: number;
  end: number;
  bStart: number;
  lines: string[];
}

/**
 * Above this many differing lines a diff is given up (no hunks; a merge is refused as too large):
 * the diff's cost grows with the file's length times this, and a plan must stay quick.
 */
const MAX_EDIT_LENGTH = 1000;

export function splitLines(data: Uint8Array | null): string[] {
  if (!data || data.length === 0) return [];
  return (
    Buffer.from(data)
      .toString('latin1')
      .match(/[^\n]*\n|[^\n]+$/g) ?? []
  );
}

export function joinLines(lines: readonly string[]): Buffer {
  return Buffer.from(lines.join(''), 'latin1');
}

export function isTextContent(...sides: (Uint8Array | null)[]): boolean {
  return sides.every((s) => !s || !isBinary(s));
}

/**
 * The changes that take `a` to `b`, or null past the edit budget. The lines both begin and end with
 * are in every shortest edit script: only what lies between is diffed.
 */
function edits(a: string[], b: string[]): Edit[] | null {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const changes = diffArrays(a.slice(head, a.length - tail), b.slice(head, b.length - tail), { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return null;
  const out: Edit[] = [];
  let i = head;
  let j = head;
  let cur: Edit | null = null;
  for (const c of changes) {
    if (!c.added && !c.removed) {
      if (cur) out.push(cur);
      cur = null;
      i += c.count;
      j += c.count;
      continue;
    }
    cur ??= { start: i, end: i, bStart: j, lines: [] };
    if (c.removed) cur.end = i += c.count;
    else {
      cur.lines.push(...c.value);
      j += c.count;
    }
  }
  if (cur) out.push(cur);
  return out;
}

function range(start: number, count: number): LineRange {
  return [count === 0 ? start : start + 1, count];
}

function hunkId(e: Edit, a: readonly string[]): string {
  const h = createHash('sha256');
  h.update(`${e.start}\u0000`);
  for (const l of a.slice(e.start, e.end)) h.update(l);
  h.update('\u0000');
  for (const l of e.lines) h.update(l);
  return h.digest('hex').slice(0, 8);
}

/** The hunks that take `current` to `target`, or null when there are none to give (binary, too many changes). */
export function hunksOf(current: Uint8Array | null, target: Uint8Array | null): Hunk[] | null {
  if (!isTextContent(current, target)) return null;
  const a = splitLines(current);
  const list = edits(a, splitLines(target));
  if (!list) return null;
  return list.map((e) => ({
    id: hunkId(e, a),
    from: range(e.start, e.end - e.start),
    to: range(e.bStart, e.lines.length),
    plus: e.lines.length,
    minus: e.end - e.start,
  }));
}

/** A hunk's lines, for a reader to choose it by: those it removes from the file now and those it writes. */
export interface HunkLines {
  minus: string[];
  plus: string[];
}

/** A line as split here (latin1, with its end), for a reader: decoded as UTF-8, without its line end. */
export const lineText = (l: string): string =>
  Buffer.from(l, 'latin1')
    .toString('utf8')
    .replace(/\r?\n$/, '');

/** Each hunk's lines by id (as hunksOf gives the ids), decoded as UTF-8 without their line ends; null as hunksOf. */
export function hunkLinesOf(current: Uint8Array | null, target: Uint8Array | null): Map<string, HunkLines> | null {
  if (!isTextContent(current, target)) return null;
  const a = splitLines(current);
  const list = edits(a, splitLines(target));
  if (!list) return null;
  const text = lineText;
  return new Map(list.map((e) => [hunkId(e, a), { minus: a.slice(e.start, e.end).map(text), plus: e.lines.map(text) }]));
}

/** The ids of the hunks of `current` that touch a line the user changed (mine against base): taking one would overwrite the user's lines. */
export function hunkIdsTouchingMine(base: Uint8Array, mine: Uint8Array, target: Uint8Array): string[] {
  const a = splitLines(mine);
  const list = edits(a, splitLines(target)) ?? [];
  const all = new Set(list.map((e) => hunkId(e, a)));
  const touching = new Set(hunksTouchingMine(base, mine, target, all).map(([start, n]) => `${start}:${n}`));
  return list.filter((e) => touching.has(range(e.start, e.end - e.start).join(':'))).map((e) => hunkId(e, a));
}

/** `current` with the target's lines in place of the chosen hunks only (ids as hunksOf gives them). */
export function takeHunks(current: Uint8Array | null, target: Uint8Array | null, chosen: ReadonlySet<string>): Buffer {
  const a = splitLines(current);
  const list = edits(a, splitLines(target)) ?? [];
  const out: string[] = [];
  let i = 0;
  for (const e of list) {
    if (!chosen.has(hunkId(e, a))) continue;
    out.push(...a.slice(i, e.start), ...e.lines);
    i = e.end;
  }
  out.push(...a.slice(i));
  return joinLines(out);
}

/**
 * Where both sides changed the same or adjacent lines: `from` in mine (the file now, as the plan names
 * it), the same region in the base (what the agent left) and in the target (the rewind point), and
 * each side's lines there (latin1, with their line ends: the bytes as they are).
 */
export interface Conflict {
  from: LineRange;
  base: LineRange;
  target: LineRange;
  lines: { mine: string[]; base: string[]; target: string[] };
}

export type MergeResult = { merge: 'clean'; content: Buffer } | { merge: 'conflict'; conflicts: Conflict[] } | { merge: 'too-large' };

/** The base lines `o[start, end)` with one side's edits (all within them) applied. */
function sideOf(o: readonly string[], start: number, end: number, side: readonly Edit[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const e of side) {
    out.push(...o.slice(at, e.start), ...e.lines);
    at = e.end;
  }
  out.push(...o.slice(at, end));
  return out;
}

const sameEdit = (x: Edit, y: Edit) => x.start === y.start && x.end === y.end && x.lines.join('') === y.lines.join('');

/**
 * Three-way merge: the change base → target applied to mine, where mine changed base elsewhere.
 * Clean: the merged bytes. Conflict: the ranges (in mine, the file now) where both changed the
 * same or adjacent lines — nothing is merged then.
 */
export function threeWay(base: Uint8Array, mine: Uint8Array, target: Uint8Array): MergeResult {
  const o = splitLines(base);
  const ours = edits(o, splitLines(mine));
  const theirs = edits(o, splitLines(target));
  if (!ours || !theirs) return { merge: 'too-large' };
  const all = [...ours.map((e) => ({ e, mine: true })), ...theirs.map((e) => ({ e, mine: false }))].sort(
    (x, y) => x.e.start - y.e.start || x.e.end - y.e.end,
  );
  const out: string[] = [];
  const conflicts: Conflict[] = [];
  let i = 0;
  let shift = 0; // lines mine has more than base before `i`
  let targetShift = 0; // and the target
  for (let k = 0; k < all.length;) {
    // A cluster: changes that touch one another, transitively.
    const cluster = [all[k]!];
    let end = all[k]!.e.end;
    for (k++; k < all.length && all[k]!.e.start <= end; k++) {
      cluster.push(all[k]!);
      end = Math.max(end, all[k]!.e.end);
    }
    const start = cluster[0]!.e.start;
    const mineEdits = cluster.filter((c) => c.mine).map((c) => c.e);
    const targetEdits = cluster.filter((c) => !c.mine).map((c) => c.e);
    const growth = (side: Edit[]) => side.reduce((n, e) => n + e.lines.length - (e.end - e.start), 0);
    const mineGrowth = growth(mineEdits);
    const targetGrowth = growth(targetEdits);
    out.push(...o.slice(i, start));
    const same = mineEdits.length === 1 && targetEdits.length === 1 && sameEdit(mineEdits[0]!, targetEdits[0]!);
    if (mineEdits.length && targetEdits.length && !same)
      conflicts.push({
        from: range(start + shift, end - start + mineGrowth),
        base: range(start, end - start),
        target: range(start + targetShift, end - start + targetGrowth),
        lines: { mine: sideOf(o, start, end, mineEdits), base: o.slice(start, end), target: sideOf(o, start, end, targetEdits) },
      });
    // One side only (or both the same): its changes, in order, over the base lines between them.
    out.push(...sideOf(o, start, end, mineEdits.length ? mineEdits : targetEdits));
    shift += mineGrowth;
    targetShift += targetGrowth;
    i = end;
  }
  if (conflicts.length) return { merge: 'conflict', conflicts };
  out.push(...o.slice(i));
  return { merge: 'clean', content: joinLines(out) };
}

/** Whether any chosen hunk of `current` touches a line the user changed (mine against base): those hunks would overwrite the user's lines. */
export function hunksTouchingMine(base: Uint8Array, mine: Uint8Array, target: Uint8Array, chosen: ReadonlySet<string>): LineRange[] {
  const a = splitLines(mine);
  const ours = edits(splitLines(base), a);
  const toTarget = edits(a, splitLines(target));
  if (!ours || !toTarget) return [];
  // The user's changes, in the lines of mine.
  const user = ours.map((e) => ({ start: e.bStart, end: e.bStart + e.lines.length }));
  return toTarget
    .filter((h) => chosen.has(hunkId(h, a)) && user.some((u) => h.start <= u.end && u.start <= h.end))
    .map((h) => range(h.start, h.end - h.start));
}
