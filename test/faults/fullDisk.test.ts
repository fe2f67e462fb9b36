// A disk that fills up while a rewind runs (AGENT_REWIND_FAULT=<point>:<n>:enospc throws there the error a
// full disk gives): every file holds one of the two states, the store verifies, the undo brings the agent's
// work back whole, and the user is told the disk is full — never another error in its place.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentWorld, assertBetween, assertSound, assertTree, json, ok, rewindCheckpoints, run } from './world';

describe('a full disk in the middle of a rewind', () => {
  it('a file whose new content does not fit keeps its old content; the others are written; the undo restores all', () => {
    const w = agentWorld(12, 77);
    const r = run(w.store, ['rewind', '--to', w.start, '--json'], { fault: 'rewind.tmp:2:enospc' });
    assert.equal(r.status, 1, r.stderr);
    const failed = (JSON.parse(r.stdout) as { files: { path: string; ok: boolean; error?: string }[] }).files.filter((f) => !f.ok);
    assert.equal(failed.length, 1);
    assert.match(failed[0]!.error ?? '', /ENOSPC/);
    assertBetween(w.ws, w.before, w.after, 'after the rewind');
    assertSound(w.store, 'after the rewind');
    ok(run(w.store, ['rewind', '--to', rewindCheckpoints(w.store).at(-1)!]), 'undo');
    assertTree(w.ws, w.after, 'after the undo');
  });

  for (const point of ['rewind.written', 'rewind.recorded']) {
    it(`at ${point}: the disk-full error is what the user reads, and the next command finishes recording the rewind`, () => {
      const w = agentWorld(12, 78);
      const r = run(w.store, ['rewind', '--to', w.start], { fault: `${point}:1:enospc` });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /ENOSPC/, 'the real error, not a follow-up one');
      assertTree(w.ws, w.before, 'every file was written before the disk filled up');
      assertSound(w.store, 'after the rewind (verify finishes an unfinished one)');
      assert.deepEqual(json<{ files: unknown[] }>(w.store, ['plan', '--to', w.start]).files, [], 'the rewind is recorded as done');
      ok(run(w.store, ['rewind', '--to', rewindCheckpoints(w.store).at(-1)!]), 'undo');
      assertTree(w.ws, w.after, 'after the undo');
    });
  }
});

describe('a full disk before a rewind writes any file', () => {
  for (const point of ['log.append', 'rewind.checkpoint', 'rewind.journal']) {
    it(`at ${point}: nothing is rewound, and the user is told the store's disk is full and their files are as they were`, () => {
      const w = agentWorld(12, 79);
      const r = run(w.store, ['rewind', '--to', w.start], { fault: `${point}:1:enospc` });
      assert.equal(r.status, 1);
      assert.match(
        r.stderr,
        /The disk holding the store \(.*\) is full \(or over quota\), so nothing was rewound and your files are as they were/,
      );
      assertTree(w.ws, w.after, 'no file written');
      assertSound(w.store, 'after the refused rewind');
    });
  }
});
