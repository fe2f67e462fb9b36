// The +/- counts of the views' file rows, made off the extension host: a row asks and gets nothing
// at once; the counts asked for in one turn go to the view worker as one request, come back equal
// to the host's own count, and `ready` says so (the views draw those rows again). Without a worker
// the same counts are made on the host.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { storedLineStats } from '../../src/core/timeline/lineStats';
import { Store } from '../../src/core/store';
import { LineStatsSource } from '../../src/extension/offHost/lineStatsSource';
import { WorkerClient } from '../../src/extension/offHost/workerClient';
import { workerScript } from '../helpers/offHostWorker';
import { tempDir } from '../helpers/tmp';

const root = tempDir('ar-rowstats-');
const WORKER = workerScript(root);

function storeWith(): { store: Store; pairs: [string | null, string | null][] } {
  const store = Store.open(path.join(fs.mkdtempSync(path.join(root, 's-')), 'store'), { create: true });
  const put = (t: string | Buffer) => store.blobs.put(Buffer.from(t));
  const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}\n`).join('');
  const a = put(lines(50, 'line'));
  const b = put(lines(50, 'line').replace('line 7\n', 'changed 7\nadded\n'));
  const bin = put(Buffer.from([0, 1, 2, 3]));
  return {
    store,
    pairs: [
      [a, b],
      [b, a],
      [null, a],
      [a, bin],
      [a, 'f'.repeat(64)], // a content the store does not hold
    ],
  };
}

test('counts asked for in one turn go to the worker as one request, equal the host’s, and ready says when', async () => {
  const { store, pairs } = storeWith();
  const client = new WorkerClient(WORKER, () => {}, { name: 'view', fallback: '' });
  let ready = 0;
  const source = new LineStatsSource(store, client, () => ready++);
  try {
    for (const [from, to] of pairs) assert.equal(source.get(from, to), undefined, 'nothing at once: asked for');
    await source.settled();
    assert.equal(client.answers, 1, 'one request for all five');
    assert.equal(ready, 1);
    const here = (from: string | null, to: string | null) => storedLineStats((h) => store.content(h), from, to);
    for (const [from, to] of pairs) assert.deepEqual(source.get(from, to), here(from, to));
    assert.deepEqual(source.get(pairs[0]![0], pairs[0]![1]), { insertions: 2, deletions: 1 });
    assert.equal(source.get(pairs[3]![0], pairs[3]![1])?.binary, true);
    assert.equal(source.get(pairs[4]![0], pairs[4]![1])?.approximate, true, 'a missing content is an estimate, not an error');
    assert.equal(client.answers, 1, 'kept: asked again, nothing is sent');
    assert.ok(client.offHost);
  } finally {
    client.dispose();
  }
});

test('without a worker the same counts are made on the host', async () => {
  const { store, pairs } = storeWith();
  const lines: string[] = [];
  const client = new WorkerClient(path.join(root, 'no-such-worker.js'), (l) => lines.push(l), { name: 'view', fallback: 'on the host.' });
  let ready = 0;
  const source = new LineStatsSource(store, client, () => ready++);
  for (const [from, to] of pairs) source.get(from, to);
  await source.settled();
  assert.equal(ready, 1);
  for (const [from, to] of pairs)
    assert.deepEqual(
      source.get(from, to),
      storedLineStats((h) => store.content(h), from, to),
    );
  assert.equal(client.offHost, false);
  assert.match(lines.join('\n'), /^The view worker is not available/);
  client.dispose();
});
