// The text a resumed fork is given (Claude Code: SessionStart `additionalContext`). Written for the
// agent: what was discarded, which files do not match what the conversation remembers and why, which
// actions already happened and must not be repeated, and to re-read before trusting old results.
import type { ForkLineage } from './lineage';
import type { FileNote, RegroundFacts } from './regroundFacts';

const MAX_FILES = 40;
const MAX_ACTIONS = 30;

function oneLine(s: string, n: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? t.slice(0, n - 1) + '…' : t;
}

function list<T>(items: readonly T[], max: number, line: (x: T) => string): string[] {
  const out = items.slice(0, max).map((x) => `- ${line(x)}`);
  if (items.length > max) out.push(`- …and ${items.length - max} more`);
  return out;
}

function revertedLine(f: FileNote): string {
  if (f.deleted) return `${f.path} (deleted${f.asAtCut ? ': it did not exist before that prompt' : ''})`;
  return `${f.path} (${f.asAtCut ? 'restored to how it was before that prompt' : 'restored to a version from another point in time'})`;
}

export function regroundText(facts: RegroundFacts, fork: ForkLineage): string {
  const lines: string[] = [
    `[Agent Rewind] This conversation was rewound: it is a fork of session ${fork.parentSession}, cut before the prompt "${oneLine(fork.cutText, 160)}". ` +
      'The turns from that prompt on were discarded from this conversation, but not everything they did to the world was undone.',
  ];
  if (!facts.cutFound) {
    lines.push('', 'Agent Rewind could not find that prompt in its file timeline, so it cannot say which files changed after it: treat every file as possibly changed.');
  } else {
    if (facts.stillEdited.length) {
      lines.push('', 'Files that still hold changes made in the discarded turns (newer than this conversation remembers):');
      lines.push(...list(facts.stillEdited, MAX_FILES, (f) => `${f.path}${f.deleted ? ' (deleted by those turns)' : ''}`));
    }
    if (facts.reverted.length) {
      lines.push('', 'Files that were rewound (their content is not what later tool results in this conversation showed):');
      lines.push(...list(facts.reverted, MAX_FILES, revertedLine));
    }
    if (facts.actions.length) {
      lines.push('', 'Actions the discarded turns already ran, which no rewind undoes — do not run them again unless the user asks:');
      lines.push(
        ...list(facts.actions, MAX_ACTIONS, (a) => `${a.tool}: ${oneLine(a.summary, 200)} (${a.effect}${a.compensation ? `; it can be offset with: ${oneLine(a.compensation, 160)}` : ''})`),
      );
    }
    if (!facts.stillEdited.length && !facts.reverted.length && !facts.actions.length) {
      lines.push('', 'No file changes or irreversible actions from the discarded turns were recorded.');
    }
  }
  lines.push('', 'Re-read any file before relying on it or editing it: tool results earlier in this conversation may be stale.');
  return lines.join('\n');
}
