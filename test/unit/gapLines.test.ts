// Gap lines (what could not be recorded): a record type that takes no place in the sequence, so a
// reader that does not know it (skipping it as an unknown type) numbers every record the same; the
// log reader neither returns it nor reports it, readGaps finds it, and verify accepts it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { appendGaps, appendRecords, readGaps, readLog } from '../../src/core/storeFiles/fileLog';
import type { GapRecord, LogRecord } from '../../src/core/storeFiles/records';
import { Store } from '../../src/core/store';
import { verifyStore } from '../../src/core/upkeep/verify';
import { tempDir } from '../helpers/tmp';

const cp = (id: string, time = 1): LogRecord => ({ t: 'checkpoint', id, kind: 'manual', label: id, time });
const gap = (p: string, time: number): GapRecord => ({ t: 'gap', path: p, reason: 'special-file', session: 's', time });

test('gap lines take no sequence number and are no problem; readGaps finds them in order', () => {
  const dir = tempDir();
  const f = path.join(dir, 'files.jsonl');
  appendRecords(f, [cp('a')]);
  appendGaps(f, [gap('/w/pipe', 5)]);
  appendRecords(f, [cp('b')]);
  appendGaps(f, [gap('/w/sock', 7)]);
  const { records, problems } = readLog(f);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    records.map((r) => [r.t, r.seq]),
    [
      ['checkpoint', 0],
      ['checkpoint', 1],
    ],
  );
  // A reader that skips the lines it does not know numbers the rest the same.
  const without = fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('{"t":"gap"'));
  assert.equal(without.length, records.length);
  assert.deepEqual(
    readGaps(f).map((g) => [g.path, g.time]),
    [
      ['/w/pipe', 5],
      ['/w/sock', 7],
    ],
  );
  assert.deepEqual(
    readGaps(f, { maxBytes: 80 }).map((g) => g.path),
    ['/w/sock'],
    'a tail read finds the gaps in it',
  );
});

test('a malformed gap line is a problem; verify accepts well-formed ones', () => {
  const dir = tempDir();
  const store = Store.open(path.join(dir, 'store'), { create: true });
  store.append([cp('a')]);
  store.appendGaps([gap('/w/pipe', 5)]);
  assert.deepEqual(verifyStore(store).errors, []);
  fs.appendFileSync(store.logFile, '{"t":"gap","reason":"special-file","time":3}\n');
  assert.deepEqual(verifyStore(store).errors, ['files.jsonl line 3: gap without path']);
  assert.deepEqual(
    store.gapsSince(5).map((g) => g.path),
    ['/w/pipe'],
  );
});

test('readGaps reads back from the end across chunk boundaries, and with `since` stops where the span begins', () => {
  const f = path.join(tempDir(), 'files.jsonl');
  const filler = JSON.stringify(cp('x'.repeat(900), 1)) + '\n'; // ~1 KB lines: 10 MB holds chunk boundaries
  const times: number[] = [];
  const fd = fs.openSync(f, 'a');
  for (let i = 0; i < 10_000; i++) {
    fs.writeSync(fd, filler.replace('"time":1', `"time":${i * 100}`)); // 100 ms apart
    if (i % 997 === 0) {
      fs.writeSync(fd, JSON.stringify(gap(`/w/${i}`, i * 100)) + '\n');
      times.push(i * 100);
    }
  }
  fs.closeSync(fd);
  assert.deepEqual(
    readGaps(f).map((g) => g.time),
    times,
  );
  const recent = readGaps(f, { since: 900_000 }).map((g) => g.time);
  assert.deepEqual(recent.slice(-2), [897_300, 997_000]);
  assert.ok(recent.length < times.length, 'the lines long before the span are not read');
});
