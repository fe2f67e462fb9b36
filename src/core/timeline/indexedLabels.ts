// The labels of rewind checkpoints kept in the timeline index's list part (indexFile.ts ListPart): what a listing
// says of each rewind without reading it or the keys — written with the index, read by the checkpoint list.
import type { CheckpointRecord, Sequenced } from '../storeFiles/records';
import type { ListPart } from './indexFile';
import { checkpointLabel } from './presentation';
import { type RewindLookups, rewindLookups } from './rewindLabels';

const ASKS_THE_TREE = new Error('asks the attempt tree');

/**
 * The labels of the rewind checkpoints among `cps` that the records say (checkpointLabel over lookups of `records`,
 * the skeleton): those that differ from the recorded label, and the places of those a listing must say itself — a
 * rewind to a rewind (its attempt number is read from the whole tree) or to just before a call the skeleton lacks.
 */
export function rewindLabelsOf(records: readonly Sequenced[], cps: readonly CheckpointRecord[]): Pick<ListPart, 'relabel' | 'live'> {
  const relabel: ListPart['relabel'] = [];
  const live: number[] = [];
  const look = rewindLookups(records);
  cps.forEach((c, i) => {
    if (c.kind !== 'rewind') return;
    let missed = false;
    const known: RewindLookups = {
      checkpoint: look.checkpoint,
      call: (id) => look.call(id) ?? void (missed = true),
    };
    let label: string;
    try {
      label = checkpointLabel(c, known, () => {
        throw ASKS_THE_TREE;
      });
    } catch (e) {
      if (e !== ASKS_THE_TREE) throw e;
      live.push(i);
      return;
    }
    if (missed) live.push(i);
    else if (label !== c.label) relabel.push([i, label]);
  });
  return { relabel, live };
}

/**
 * The labels of every checkpoint as the index and the checkpoints after it say them (`recorded`: each one's recorded
 * label, the indexed ones first), or null when one must be said by reading it: a rewind the index left to be said when
 * read, or a rewind among those after it.
 */
export function labelsFromIndex(
  recorded: readonly string[],
  l: Pick<ListPart, 'relabel' | 'live'>,
  newer: readonly { kind: string }[],
): string[] | null {
  if (l.live.length || newer.some((c) => c.kind === 'rewind')) return null;
  const out = recorded.slice();
  for (const [i, label] of l.relabel) out[i] = label;
  return out;
}
