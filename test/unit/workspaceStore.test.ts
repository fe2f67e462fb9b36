import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Store } from '../../src/core/store';
import {
  checkStoreFolder,
  deleteRecordings,
  moveStoreAside,
  storeUnderParent,
  workspaceStoreName,
} from '../../src/core/storeFiles/workspaceStore';
import { isError } from '../../src/core/errors';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ar-wsstore-'));

describe('workspace stores under a parent folder', () => {
  it('names each workspace’s store by a readable name and a hash of its path', () => {
    const a = workspaceStoreName('/home/me/projects/My App', 'linux');
    assert.match(a, /^My-App-[0-9a-f]{12}$/);
    assert.notEqual(workspaceStoreName('/home/you/projects/My App', 'linux'), a, 'same name, other folder: another store');
    assert.equal(workspaceStoreName('/home/me/projects/My App', 'linux'), a, 'stable');
    assert.match(workspaceStoreName('/home/me/team.code-workspace', 'linux'), /^team-[0-9a-f]{12}$/);
    // One folder whatever case the drive letter or separators have on Windows.
    assert.equal(workspaceStoreName('C:\\Users\\me\\app', 'win32'), workspaceStoreName('c:/users/ME/app', 'win32'));
    assert.match(workspaceStoreName('/', 'linux'), /^workspace-[0-9a-f]{12}$/);
  });

  it('refuses a non-empty folder that is not a store, accepts an empty or missing one and a store', () => {
    const d = tmp();
    checkStoreFolder(path.join(d, 'missing'));
    checkStoreFolder(d);
    fs.writeFileSync(path.join(d, 'thesis.docx'), 'mine');
    assert.throws(
      () => checkStoreFolder(d),
      (e) => isError(e, 'not-a-store') && /thesis\.docx/.test(e.message) && /nothing was changed/.test(e.message),
    );
    const s = path.join(d, 'store');
    Store.open(s, { create: true });
    fs.writeFileSync(path.join(s, 'notes.txt'), 'x');
    checkStoreFolder(s);
  });

  it('a storeDirectory that is itself a store (its old meaning) is detected: a new store inside it, or the old one when the user keeps it', () => {
    const parent = tmp();
    const ws = '/home/me/app';
    assert.deepEqual(storeUnderParent(parent, ws), { dir: path.join(parent, workspaceStoreName(ws)) }, 'a plain parent');
    // The store of an earlier version, made right in the folder the setting names.
    Store.open(parent, { create: true }).append([{ t: 'checkpoint', id: 'c1', time: 1, kind: 'manual', label: 'old' }]);
    assert.deepEqual(storeUnderParent(parent, ws), { dir: path.join(parent, workspaceStoreName(ws)), oldStore: parent });
    assert.deepEqual(storeUnderParent(parent, ws, true), { dir: parent });
    // An older store still without store.json is a store too.
    fs.rmSync(path.join(parent, 'store.json'));
    assert.equal(storeUnderParent(parent, ws).oldStore, parent);
    assert.equal(fs.existsSync(path.join(parent, workspaceStoreName(ws))), false, 'deciding creates nothing');
  });

  it('"delete everything recorded" removes only the store’s own entries', () => {
    const s = path.join(tmp(), 'store');
    const store = Store.open(s, { create: true });
    store.blobs.put(Buffer.from('hello'));
    store.logError('x');
    fs.mkdirSync(path.join(s, 'sessions'));
    fs.writeFileSync(path.join(s, 'files.jsonl'), '{}\n');
    fs.writeFileSync(path.join(s, 'files.jsonl.gc.tmp'), '');
    fs.writeFileSync(path.join(s, 'notes.txt'), 'not ours');
    fs.mkdirSync(path.join(s, 'photos'));
    deleteRecordings(s);
    assert.deepEqual(fs.readdirSync(s).sort(), ['notes.txt', 'photos', 'store.json']);
  });

  it('moves a damaged store aside, never deleting it', () => {
    const d = tmp();
    const s = path.join(d, 'ws-abc');
    fs.mkdirSync(s);
    fs.writeFileSync(path.join(s, 'store.json'), '{"format": 1, "cre');
    const t = new Date('2026-01-02T03:04:05.678Z');
    const moved = moveStoreAside(s, t);
    assert.equal(moved, `${s}.damaged-2026-01-02T03-04-05-678Z`);
    assert.equal(fs.readFileSync(path.join(moved, 'store.json'), 'utf8'), '{"format": 1, "cre');
    assert.equal(fs.existsSync(s), false);
    fs.mkdirSync(s);
    assert.equal(moveStoreAside(s, t), `${s}.damaged-2026-01-02T03-04-05-678Z-1`);
  });
});
