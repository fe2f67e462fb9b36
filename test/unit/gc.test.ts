import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { gc, retain } from '../../src/core/upkeep/gc';
import { storageUse } from '../../src/core/upkeep/storageUse';
import { parseLog } from '../../src/core/storeFiles/fileLog';
import { acquireStoreLock } from '../../src/core/storeFiles/lock';
import { Store } from '../../src/core/store';
import { checkpoints, stateAt } from '../../src/core/timeline/timeline';
import { h, LogBuilder } from '../helpers/records';
import { sandbox } from '../helpers/tmp';
import { isError } from '../../src/core/errors';

const DAY = 86400000;

describe('retention', () => {
  it('keeps stateAt exact for every kept checkpoint', () => {
    const b = new LogBuilder();
    b.checkpoint('OLD', 'prompt', { time: 0 })
      .snap('/w/a', h('a0'), 'before')
      .snap('/w/a', h('a1'), 'after')
      .snap('/w/b', h('b0'), 'before')
      .snap('/w/b', h('b1'), 'after');
    b.checkpoint('OLD2', 'prompt', { time: 1 })
      .snap('/w/a', h('a1'), 'before')
      .snap('/w/a', h('a2'), 'after')
      .call('Bash', 'git push', 'irreversible');
    b.checkpoint('NEW', 'prompt', { time: 10 * DAY })
      .snap('/w/b', h('b1'), 'before')
      .snap('/w/b', h('b2'), 'after');
    b.checkpoint('NEWER', 'prompt', { time: 11 * DAY })
      .snap('/w/c', null, 'before')
      .snap('/w/c', h('c1'), 'after');
    const records = b.records();
    const { kept, droppedCheckpoints } = retain(records, 5 * DAY);
    assert.equal(droppedCheckpoints, 2);
    const after = parseLog(kept.map((r) => JSON.stringify(r)).join('\n')).records;
    for (const id of ['NEW', 'NEWER']) {
      const before = stateAt(records, checkpoints(records).find((c) => c.id === id)!.seq);
      const now = stateAt(after, checkpoints(after).find((c) => c.id === id)!.seq);
      assert.deepEqual([...now].map(([p, s]) => [p, s.hash]).sort(), [...before].map(([p, s]) => [p, s.hash]).sort(), `state at ${id}`);
    }
    assert.deepEqual(
      checkpoints(after).map((c) => c.id),
      ['NEW', 'NEWER'],
    );
    assert.equal(
      after.some((r) => r.t === 'call'),
      false,
      'calls before the oldest kept checkpoint go',
    );
  });
});

describe('gc', () => {
  it('drops old checkpoints and sweeps blobs nobody references', () => {
    const { store: dir } = sandbox();
    const store = Store.open(dir, { create: true });
    const old = store.blobs.put(Buffer.from('old content'));
    const cur = store.blobs.put(Buffer.from('current'));
    const orphan = store.blobs.put(Buffer.from('never recorded'));
    store.append([
      { t: 'checkpoint', id: 'old', kind: 'prompt', label: 'old', time: Date.now() - 40 * DAY },
      { t: 'snap', path: '/w/a', hash: old, phase: 'before', time: 1 },
      { t: 'snap', path: '/w/a', hash: cur, phase: 'after', time: 1 },
      { t: 'checkpoint', id: 'new', kind: 'prompt', label: 'new', time: Date.now() },
    ]);
    const r = gc(store, 30);
    assert.equal(r.droppedCheckpoints, 1);
    assert.equal(r.blobsFreed, 2);
    assert.equal(store.blobs.has(cur), true);
    assert.equal(store.blobs.has(old), false);
    assert.equal(store.blobs.has(orphan), false);
    assert.deepEqual(
      checkpoints(store.read().records).map((c) => c.id),
      ['new'],
    );
  });

  it('keeps the gap lines of the kept span (what was not recorded there), drops the older ones', () => {
    const { store: dir } = sandbox();
    const store = Store.open(dir, { create: true });
    const now = Date.now();
    store.append([{ t: 'checkpoint', id: 'old', kind: 'prompt', label: 'old', time: now - 40 * DAY }]);
    store.appendGaps([{ t: 'gap', path: '/w/old-pipe', reason: 'special-file', time: now - 40 * DAY + 1 }]);
    store.append([{ t: 'checkpoint', id: 'new', kind: 'prompt', label: 'new', time: now - 1000 }]);
    store.appendGaps([{ t: 'gap', path: '/w/pipe', reason: 'special-file', time: now - 500 }]);
    store.append([{ t: 'checkpoint', id: 'newer', kind: 'prompt', label: 'newer', time: now }]);
    assert.equal(gc(store, 30).droppedCheckpoints, 1);
    assert.deepEqual(
      store.gapsSince(0).map((g) => g.path),
      ['/w/pipe'],
    );
    assert.deepEqual(store.read().problems, []);
  });

  it('refuses clearly while a rewind holds the store', () => {
    const { store: dir } = sandbox();
    const store = Store.open(dir, { create: true });
    const release = acquireStoreLock(store.dir, 'rewind');
    try {
      assert.throws(
        () => gc(store, 30),
        (e: unknown) => isError(e, 'store-busy') && /Another rewind is running/.test((e as Error).message),
      );
    } finally {
      release();
    }
    assert.equal(fs.existsSync(path.join(dir, 'lock')), false);
  });
});

const MB = 1024 * 1024;

/**
 * Four sessions, each rewriting /w/a with a new 1 MB version (V1…V4), an hour apart, all within the
 * retention days; optionally a rewind (with its pre-rewind copy of V2) between the second and third.
 */
function sizedStore(withRewind: boolean) {
  const { store: dir } = sandbox();
  const store = Store.open(dir, { create: true });
  const v = [1, 2, 3, 4].map(() => store.blobs.put(randomBytes(MB)));
  const t0 = Date.now() - 5 * 3600000;
  let prev: string | null = null;
  v.forEach((h, i) => {
    const time = t0 + i * 3600000;
    store.append([
      { t: 'checkpoint', id: `s${i + 1}`, kind: 'prompt', label: `prompt ${i + 1}`, session: `sess-${i + 1}`, agent: 'claude', time },
      { t: 'snap', path: '/w/a', hash: prev, phase: 'before', session: `sess-${i + 1}`, time: time + 1 },
      { t: 'snap', path: '/w/a', hash: h, phase: 'after', session: `sess-${i + 1}`, time: time + 2 },
    ]);
    if (withRewind && i === 1)
      store.append([
        { t: 'checkpoint', id: 'rw', kind: 'rewind', label: 'rewind', target: 's1', time: time + 10 },
        { t: 'snap', path: '/w/a', hash: h, phase: 'pre-rewind', time: time + 11 },
        { t: 'snap', path: '/w/a', hash: v[0]!, phase: 'rewind', time: time + 12 },
      ]);
    prev = h;
  });
  return { store, v };
}

describe('gc with a size limit', () => {
  it('drops the oldest checkpoints until the store fits, keeping every blob a kept checkpoint needs', () => {
    const { store, v } = sizedStore(false);
    const use = storageUse(store);
    assert.equal(use.recordedBytes, 4 * MB);
    assert.deepEqual(
      use.sessions.map((s) => [s.session, s.bytes, s.checkpoints]),
      [
        ['sess-1', MB, 1],
        ['sess-2', MB, 1],
        ['sess-3', MB, 1],
        ['sess-4', MB, 1],
      ],
    );
    assert.deepEqual(
      use.byAge.map((a) => [a.days, a.bytes, a.checkpoints]),
      [
        ['0-1', 4 * MB, 4],
        ['1-7', 0, 0],
        ['7-30', 0, 0],
        ['30+', 0, 0],
      ],
    );
    const r = gc(store, 30, Date.now(), { maxBytes: 2.5 * MB });
    // s4 needs V4 and, for its "before", V3: 2 MB fit; keeping s3 too would need V2 as well (3 MB).
    assert.deepEqual(r.sizeLimit, { maxBytes: 2.5 * MB, droppedCheckpoints: 3, fits: true });
    assert.deepEqual(
      checkpoints(store.read().records).map((c) => c.id),
      ['s4'],
    );
    assert.deepEqual(
      v.map((h) => store.blobs.has(h)),
      [false, false, true, true],
    );
    assert.ok(r.bytesLeft <= 2.5 * MB, `${r.bytesLeft}`);
    const s4 = checkpoints(store.read().records)[0]!;
    assert.equal(stateAt(store.read().records, s4.seq).get('/w/a')?.hash, v[2], 'the state at the kept checkpoint is exact');
  });

  it('never removes the undo of the last rewind: it stops there and says the store does not fit', () => {
    const { store, v } = sizedStore(true);
    const r = gc(store, 30, Date.now(), { maxBytes: 2.5 * MB });
    assert.deepEqual(r.sizeLimit, { maxBytes: 2.5 * MB, droppedCheckpoints: 2, fits: false });
    assert.deepEqual(
      checkpoints(store.read().records).map((c) => c.id),
      ['rw', 's3', 's4'],
    );
    assert.deepEqual(
      v.map((h) => store.blobs.has(h)),
      [true, true, true, true],
      'V2 is the pre-rewind copy (the undo), V1 what the rewind wrote back',
    );
    // Without a limit nothing within the retention days goes.
    const { store: other } = sizedStore(false);
    assert.equal(gc(other, 30).droppedCheckpoints, 0);
  });

  it('by age the same: keep-days 0 (an idle workspace past its retention) keeps the undo of the last rewind and says so', () => {
    const { store, v } = sizedStore(true);
    const r = gc(store, 0);
    assert.deepEqual(
      checkpoints(store.read().records).map((c) => c.id),
      ['rw', 's3', 's4'],
    );
    assert.deepEqual(
      r.kept.map((k) => [k.checkpoint, k.reason]),
      [['rw', 'last-rewind']],
    );
    assert.equal(store.blobs.has(v[1]!), true, 'the pre-rewind copy stays');
    assert.equal(stateAt(store.read().records, checkpoints(store.read().records)[0]!.seq).get('/w/a')?.hash, v[1]);
  });
});
