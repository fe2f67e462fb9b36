// Which of a rewind's paths have unsaved work open somewhere (text editors, notebooks, custom editors).
// Pure, so the matching is unit-tested with Windows paths: a drive-letter case difference must not hide one.
import { pathKey } from '../../core/paths';

/** The paths among `wanted` that one of the `dirty` paths names (compared by identity key). */
export function unsavedAmong(wanted: Iterable<string>, dirty: Iterable<string>, platform: NodeJS.Platform = process.platform): string[] {
  const dirtyKeys = new Set<string>();
  for (const d of dirty) dirtyKeys.add(pathKey(d, platform));
  const out: string[] = [];
  for (const p of wanted) if (dirtyKeys.has(pathKey(p, platform)) && !out.includes(p)) out.push(p);
  return out;
}
