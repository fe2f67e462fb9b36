// The resident recorder's wire (src/cli/residentWire.ts, forward.ts): where a store's resident
// listens on each platform, how replies are split into lines, and how a hook finishes the append of
// a resident that died in it — on real files.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { finishPendingAppend } from '../../src/cli/forward';
import { claimPending, hash16, lineReader, pendingFileOf, socketFolder, socketPathOf } from '../../src/cli/residentWire';
import { tempDir } from '../helpers/tmp';

describe('where a resident listens', () => {
  const linux = { platform: 'linux' as const, runtimeDir: '/run/user/1000', uid: 1000 };
  it('a Unix socket in a private per-user folder, named by a hash of the store: short whatever the store path', () => {
    const deep = '/home/someone/' + 'very-long-folder-name/'.repeat(20) + 'store';
    const p = socketPathOf(deep, linux);
    assert.equal(path.posix.dirname(p), socketFolder(linux));
    assert.equal(socketFolder(linux), '/run/user/1000/agent-rewind-1000');
    assert.match(path.posix.basename(p), /^[0-9a-f]{16}\.sock$/);
    assert.ok(Buffer.byteLength(p) < 104, `within sun_path on every platform: ${p}`);
    assert.notEqual(socketPathOf('/a/store', linux), socketPathOf('/b/store', linux), 'one per store');
    assert.equal(socketPathOf('/a/store', linux), socketPathOf('/a/store', linux), 'the same for every hook of a store');
  });

  it('a named pipe on Windows, the same for a store however its path is cased', () => {
    const win = { platform: 'win32' as const, runtimeDir: 'C:\\Users\\me\\AppData\\Local\\Temp', uid: 0 };
    assert.equal(socketFolder(win), undefined);
    const p = socketPathOf('C:\\Users\\me\\store', win);
    assert.match(p, /^\\\\\.\\pipe\\agent-rewind-[0-9a-f]{16}$/);
    assert.equal(socketPathOf('c:\\users\\ME\\store', win), p);
  });
});

describe('replies, line by line', () => {
  it('splits lines across chunks and keeps a line that is not finished', () => {
    const got: string[] = [];
    const feed = lineReader((l) => got.push(l));
    feed(Buffer.from('R late\nD {"con'));
    assert.deepEqual(got, ['R late']);
    feed(Buffer.from('text":""}\nR x'));
    assert.deepEqual(got, ['R late', 'D {"context":""}']);
  });
});

describe('a hook finishing the append of a resident that died in it', () => {
  const lines = ['{"t":"checkpoint","id":"c1","kind":"prompt"}', '{"t":"snap","path":"/w/a","hash":null,"phase":"observed"}'];
  const text = lines.map((l) => l + '\n').join('');
  const setup = (log: string) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'files.jsonl'), log);
    const id = 'a1b2c3d4e5f60718';
    fs.mkdirSync(path.dirname(pendingFileOf(dir, id)), { recursive: true });
    fs.writeFileSync(pendingFileOf(dir, id), text);
    return { dir, id, read: () => fs.readFileSync(path.join(dir, 'files.jsonl'), 'utf8') };
  };
  const before = '{"t":"checkpoint","id":"c0","kind":"session-start"}\n';

  it('its append was whole: nothing is added, the copy is removed', () => {
    const s = setup(before + text + '{"t":"checkpoint","id":"other"}\n');
    assert.equal(finishPendingAppend(s.dir, s.id), true);
    assert.equal(s.read(), before + text + '{"t":"checkpoint","id":"other"}\n');
    assert.equal(fs.existsSync(pendingFileOf(s.dir, s.id)), false);
  });

  it('its append was torn: the lines after the whole ones follow, the fragment stays alone on its line', () => {
    const torn = lines[0] + '\n' + lines[1]!.slice(0, 20);
    const s = setup(before + torn);
    assert.equal(finishPendingAppend(s.dir, s.id), true);
    assert.equal(s.read(), before + torn + '\n' + lines[1] + '\n');
  });

  it('torn inside its first line: all of it follows', () => {
    const s = setup(before + lines[0]!.slice(0, 10));
    assert.equal(finishPendingAppend(s.dir, s.id), true);
    assert.equal(s.read(), before + lines[0]!.slice(0, 10) + '\n' + text);
  });

  it('no append at all: all of it is appended', () => {
    const s = setup(before);
    assert.equal(finishPendingAppend(s.dir, s.id), true);
    assert.equal(s.read(), before + text);
  });

  it('an empty claim (it died before its append): false, and the claim goes (the hook records the payload itself)', () => {
    const dir = tempDir();
    assert.equal(claimPending(dir, 'a1b2c3d4e5f60718'), true);
    assert.equal(finishPendingAppend(dir, 'a1b2c3d4e5f60718'), false);
    assert.equal(fs.existsSync(pendingFileOf(dir, 'a1b2c3d4e5f60718')), false);
  });

  it('no copy: false (the hook records the payload itself)', () => {
    const dir = tempDir();
    assert.equal(finishPendingAppend(dir, '0000000000000000'), false);
  });
});

describe('who records a payload: one exclusive claim', () => {
  it('the first claim wins, every later one (the other side) loses; the folder is made on the first', () => {
    const dir = tempDir();
    assert.equal(claimPending(dir, '00000000000000aa'), true);
    assert.equal(claimPending(dir, '00000000000000aa'), false);
    assert.equal(claimPending(dir, '00000000000000bb'), true, 'another request: its own claim');
    assert.equal((fs.statSync(pendingFileOf(dir, '00000000000000aa')).mode & 0o777).toString(8), '600');
  });

  it('a claim that cannot be made at all throws (neither side may record on a guess)', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'resident-pending'), 'a file where the folder goes');
    assert.throws(() => claimPending(dir, '00000000000000aa'));
  });
});

describe('socket names without node:crypto', () => {
  it('16 hex digits, stable, different for near paths', () => {
    assert.match(hash16('/a/store'), /^[0-9a-f]{16}$/);
    assert.equal(hash16('/a/store'), hash16('/a/store'));
    const names = new Set(Array.from({ length: 10000 }, (_, i) => hash16(`/home/u/project-${i}/.agent-rewind`)));
    assert.equal(names.size, 10000, 'no collision among 10,000 neighbouring stores');
  });
});
