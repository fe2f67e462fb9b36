// The resident recorder's wire (src/resident/residentWire.ts, forward.ts): how a request and its answer
// travel through the store's private folder, and how a hook finishes the append of a resident that
// died in it — on real files.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { finishPendingAppend } from '../../src/resident/forward';
import {
  answerFileOf,
  claimPending,
  dropRequestFiles,
  type HookRequest,
  newRequestId,
  PENDING_DIR,
  pendingFileOf,
  putAnswer,
  putRequest,
  readAnswer,
  readRequest,
  requestFileOf,
  requestIdOf,
} from '../../src/resident/residentWire';
import { tempDir } from '../helpers/tmp';

describe("a request and its answer, through the store's private folder", () => {
  const request = (id: string, size: number): HookRequest => ({
    v: 3,
    op: 'hook',
    id,
    bundle: { id: 'b', mtime: 1 },
    args: ['claude'],
    env: {},
    cwd: '/w',
    size,
    acceptBy: 0,
  });

  it('a request is put whole, in a folder only its owner can enter, and read back with its payload bytes', () => {
    const dir = tempDir();
    const id = newRequestId();
    assert.match(id, /^[0-9a-f]{16}$/);
    const payload = Buffer.from('{"hook_event_name":"PreToolUse","x":"é\\n"}');
    putRequest(dir, request(id, payload.length), payload);
    assert.equal((fs.statSync(path.join(dir, PENDING_DIR)).mode & 0o777).toString(8), '700');
    assert.equal((fs.statSync(requestFileOf(dir, id)).mode & 0o777).toString(8), '600');
    assert.deepEqual(fs.readdirSync(path.join(dir, PENDING_DIR)), [`${id}.req`], 'no temp file stays beside it');
    const got = readRequest(dir, id);
    assert.equal(got?.request.id, id);
    assert.deepEqual(got?.payload, payload);
  });

  it('only a request file names a request; a request under another id is not read as this one', () => {
    assert.equal(requestIdOf('0123456789abcdef.req'), '0123456789abcdef');
    for (const n of ['0123456789abcdef', '0123456789abcdef.ans', '0123456789abcdef.req.12.0.tmp', '../x.req', 'ABCDEF0123456789.req'])
      assert.equal(requestIdOf(n), undefined, n);
    const dir = tempDir();
    putRequest(dir, request('00000000000000aa', 0));
    fs.renameSync(requestFileOf(dir, '00000000000000aa'), requestFileOf(dir, '00000000000000bb'));
    assert.equal(readRequest(dir, '00000000000000bb'), undefined);
    assert.equal(readRequest(dir, '00000000000000cc'), undefined, 'none at all');
  });

  it('answers: done with its context, a refusal with its reason, a status; none until it is there', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, PENDING_DIR));
    assert.equal(readAnswer(dir, '00000000000000aa'), undefined);
    putAnswer(dir, '00000000000000aa', `D ${JSON.stringify({ context: 'say this\n' })}`);
    assert.deepEqual(readAnswer(dir, '00000000000000aa'), { kind: 'D', context: 'say this\n' });
    putAnswer(dir, '00000000000000bb', 'R replaced');
    assert.deepEqual(readAnswer(dir, '00000000000000bb'), { kind: 'R', reason: 'replaced' });
    putAnswer(dir, '00000000000000cc', 'S {"pid":7}');
    assert.deepEqual(readAnswer(dir, '00000000000000cc'), { kind: 'S', status: { pid: 7 } });
  });

  it('the hook removes what its request left, the claim only when asked', () => {
    const dir = tempDir();
    const id = '00000000000000aa';
    putRequest(dir, request(id, 0));
    putAnswer(dir, id, 'D {}');
    claimPending(dir, id);
    dropRequestFiles(dir, id, false);
    assert.deepEqual(fs.readdirSync(path.join(dir, PENDING_DIR)), [id], 'the claim stays');
    assert.equal(fs.existsSync(answerFileOf(dir, id)), false);
    dropRequestFiles(dir, id, true);
    assert.deepEqual(fs.readdirSync(path.join(dir, PENDING_DIR)), []);
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
