// `rewind --keep-mine` and `--hunks <path>=<id>[,<id>…]`: rewinding less than the target's whole
// file (core/rewind/shape.ts), and the words that say what a merge would do with a blocked file.
import * as path from 'node:path';
import type { Plan } from '../core/rewind/plan';
import { NO_MERGE_WORDS } from '../core/rewind/shape';
import type { LineRange } from '../core/rewind/lineMerge';
import { usageError } from './output';

export const LINE_OPTIONS = {
  'keep-mine': { type: 'boolean' },
  hunks: { type: 'string', multiple: true },
} as const;

/** The chosen hunks by absolute path (a path relative to the current folder, as a shell user types it). */
export function parseHunks(values: readonly string[] | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const v of values ?? []) {
    const at = v.lastIndexOf('=');
    const ids =
      at < 0
        ? []
        : v
            .slice(at + 1)
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
    if (at <= 0 || ids.length === 0)
      throw usageError(`--hunks takes <path>=<id>[,<id>…] (the ids from \`agent-rewind plan --json\`), not "${v}".`);
    const p = path.resolve(process.cwd(), v.slice(0, at));
    out.set(p, [...new Set([...(out.get(p) ?? []), ...ids])]);
  }
  return out;
}

/** The rewind options of --keep-mine and --hunks; the hunks' files join --path (a rewind with --hunks writes no other file). */
export function lineOptions(
  values: { 'keep-mine'?: boolean; hunks?: string[] },
  opts: { paths?: string[] },
): { keepMine?: boolean; hunks?: Map<string, string[]>; paths?: string[] } {
  const hunks = parseHunks(values.hunks);
  return {
    ...(values['keep-mine'] ? { keepMine: true } : {}),
    ...(hunks.size ? { hunks, paths: [...new Set([...(opts.paths ?? []), ...hunks.keys()])] } : {}),
  };
}

const lines = ([start, n]: LineRange) => (n === 0 ? `after line ${start}` : n === 1 ? `line ${start}` : `lines ${start}–${start + n - 1}`);

/** What --keep-mine would do with a blocked file, for its line in the plan and the refusal ('' when it does not apply). */
export function mergeWords(b: Plan['blocked'][number], plan: Pick<Plan, 'merges'>): string {
  const m = plan.merges.get(b.path);
  if (b.touching?.length) return ` [the chosen hunks at ${b.touching.map(lines).join(', ')} would overwrite your changed lines]`;
  if (!m) return '';
  if (m.merge === 'clean') return ' [--keep-mine merges it cleanly: the agent’s change reverted, your lines kept]';
  if (m.merge === 'conflict')
    return ` [--keep-mine cannot merge it: ${NO_MERGE_WORDS.conflict}, at ${m.conflicts.map((c) => lines(c.from)).join(', ')}]`;
  return ` [--keep-mine cannot merge it: ${NO_MERGE_WORDS[m.reason]}]`;
}

/** The keep-mine way out of a refusal, when a blocked file would merge. */
export function keepMineWayOut(plan: Plan, target: string): string[] {
  if (![...plan.merges.values()].some((m) => m.merge === 'clean')) return [];
  return [
    `  Or keep yours: agent-rewind rewind ${target} --keep-mine  (reverts the agent's lines and keeps yours in each file marked as merging cleanly; any other blocked file still refuses)`,
  ];
}
