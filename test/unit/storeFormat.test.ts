import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Store } from '../../src/core/store';
import { checkpoints, latestState } from '../../src/core/timeline/timeline';
import { sandbox, tempDir } from '../helpers/tmp';
import { isError } from '../../src/core/errors';

const FIXTURES = path.resolve(__dirname, '../fixtures/stores');

describe('store format', () => {
  it('creates the store owner-only with format 1', () => {
    const { store: dir } = sandbox();
    Store.open(dir, { create: true });
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(dir, 'store.json')).mode & 0o777, 0o600);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'store.json'), 'utf8')).format, 1);
  });

  it('refuses a newer format it does not know, and changes nothing', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'store.json'), JSON.stringify({ format: 99 }));
    fs.writeFileSync(path.join(dir, 'files.jsonl'), '');
    assert.throws(
      () => Store.open(dir, { create: true }),
      (e: unknown) => isError(e, 'store-format') && /newer Agent Rewind \(store format 99/.test((e as Error).message),
    );
    assert.equal(fs.readFileSync(path.join(dir, 'store.json'), 'utf8'), '{"format":99}');
  });

  it('reads every old format by migrating on read (fixture per format)', () => {
    for (const name of fs.readdirSync(FIXTURES).filter((n) => n.startsWith('format-'))) {
      const dir = path.join(tempDir(), name);
      fs.cpSync(path.join(FIXTURES, name), dir, { recursive: true });
      const store = Store.open(dir);
      const { records, problems } = store.read();
      assert.deepEqual(problems, [], name);
      assert.deepEqual(
        checkpoints(records).map((c) => c.kind),
        ['prompt'],
        name,
      );
      assert.equal(latestState(records).get('/work/app/a.txt')?.hash?.length, 64, name);
      assert.deepEqual(store.meta().roots, ['/work/app'], name);
    }
  });
});
