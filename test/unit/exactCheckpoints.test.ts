// The pure semantics behind "a checkpoint is what was on disk" and "your edits stay yours":
// observed snapshots define the state at the checkpoint they precede; disagreeing evidence with
// nothing recorded between makes a path uncertain; the user's content is protected through
// rewinds and undos (provenance), and a rewind that reverts the user's edits says so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeChanges } from '../../src/core/timeline/changeSet';
import { provenanceOf } from '../../src/core/timeline/provenance';
import type { SnapRecord } from '../../src/core/storeFiles/records';
import { checkpoints } from '../../src/core/timeline/timeline';
import { h, LogBuilder } from '../helpers/records';

const cp = (b: LogBuilder, id: string) => checkpoints(b.records()).find((c) => c.id === id)!;
const W = '/w/config.txt';

/** The agent writes port=1; the user adds a line; the next prompt observes it; the agent edits again. */
function userThenAgent(): LogBuilder {
  return new LogBuilder()
    .checkpoint('P1')
    .snap(W, null, 'before')
    .snap(W, h('port1'), 'after', { origin: 'agent' })
    .snap(W, h('port1+mine'), 'observed', { origin: 'user' })
    .checkpoint('P2')
    .snap(W, h('port1+mine'), 'before')
    .snap(W, h('port2+mine'), 'after', { origin: 'agent' });
}

describe('observed snapshots', () => {
  it("a rewind to the prompt after the user's edit gives the user's line back", () => {
    const b = userThenAgent();
    const set = computeChanges(b.records(), cp(b, 'P2'));
    assert.equal(set.changes.length, 1);
    assert.equal(set.changes[0]!.to.hash, h('port1+mine'));
    assert.deepEqual(set.uncertain, []);
    assert.deepEqual(set.yourEdits, [], 'the content now is the agent’s');
    assert.deepEqual(set.observed, [], 'nothing of the user’s is reverted: it is what comes back');
  });

  it("a rewind to before the user's edit reverts it, and says so", () => {
    const b = userThenAgent();
    const set = computeChanges(b.records(), cp(b, 'P1'));
    assert.equal(set.changes[0]!.action, 'delete');
    assert.deepEqual(
      set.observed.map((o) => o.path),
      [W],
    );
  });

  it('a path only the user changed after the target is left alone, however often', () => {
    const b = new LogBuilder()
      .snap(W, h('a'), 'after', { origin: 'agent' })
      .checkpoint('C')
      .snap(W, h('mine'), 'observed', { origin: 'user' });
    assert.deepEqual(computeChanges(b.records(), cp(b, 'C')).changes, []);
    b.checkpoint('D').snap(W, h('mine again'), 'observed', { origin: 'user' });
    const set = computeChanges(b.records(), cp(b, 'C'));
    assert.deepEqual([set.changes, set.uncertain, set.yourEdits], [[], [], []]);
  });

  it('the user’s content as the latest state is refused (your-edit), though disk = last record', () => {
    const b = new LogBuilder()
      .checkpoint('C0')
      .snap(W, null, 'before')
      .snap(W, h('agent'), 'after', { origin: 'agent' })
      .snap(W, h('mine'), 'observed', { origin: 'user' })
      .checkpoint('C1');
    const set = computeChanges(b.records(), cp(b, 'C0'));
    assert.equal(set.changes.length, 1);
    assert.deepEqual(
      set.yourEdits.map((y) => [y.path, y.provenance.origin, y.provenance.since.phase]),
      [[W, 'user', 'observed']],
    );
  });
});

describe('uncertain paths', () => {
  it('the last record before and the first before/observed after disagree, nothing between: uncertain, and the later one is what force writes', () => {
    const b = new LogBuilder()
      .checkpoint('P1')
      .snap(W, h('a1'), 'after', { origin: 'agent' })
      .checkpoint('PUSH', 'before-tool')
      .snap(W, h('u'), 'before') // someone changed it in the gap, unrecorded
      .snap(W, h('a2'), 'after', { origin: 'agent' });
    const set = computeChanges(b.records(), cp(b, 'PUSH'));
    assert.deepEqual(
      set.uncertain.map((u) => [u.path, u.reason]),
      [[W, 'unrecorded-change']],
    );
    assert.equal(set.changes[0]!.to.hash, h('u'));
  });

  it('agreeing evidence is not uncertain; a record in between settles it', () => {
    const agree = new LogBuilder().snap(W, h('a1'), 'after').checkpoint('C').snap(W, h('a1'), 'before').snap(W, h('a2'), 'after');
    assert.deepEqual(computeChanges(agree.records(), cp(agree, 'C')).uncertain, []);
    const after = new LogBuilder().snap(W, h('a1'), 'after').checkpoint('C').snap(W, h('a2'), 'after');
    assert.deepEqual(computeChanges(after.records(), cp(after, 'C')).uncertain, [], 'an `after` first is the agent’s own change');
  });

  it('a path first recorded after the target by a before is not uncertain (nothing to disagree with)', () => {
    const b = new LogBuilder().checkpoint('C').snap(W, h('x'), 'before').snap(W, h('y'), 'after');
    const set = computeChanges(b.records(), cp(b, 'C'));
    assert.deepEqual(set.uncertain, []);
    assert.equal(set.changes[0]!.to.hash, h('x'));
  });
});

describe('provenance through rewinds', () => {
  /** The agent wrote A; the user edited to U; a forced rewind to C0 kept U (pre-rewind) and wrote A0. */
  function forced(): LogBuilder {
    return new LogBuilder()
      .snap(W, h('a0'), 'after', { origin: 'agent' })
      .checkpoint('C0')
      .snap(W, h('a0'), 'before')
      .snap(W, h('a1'), 'after', { origin: 'agent' })
      .checkpoint('C1')
      .snap(W, h('u'), 'pre-rewind') // the user's edit, unrecorded until the rewind kept it
      .checkpoint('R1', 'rewind', { target: 'C0' })
      .snap(W, h('a0'), 'rewind', { by: 'R1' });
  }

  it('content a pre-rewind snapshot finds different from the last record is the user’s', () => {
    const b = forced();
    const prov = provenanceOf(b.records());
    const pre = b.records().find((r) => r.t === 'snap' && (r as SnapRecord).phase === 'pre-rewind')!;
    assert.equal(prov.get(pre.seq)!.origin, 'user');
    const last = b.records().at(-1)!;
    assert.equal(prov.get(last.seq)!.origin, 'agent', 'a rewind’s snapshot inherits the origin of what it restored');
  });

  it('after Undo, the user’s edit is the latest content again and a rewind to an earlier point refuses, naming how it came back', () => {
    const b = forced()
      .checkpoint('R2', 'rewind', { target: 'R1' }) // Undo
      .snap(W, h('a0'), 'pre-rewind')
      .snap(W, h('u'), 'rewind', { by: 'R2' });
    const records = b.records();
    const set = computeChanges(records, cp(b, 'C0'));
    assert.equal(set.yourEdits.length, 1);
    const p = set.yourEdits[0]!.provenance;
    assert.equal(p.origin, 'user');
    assert.equal(p.since.phase, 'pre-rewind', 'kept by the forced rewind');
    assert.deepEqual(p.restoredBy && { checkpoint: p.restoredBy.checkpoint, undo: p.restoredBy.undo }, { checkpoint: 'R2', undo: true });
  });

  it('undoing the undo (a redo) says it replaces the user’s edit again; a second forced rewind keeps it the user’s for the next one', () => {
    const b = forced().checkpoint('R2', 'rewind', { target: 'R1' }).snap(W, h('a0'), 'pre-rewind').snap(W, h('u'), 'rewind', { by: 'R2' });
    const redo = computeChanges(b.records(), cp(b, 'R2'));
    assert.deepEqual(
      redo.yourEdits.map((y) => [y.path, y.undoing]),
      [[W, true]],
      'undoing the rewind that put it back: named, not refused (an undo always works)',
    );
    // Forced again: the content written is the agent's, the user's is in the pre-rewind copy; undo again brings it back as the user's.
    b.checkpoint('R3', 'rewind', { target: 'R2' }).snap(W, h('u'), 'pre-rewind').snap(W, h('a0'), 'rewind', { by: 'R3' });
    b.checkpoint('R4', 'rewind', { target: 'R3' }).snap(W, h('a0'), 'pre-rewind').snap(W, h('u'), 'rewind', { by: 'R4' });
    const again = computeChanges(b.records(), cp(b, 'C1'));
    assert.equal(again.yourEdits[0]?.provenance.origin, 'user');
    assert.equal(again.yourEdits[0]?.undoing, undefined, 'any other rewind is refused');
  });

  it('stores without `origin` (older versions) derive the same provenance', () => {
    const b = new LogBuilder().snap(W, h('a0'), 'after').checkpoint('C0').snap(W, h('u'), 'before').snap(W, h('a1'), 'after');
    const prov = provenanceOf(b.records());
    const origins = b
      .records()
      .filter((r) => r.t === 'snap')
      .map((r) => prov.get(r.seq)!.origin);
    assert.deepEqual(origins, ['agent', 'user', 'agent']);
  });

  it('plain agent work, rewound and undone and redone, never becomes the user’s', () => {
    const b = new LogBuilder()
      .checkpoint('C0')
      .snap(W, null, 'before')
      .snap(W, h('a1'), 'after', { origin: 'agent' })
      .checkpoint('R1', 'rewind', { target: 'C0' })
      .snap(W, h('a1'), 'pre-rewind')
      .snap(W, null, 'rewind', { by: 'R1' })
      .checkpoint('R2', 'rewind', { target: 'R1' })
      .snap(W, null, 'pre-rewind')
      .snap(W, h('a1'), 'rewind', { by: 'R2' });
    const set = computeChanges(b.records(), cp(b, 'C0'));
    assert.equal(set.changes.length, 1);
    assert.deepEqual(set.yourEdits, []);
    assert.deepEqual(set.observed, []);
  });
});

describe('modes', () => {
  it('the executable bit alone is a change, and is rewound', () => {
    const b = new LogBuilder()
      .snap(W, h('x'), 'after', { mode: 0o644 })
      .checkpoint('C')
      .snap(W, h('x'), 'before', { mode: 0o644 })
      .snap(W, h('x'), 'after', { mode: 0o755 });
    const set = computeChanges(b.records(), cp(b, 'C'));
    assert.equal(set.changes.length, 1);
    assert.equal(set.changes[0]!.to.mode, 0o644);
  });

  it('other permission bits (git’s normalised 0644 against a real 0664) are not a change', () => {
    const b = new LogBuilder().snap(W, h('x'), 'before', { mode: 0o644 }).checkpoint('C').snap(W, h('x'), 'after', { mode: 0o664 });
    assert.deepEqual(computeChanges(b.records(), cp(b, 'C')).changes, []);
  });
});
