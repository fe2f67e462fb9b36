// `--path` / `--session` on a plan or rewind: a filter that matches nothing recorded is an error that
// names it and what is close — never a plan with nothing in it, which reads as "already rewound".
import * as path from 'node:path';
import { pathKey } from '../paths';
import type { Sequenced } from '../storeFiles/records';
import { AgentRewindError } from '../errors';

const MAX_CLOSE = 5;

/** Levenshtein distance, bounded (returns max + 1 as soon as it is exceeded). */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]!);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
}

/** Recorded names close to `wanted`: same file name (paths), a prefix either way, or a few edits away. */
function closeTo(wanted: string, known: Iterable<string>, kind: 'path' | 'session'): string[] {
  const base = kind === 'path' ? pathKey(path.basename(wanted)) : '';
  const w = kind === 'path' ? pathKey(wanted) : wanted;
  const max = Math.max(2, Math.floor(wanted.length / 4));
  const scored: { name: string; score: number }[] = [];
  for (const name of known) {
    const k = kind === 'path' ? pathKey(name) : name;
    if (kind === 'path' && pathKey(path.basename(name)) === base) scored.push({ name, score: 0 });
    else if (kind === 'session' && (k.startsWith(w) || w.startsWith(k))) scored.push({ name, score: 0 });
    else {
      const d = distance(kind === 'path' ? pathKey(path.basename(name)) : k, kind === 'path' ? base : w, max);
      if (d <= max) scored.push({ name, score: d });
    }
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1));
  return scored.slice(0, MAX_CLOSE).map((s) => s.name);
}

/**
 * Throws FilterNotFoundError for the first `--path` (absolute, compared by identity key) that no
 * snapshot names, or `--session` no record carries.
 */
export function checkFilters(records: readonly Sequenced[], opts: { paths?: readonly string[]; sessions?: readonly string[] }): void {
  if (opts.paths?.length) {
    const recorded = new Map<string, string>();
    for (const r of records) if (r.t === 'snap') recorded.set(pathKey(r.path), r.path);
    for (const p of opts.paths)
      if (!recorded.has(pathKey(p)))
        throw new AgentRewindError('filter-not-found', { kind: 'path', value: p, close: closeTo(p, recorded.values(), 'path') });
  }
  if (opts.sessions?.length) {
    const sessions = new Set<string>();
    for (const r of records) if ('session' in r && typeof r.session === 'string') sessions.add(r.session);
    for (const s of opts.sessions)
      if (!sessions.has(s))
        throw new AgentRewindError('filter-not-found', { kind: 'session', value: s, close: closeTo(s, sessions, 'session') });
  }
}
