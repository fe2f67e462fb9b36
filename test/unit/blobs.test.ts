import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import nodeFs = require('node:fs');
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { BlobStore, sha256 } from '../../src/core/storeFiles/blobs';
import { tempDir } from '../helpers/tmp';

describe('BlobStore', () => {
  it('a name that is not a sha256 reads nothing, not even a file beside objects/ (a snapshot URI ?h=../../dev/zero)', () => {
    const dir = tempDir();
    const s = new BlobStore(dir);
    s.put(Buffer.from('x'));
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.writeFileSync(path.join(dir, 'outside', 'secret'), 'not a blob');
    const evil = '../outside/secret'; // pathOf used to join it under objects/: <store>/outside/secret
    assert.equal(s.has(evil), false);
    assert.throws(() => s.get(evil), { code: 'invalid-hash' });
    assert.throws(() => s.get('../../../../../../dev/zero'), { code: 'invalid-hash' });
    assert.throws(() => s.get('A'.repeat(64)), { code: 'invalid-hash' }); // upper case is not how blobs are named
  });

  it('stores whole content under its sha256 and reads it back verified', () => {
    const s = new BlobStore(tempDir());
    const data = Buffer.from('hello\n');
    const hash = s.put(data);
    assert.equal(hash, sha256(data));
    assert.equal(s.pathOf(hash).endsWith(path.join(hash.slice(0, 2), hash.slice(2))), true);
    assert.deepEqual(s.get(hash), data);
  });
  it('deduplicates identical content', () => {
    const s = new BlobStore(tempDir());
    const a = s.put(Buffer.from('same'));
    const b = s.put(Buffer.from('same'));
    assert.equal(a, b);
    assert.equal([...s.list()].length, 1);
  });
  it('refuses a blob whose content does not match its name', () => {
    const s = new BlobStore(tempDir());
    const hash = s.put(Buffer.from('original'));
    fs.chmodSync(s.pathOf(hash), 0o600);
    fs.writeFileSync(s.pathOf(hash), 'tampered');
    assert.throws(() => s.get(hash), { code: 'blob-corrupt' });
  });
  it('reports a missing blob clearly', () => {
    const s = new BlobStore(tempDir());
    assert.throws(() => s.get('a'.repeat(64)), /missing/);
  });
  it('leaves no temp file behind and writes owner-only files', () => {
    const dir = tempDir();
    const s = new BlobStore(dir);
    const hash = s.put(Buffer.from('x'));
    assert.deepEqual(fs.readdirSync(path.join(dir, 'objects', 'tmp')), []);
    assert.equal(fs.statSync(s.pathOf(hash)).mode & 0o777, 0o600);
  });
});

describe('BlobStore.makeDurable', () => {
  it('a blob this process fsynced and nobody touched since is durable without reading it; one rewritten since is verified again', () => {
    const store = new BlobStore(tempDir('ar-blobs-'));
    const data = Buffer.from('fsynced by this process\n');
    const hash = store.put(data); // written with fsync
    assert.equal(store.makeDurable(hash), true);
    // Damaged in place behind the store's back (a new inode, as any rewrite): not taken on trust.
    const file = store.pathOf(hash);
    fs.chmodSync(file, 0o600);
    fs.rmSync(file);
    fs.writeFileSync(file, 'damaged, same name\n', { mode: 0o600 });
    assert.equal(store.makeDurable(hash), false);
    // Written without fsync (a scan's copy): read, hashed and fsynced, then remembered.
    const other = Buffer.from('a scan copy\n');
    const h2 = store.put(other, undefined, { sync: false });
    assert.equal(store.makeDurable(h2), true);
    fs.rmSync(store.pathOf(h2));
    assert.equal(store.makeDurable(h2), false, 'gone: not durable');
  });
});

describe('BlobStore.put of a blob already there', () => {
  it('fsyncs a recent copy a scan wrote without fsync before a caller that wants it durable is given its name, and only once', (t) => {
    const store = new BlobStore(tempDir('ar-blobs-'));
    const data = Buffer.from('a scan copy an Edit call then names\n');
    const hash = store.put(data, undefined, { sync: false });
    // The module object the store's own calls go through (the test's `fs` is a copy of its bindings).
    const fsyncs = t.mock.method(nodeFs, 'fsyncSync');
    assert.equal(store.put(data), hash);
    assert.equal(fsyncs.mock.callCount(), 1, 'the unsynced copy is fsynced once a caller wants it durable');
    assert.equal(store.put(data), hash);
    assert.equal(fsyncs.mock.callCount(), 1, 'fsynced here and unchanged since: not again');
    assert.equal(store.put(data, undefined, { sync: false }), hash);
    assert.equal(fsyncs.mock.callCount(), 1, 'a caller that does not want it durable pays nothing');
  });
});
