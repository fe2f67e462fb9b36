// Insertion/deletion counts for a dry run, from the `diff` library — bounded, so a huge or binary
// file can never stall a preview: binary content counts no lines, and a diff that would exceed
// the edit budget falls back to a line-multiset estimate (marked approximate).
import { diffLines } from 'diff';

export interface LineStats {
  insertions: number;
  deletions: number;
  binary?: boolean;
  approximate?: boolean;
}

/** Above this many bytes on either side, skip the real diff and estimate. */
const MAX_DIFF_BYTES = 1 << 20;
/** Edit-distance budget for the real diff (jsdiff aborts beyond it). */
const MAX_EDIT_LENGTH = 5000;

export function isBinary(data: Uint8Array): boolean {
  const n = Math.min(data.length, 8000);
  for (let i = 0; i < n; i++) if (data[i] === 0) return true;
  return false;
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith('\n') ? n : n + 1;
}

function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Lines only in one side, counted as multisets: exact when nothing moved, cheap always. */
function estimate(a: string, b: string): LineStats {
  const counts = new Map<string, number>();
  for (const l of splitLines(a)) counts.set(l, (counts.get(l) ?? 0) + 1);
  let insertions = 0;
  for (const l of splitLines(b)) {
    const c = counts.get(l) ?? 0;
    if (c > 0) counts.set(l, c - 1);
    else insertions++;
  }
  let deletions = 0;
  for (const c of counts.values()) deletions += c;
  return { insertions, deletions, approximate: true };
}

/**
 * What writing `to` over `from` changes, in lines. `null` = the file does not exist on that side.
 */
export function lineStats(from: Uint8Array | null, to: Uint8Array | null): LineStats {
  if ((from && isBinary(from)) || (to && isBinary(to))) return { insertions: 0, deletions: 0, binary: true };
  const a = from ? Buffer.from(from).toString('utf8') : '';
  const b = to ? Buffer.from(to).toString('utf8') : '';
  if (a === b) return { insertions: 0, deletions: 0 };
  if (!from) return { insertions: countLines(b), deletions: 0 };
  if (!to) return { insertions: 0, deletions: countLines(a) };
  if (a.length > MAX_DIFF_BYTES || b.length > MAX_DIFF_BYTES) return estimate(a, b);
  // The lines both sides begin and end with are in every shortest edit script, and where what is
  // left shares no line at all, the shortest script is to delete it all and insert it all: counted
  // exactly without running the diff (a file rewritten line by line is the diff's worst case).
  const x = tokens(a);
  const y = tokens(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let endX = x.length;
  let endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX--;
    endY--;
  }
  const shared = new Set(x.slice(start, endX));
  if (endX === start || endY === start || !y.slice(start, endY).some((l) => shared.has(l)))
    return { insertions: endY - start, deletions: endX - start };
  const changes = diffLines(x.slice(start, endX).join(''), y.slice(start, endY).join(''), { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return estimate(a, b);
  let insertions = 0;
  let deletions = 0;
  for (const c of changes) {
    if (c.added) insertions += c.count ?? 0;
    else if (c.removed) deletions += c.count ?? 0;
  }
  return { insertions, deletions };
}

/** The diff's own line tokens: each line with the newline that ends it (`\n` or `\r\n`), the last one without when there is none. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
    out.push(text.slice(from, nl + 1));
    from = nl + 1;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/**
 * +/- between two stored contents, by hash (null: no file on that side). A content the store no
 * longer holds (cleaned up, damaged) counts nothing, marked approximate: a count is never worth an error.
 */
export function storedLineStats(content: (hash: string) => Uint8Array, from: string | null, to: string | null): LineStats {
  try {
    return lineStats(from ? content(from) : null, to ? content(to) : null);
  } catch {
    return { insertions: 0, deletions: 0, approximate: true };
  }
}
