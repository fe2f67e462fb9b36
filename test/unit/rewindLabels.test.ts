import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckpointRecord } from '../../src/core/storeFiles/records';
import { labelOfRewindCheckpoint, rewindCheckpointLabel, rewindLookups, rewindMeaning } from '../../src/core/timeline/rewindLabels';
import { LogBuilder } from '../helpers/records';

// A prompt P, a rewind R1 to it, the undo R2 (a rewind to R1), the redo R3 (a rewind to R2), an undo of the redo R4.
const b = new LogBuilder()
  .checkpoint('P', 'prompt', { label: 'Add due dates to the todo list' })
  .checkpoint('R1', 'rewind', { label: 'Before rewind to "Add due dates to the todo list"', target: 'P' })
  .checkpoint('R2', 'rewind', { label: 'Before rewind to "Before rewind to "Add due dates to the todo list""', target: 'R1' })
  .checkpoint('R3', 'rewind', { label: 'nested nonsense', target: 'R2' })
  .checkpoint('R4', 'rewind', { label: 'nested nonsense', target: 'R3' })
  .call('Bash', 'git push', 'irreversible', { call: 'toolu_1' })
  .checkpoint('R5', 'rewind', { label: 'x', targetCall: 'toolu_1' })
  .checkpoint('R6', 'rewind', { label: 'x', target: 'R5' })
  .checkpoint('R7', 'rewind', { label: 'x', target: 'gone' });
const records = b.records();
const look = rewindLookups(records);
const cp = (id: string) => look.checkpoint(id) as CheckpointRecord;

describe('rewind labels', () => {
  it('words a rewind to a rewind checkpoint as an undo, and one to an undo as a redo', () => {
    assert.deepEqual(rewindMeaning(cp('P'), look), { action: 'rewind', point: '"Add due dates to the todo list"' });
    assert.equal(rewindMeaning(cp('R1'), look).action, 'undo');
    assert.equal(rewindMeaning(cp('R2'), look).action, 'redo');
    assert.equal(rewindMeaning(cp('R3'), look).action, 'undo');
    for (const id of ['R1', 'R2', 'R3', 'R4']) assert.equal(rewindMeaning(cp(id), look).point, '"Add due dates to the todo list"');
  });

  it('labels rewind checkpoints without nesting, whatever the stored label says', () => {
    assert.equal(labelOfRewindCheckpoint(cp('R1'), look), 'Before rewind to "Add due dates to the todo list"');
    assert.equal(labelOfRewindCheckpoint(cp('R2'), look), 'Before undo of rewind to "Add due dates to the todo list"');
    assert.equal(labelOfRewindCheckpoint(cp('R3'), look), 'Before redo of rewind to "Add due dates to the todo list"');
    assert.equal(labelOfRewindCheckpoint(cp('R4'), look), 'Before undo of rewind to "Add due dates to the todo list"');
    assert.equal(rewindCheckpointLabel(cp('R4'), look), 'Before redo of rewind to "Add due dates to the todo list"');
    for (const id of ['R1', 'R2', 'R3', 'R4', 'R5', 'R6']) assert.doesNotMatch(labelOfRewindCheckpoint(cp(id), look), /Before .*Before/);
  });

  it('names a call for rewinds to just before it, and keeps the stored label when the target is gone', () => {
    assert.equal(labelOfRewindCheckpoint(cp('R5'), look), 'Before rewind to just before "Bash: git push"');
    assert.equal(labelOfRewindCheckpoint(cp('R6'), look), 'Before undo of rewind to just before "Bash: git push"');
    assert.equal(labelOfRewindCheckpoint(cp('R7'), look), 'x');
    assert.deepEqual(rewindMeaning(cp('R7'), look), { action: 'undo', point: 'an earlier point' });
  });
});
