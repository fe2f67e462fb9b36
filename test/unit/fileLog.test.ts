import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { appendRecords, parseLog, readLog, recentRecords } from '../../src/core/storeFiles/fileLog';
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
  it('a log of several megabytes reads as its text parsed at once: every record, sequence and bad line number', () => {
    // Parsed a part at a time (parseLogBytes): the parts end after a newline, never inside a character or a line.
    const f = path.join(tempDir(), 'files.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 12_000; i++) {
      if (i % 997 === 0) lines.push(i % 2 ? 'garbage' : '');
      else if (i % 1500 === 0) lines.push(`{"t":"checkpoint","id":"crlf${i}","kind":"manual","label":"x","time":1}\r`);
      else lines.push(JSON.stringify({ ...cp(`c${i}`), label: `ünïcödé ✓ ${'€'.repeat(i % 300)}` }));
    }
    const text = lines.join('\n') + '\n{"t":"checkpoint","id":"last-without-newline","kind":"manual","label":"x","time":1}';
    fs.writeFileSync(f, text);
    assert.ok(fs.statSync(f).size > 3 * (1 << 20), 'more than three parts');
    const read = readLog(f);
    assert.deepEqual(read, parseLog(text));
    assert.equal(read.records.length, 12_000 - 13 + 1);
    assert.deepEqual(
      read.problems.map((p) => p.line),
      lines.flatMap((l, i) => (l === 'garbage' ? [i + 1] : [])),
    );
    assert.ok(read.records.every((r, i) => r.seq === i));
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
