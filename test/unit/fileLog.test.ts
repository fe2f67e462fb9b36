import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { appendRecords, readLog, recentRecords } from '../../src/core/storeFiles/fileLog';
import type { LogRecord } from '../../src/core/storeFiles/records';
import { tempDir } from '../helpers/tmp';

const cp = (id: string): LogRecord => ({ t: 'checkpoint', id, kind: 'manual', label: id, time: 1 });

describe('files.jsonl', () => {
  it('appends whole lines and reads them back in order with their sequence', () => {
    const f = path.join(tempDir(), 'files.jsonl');
    appendRecords(f, [cp('a'), cp('b')]);
    appendRecords(f, [cp('c')]);
    const { records, problems } = readLog(f);
    assert.deepEqual(
      records.map((r) => [r.t === 'checkpoint' && r.id, r.seq]),
      [
        ['a', 0],
        ['b', 1],
        ['c', 2],
      ],
    );
    assert.equal(problems.length, 0);
  });
  it('a record appended after a torn line starts on its own line and is not lost', () => {
    const f = path.join(tempDir(), 'files.jsonl');
    appendRecords(f, [cp('a')]);
    fs.appendFileSync(f, '{"t":"checkpoint","id":"tor');
    appendRecords(f, [cp('b')]);
    const { records, problems } = readLog(f);
    assert.deepEqual(
      records.map((r) => r.t === 'checkpoint' && r.id),
      ['a', 'b'],
    );
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.line, 2);
  });
  it('skips and reports unknown record types and malformed snapshots, never fails', () => {
    const f = path.join(tempDir(), 'files.jsonl');
    fs.writeFileSync(
      f,
      ['{"t":"future-thing","x":1}', '{"t":"snap","path":"/a","hash":"zz","phase":"after","time":1}', '[]', 'garbage', ''].join('\n'),
    );
    const { records, problems } = readLog(f);
    assert.equal(records.length, 0);
    assert.deepEqual(
      problems.map((p) => p.line),
      [1, 2, 3, 4],
    );
  });
  it('reads a missing log as empty', () => {
    assert.deepEqual(readLog(path.join(tempDir(), 'nope.jsonl')), { records: [], problems: [] });
  });
  it("recent records: the log's last bytes, the line cut there and torn lines skipped, only lines with the text asked for", () => {
    const f = path.join(tempDir(), 'files.jsonl');
    appendRecords(f, [cp('first-x'), cp('second-x'), cp('third-y'), cp('fourth-x')]);
    fs.appendFileSync(f, '{"t":"checkpoint","id":"torn-x');
    const ids = (maxBytes: number) => recentRecords(f, maxBytes, '-x').map((r) => r.t === 'checkpoint' && r.id);
    assert.deepEqual(ids(1 << 20), ['first-x', 'second-x', 'fourth-x']);
    const size = fs.statSync(f).size;
    const lineOf = (id: string) => JSON.stringify(cp(id)).length + 1;
    const fromInsideSecond = size - ('{"t":"checkpoint","id":"torn-x'.length + lineOf('fourth-x') + lineOf('third-y') + 5);
    assert.deepEqual(ids(size - fromInsideSecond), ['fourth-x'], 'the second line, cut, is not read');
    assert.deepEqual(recentRecords(path.join(tempDir(), 'nope.jsonl'), 100, 'x'), []);
  });
});
