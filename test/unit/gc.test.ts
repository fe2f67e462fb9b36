import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { gc, retain } from '../../src/core/gc';
import { parseLog } from '../../src/core/fileLog';
import { acquireStoreLock, StoreBusyError } from '../../src/core/lock';
import { Store } from '../../src/core/store';
import { checkpoints, stateAt } from '../../src/core/timeline';
import { h, LogBuilder } from '../helpers/records';
import { sandbox } from '../helpers/tmp';

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

  it('refuses clearly while a rewind holds the store', () => {
    const { store: dir } = sandbox();
    const store = Store.open(dir, { create: true });
    const release = acquireStoreLock(store.dir, 'rewind');
    try {
      assert.throws(
        () => gc(store, 30),
        (e: unknown) => e instanceof StoreBusyError && /Another rewind is running/.test((e as Error).message),
      );
    } finally {
      release();
    }
    assert.equal(fs.existsSync(path.join(dir, 'lock')), false);
  });
});
