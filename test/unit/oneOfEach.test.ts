// One atomic write, one lock, one bounded read (src/core/storeFiles/fsx.ts and lock.ts), on real files in a
// temp folder: what each promises a caller, and a look over src/ that no second "temp file, then rename"
// has grown beside them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { readHead, readOpen, readRange, readTailBytes, replaceFile, writeFileAtomic } from '../../src/core/storeFiles/fsx';
import { acquireStoreLock, holdFileLock } from '../../src/core/storeFiles/lock';

const root = path.resolve(__dirname, '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-one-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const dir = (name: string) => fs.mkdtempSync(path.join(tmp, `${name}-`));

test('writeFileAtomic replaces the file whole and leaves no temp file; mode 0600 unless told', () => {
  const d = dir('write');
  const f = path.join(d, 'a.json');
  fs.writeFileSync(f, 'old');
  assert.equal(writeFileAtomic(f, 'new'), true);
  assert.equal(fs.readFileSync(f, 'utf8'), 'new');
  assert.deepEqual(fs.readdirSync(d), ['a.json']);
  assert.equal(fs.statSync(f).mode & 0o777, 0o600);
  writeFileAtomic(f, 'x', { mode: 0o640, exactMode: true });
  assert.equal(fs.statSync(f).mode & 0o777, 0o640);
});

test("a temp file left by a killed run under the caller's name is replaced, never reused", () => {
  const d = dir('leftover');
  const f = path.join(d, 'journal.json');
  fs.writeFileSync(`${f}.tmp`, 'half of an old journal, longer than the new one');
  writeFileAtomic(f, '{}', { tmp: `${f}.tmp` });
  assert.equal(fs.readFileSync(f, 'utf8'), '{}');
  assert.deepEqual(fs.readdirSync(d), ['journal.json']);
});

test('beforeRename saying no keeps the old file; a failing fill keeps it too; neither leaves a temp file', () => {
  const d = dir('keep');
  const f = path.join(d, 'settings.json');
  fs.writeFileSync(f, 'theirs');
  assert.equal(writeFileAtomic(f, 'ours', { beforeRename: () => false }), false);
  assert.throws(
    () =>
      replaceFile(f, (t) => {
        fs.writeFileSync(t, 'partial');
        throw new Error('disk full');
      }),
    /disk full/,
  );
  assert.equal(fs.readFileSync(f, 'utf8'), 'theirs');
  assert.deepEqual(fs.readdirSync(d), ['settings.json']);
});

test('exclusive never writes over an existing file: EEXIST, the old content, no temp file', () => {
  const d = dir('exclusive');
  const f = path.join(d, 'store.json');
  assert.equal(writeFileAtomic(f, 'first', { exclusive: true }), true);
  assert.throws(() => writeFileAtomic(f, 'second', { exclusive: true }), { code: 'EEXIST' });
  assert.equal(fs.readFileSync(f, 'utf8'), 'first');
  assert.deepEqual(fs.readdirSync(d), ['store.json']);
});

test('readHead reads at most the bytes asked for, all of a shorter file, and null for no file', () => {
  const f = path.join(dir('head'), 'big');
  fs.writeFileSync(f, 'x'.repeat(100000));
  assert.equal(readHead(f, 4096)!.length, 4096);
  assert.equal(readHead(f, 200000)!.length, 100000);
  assert.equal(readHead(path.join(tmp, 'none'), 10), null);
});

test('readTailBytes reads at most the last bytes asked for and where they start, all of a shorter file, and null for no file', () => {
  const f = path.join(dir('tail'), 'log');
  fs.writeFileSync(f, 'a'.repeat(1000) + 'b'.repeat(24));
  const last = readTailBytes(f, 24)!;
  assert.deepEqual([last.bytes.toString(), last.from], ['b'.repeat(24), 1000]);
  const all = readTailBytes(f, 5000)!;
  assert.deepEqual([all.bytes.length, all.from], [1024, 0]);
  assert.equal(readTailBytes(path.join(tmp, 'none'), 10), null);
});

test('readOpen hands its reader the open file and closes it after, also when the reader throws; null for no file', () => {
  const f = path.join(dir('open'), 'state');
  fs.writeFileSync(f, 'header\nbody');
  let seen = -1;
  assert.equal(
    readOpen(f, (fd) => {
      seen = fd;
      return readRange(fd, 0, 6).toString();
    }),
    'header',
  );
  assert.throws(() => fs.fstatSync(seen), { code: 'EBADF' });
  assert.throws(
    () =>
      readOpen(f, (fd) => {
        seen = fd;
        throw new Error('torn');
      }),
    /torn/,
  );
  assert.throws(() => fs.fstatSync(seen), { code: 'EBADF' });
  assert.equal(
    readOpen(path.join(tmp, 'none'), () => 'read'),
    null,
  );
});

/** A child process that lives until killed: a live holder that is not us. */
function liveChild() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  after(() => child.kill());
  return child;
}

test('the store lock: a second taker is refused while the first holds it, and may take it once released', () => {
  const d = dir('store');
  const release = acquireStoreLock(d, 'rewind');
  assert.throws(() => acquireStoreLock(d, 'gc'), { code: 'store-busy' });
  release();
  acquireStoreLock(d, 'gc')();
});

test("holdFileLock takes over a dead holder's lock, and goes on without a live holder's once its wait is over", () => {
  const d = dir('scan');
  const lock = path.join(d, 's.scan.lock');
  // A dead holder, written as an older hook wrote it (a bare pid): taken over at once.
  fs.writeFileSync(lock, '2147483646');
  const release = holdFileLock(lock, 'shell capture', { waitMs: 0, staleMs: 60000 });
  assert.equal(JSON.parse(fs.readFileSync(lock, 'utf8')).pid, process.pid);
  release();
  assert.equal(fs.existsSync(lock), false, 'released');
  // A live holder: the caller goes on without it (a hook never blocks the agent), and the holder's lock is left alone.
  const child = liveChild();
  fs.writeFileSync(lock, JSON.stringify({ pid: child.pid, op: 'shell capture', time: Date.now() }));
  holdFileLock(lock, 'shell capture', { waitMs: 50, staleMs: 60000 })();
  assert.equal(JSON.parse(fs.readFileSync(lock, 'utf8')).pid, child.pid);
});

/** Every .ts file under `d`. */
function sources(d: string): string[] {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

test('src/ renames or hard-links a file into place only through replaceFile (fsx.ts)', () => {
  // The one other rename: a whole store folder moved aside (not a file write).
  const allowed = new Map([['src/core/storeFiles/workspaceStore.ts', 1]]);
  const found: string[] = [];
  for (const f of sources(path.join(root, 'src'))) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    if (rel === 'src/core/storeFiles/fsx.ts') continue;
    const n = (fs.readFileSync(f, 'utf8').match(/(\.(rename|link)(Sync)?|\b(renameSync|linkSync))\s*\(/g) ?? []).length;
    if (n !== (allowed.get(rel) ?? 0)) found.push(`${rel}: ${n}`);
  }
  assert.deepEqual(found, [], 'write a temp file and rename it with writeFileAtomic or replaceFile');
});
