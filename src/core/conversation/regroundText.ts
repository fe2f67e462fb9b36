// The texts a re-grounded agent is given (Claude Code: `additionalContext`). Written for the agent.
// A resumed fork: what was discarded, which files do not match what the conversation remembers and
// why, which actions already happened and must not be repeated, and to re-read before trusting old
// results. A session after a files-only rewind: which files were reverted and to what, to re-read
// them, and which of its actions the rewind did not undo.
import type { NotUndone } from '../timeline/changeSet';
import type { FilesRewoundFacts, RewoundFile } from './filesRewound';
import type { ForkLineage } from './lineage';
import type { FileNote, RegroundFacts } from './regroundFacts';
import { describePoint } from './restorePoints';
import { oneLine } from '../../shared/text';

const MAX_FILES = 40;
const MAX_ACTIONS = 30;

function list<T>(items: readonly T[], max: number, line: (x: T) => string): string[] {
  const out = items.slice(0, max).map((x) => `- ${line(x)}`);
  if (items.length > max) out.push(`- …and ${items.length - max} more`);
  return out;
}

function actionLine(a: NotUndone): string {
  return `${a.tool}: ${oneLine(a.summary, 200)} (${a.effect}${a.compensation ? `; it can be offset with: ${oneLine(a.compensation, 160)}` : ''})`;
}

function revertedLine(f: FileNote): string {
  if (f.asAtCut)
    return `${f.path} (${f.deleted ? 'deleted: it did not exist before that prompt' : 'restored to how it was before that prompt'})`;
  const when = f.restoredTo ? describePoint(f.restoredTo) : 'at another point in time';
  return `${f.path} (${f.deleted ? `deleted: a rewind put it back as it was ${when}, when it did not exist` : `restored to a version from another point in time: as it was ${when}`})`;
}

function stillEditedLine(f: FileNote): string {
  if (f.changedSince)
    return `${f.path} (changed again since those turns, by another session or outside the agent${f.deleted ? '; now deleted' : ''})`;
  return `${f.path}${f.deleted ? ' (deleted by those turns)' : ''}`;
}

export function regroundText(facts: RegroundFacts, fork: ForkLineage): string {
  const lines: string[] = [
    `[Agent Rewind] This conversation was rewound: it is a fork of session ${fork.parentSession}, cut before the prompt "${oneLine(fork.cutText, 160)}". ` +
      'The turns from that prompt on were discarded from this conversation, but not everything they did to the world was undone.',
  ];
  if (!facts.cutFound) {
    lines.push(
      '',
      'Agent Rewind could not find that prompt in its file timeline, so it cannot say which files changed after it: treat every file as possibly changed.',
    );
  } else {
    if (facts.stillEdited.length) {
      lines.push('', 'Files that still hold changes made in the discarded turns (newer than this conversation remembers):');
      lines.push(...list(facts.stillEdited, MAX_FILES, stillEditedLine));
    }
    if (facts.reverted.length) {
      lines.push('', 'Files that were rewound after that prompt:');
      lines.push(...list(facts.reverted, MAX_FILES, revertedLine));
    }
    if (facts.actions.length) {
      lines.push('', 'Actions the discarded turns already ran, which no rewind undoes — do not run them again unless the user asks:');
      lines.push(...list(facts.actions, MAX_ACTIONS, actionLine));
    }
    if (!facts.stillEdited.length && !facts.reverted.length && !facts.actions.length) {
      lines.push('', 'No file changes or irreversible actions from the discarded turns were recorded.');
    }
  }
  lines.push('', 'Re-read any file before relying on it or editing it: tool results earlier in this conversation may be stale.');
  return lines.join('\n');
}

function rewoundLine(f: RewoundFile): string {
  const when = f.restoredTo ? describePoint(f.restoredTo) : 'at an earlier point in time';
  if (f.changedSince) return `${f.path} (rewound, then changed again by someone else${f.deleted ? '; now deleted' : ''})`;
  if (f.mixed)
    return `${f.path} (rewound only in part: it now mixes lines as they were ${when} with lines the user or another attempt wrote since — re-read it before editing)`;
  if (f.deleted) return `${f.path} (deleted: it did not exist ${when})`;
  if (f.recreated) return `${f.path} (recreated, as it was ${when})`;
  return `${f.path} (now as it was ${when})`;
}

/** The text a session gets after a files-only rewind (SessionStart or UserPromptSubmit `additionalContext`). */
export function filesRewoundText(facts: FilesRewoundFacts): string {
  const lines: string[] = [
    '[Agent Rewind] Files were rewound outside this conversation: the user restored some files to an earlier point in time. ' +
      'This conversation was not rewound, but what earlier tool results in it showed about these files is out of date:',
    ...list(facts.files, MAX_FILES, rewoundLine),
    '',
    'Re-read these files before relying on them or editing them; do not trust earlier tool results about them, and do not assume the changes you made to them are still there.',
  ];
  if (facts.actions.length) {
    lines.push(
      '',
      'Actions this conversation ran after that point were not undone by the rewind — they already happened; do not run them again unless the user asks:',
    );
    lines.push(...list(facts.actions, MAX_ACTIONS, actionLine));
  }
  return lines.join('\n');
}
