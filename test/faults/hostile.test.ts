// Hostile and odd input, end to end through the real CLI and hook processes: each case shows the
// clear message or the correct restore (issue: "Nothing lost, ever", item 3).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { CLI } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox, snapshotTree, tempDir } from '../helpers/tmp';
import { assertTree, fs, json, ok, path, run } from './world';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const isRoot = process.getuid?.() === 0;

interface Line {
  t: string;
  path?: string;
  hash?: string | null;
  skipped?: string;
  link?: boolean;
  kind?: string;
  id?: string;
}
function lines(store: string): Line[] {
  const f = path.join(store, 'files.jsonl');
  if (!fs.existsSync(f)) return [];
  return fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}
function lastPrompt(store: string): string {
  return lines(store)
    .filter((l) => l.t === 'checkpoint' && l.kind === 'prompt')
    .at(-1)!.id!;
}
function allBlobs(store: string): string[] {
  const out: string[] = [];
  const objects = path.join(store, 'objects');
  for (const fan of fs.existsSync(objects) ? fs.readdirSync(objects) : []) {
    if (!/^[0-9a-f]{2}$/.test(fan)) continue;
    for (const rest of fs.readdirSync(path.join(objects, fan))) out.push(fan + rest);
  }
  return out;
}
function errorsLog(store: string): string {
  const f = path.join(store, 'errors.log');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
}

/** A workspace with a recorded session started and a first prompt. */
function session(config?: Record<string, unknown>) {
  const sb = sandbox();
  if (config) {
    fs.mkdirSync(sb.store, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(sb.store, 'config.json'), JSON.stringify(config));
  }
  const s = new ClaudeSession(sb.store, sb.ws);
  return { ...sb, s };
}

describe('hostile and odd input', () => {
  it('a file over the size limit: recorded as not snapshotted, listed by plan and rewind as not restorable, left as it is', () => {
    const { ws, store, s } = session({ maxFileBytes: 1000 });
    fs.writeFileSync(path.join(ws, 'huge.log'), 'x'.repeat(5000));
    fs.writeFileSync(path.join(ws, 'small.txt'), 'small\n');
    s.start();
    s.prompt('grow things');
    const p = lastPrompt(store);
    s.write('huge.log', 'y'.repeat(6000)); // was too large, is too large
    s.write('made-huge.bin', 'z'.repeat(3000)); // created too large
    s.write('small.txt', 'small, edited\n');
    const snaps = lines(store).filter((l) => l.t === 'snap' && l.path?.endsWith('huge.log'));
    assert.ok(
      snaps.length >= 2 && snaps.every((l) => l.hash === null && l.skipped === 'too-large'),
      'recorded as not snapshotted: too large',
    );

    const plan = json(store, ['plan', '--to', p]);
    assert.deepEqual(
      plan.files.map((f: { path: string }) => path.basename(f.path)),
      ['small.txt'],
    );
    assert.deepEqual(
      plan.notRestorable.map((n: { path: string; reason: string }) => [path.basename(n.path), n.reason]).sort(),
      [
        ['huge.log', 'too-large'],
        ['made-huge.bin', 'too-large'],
      ],
      'listed, never silently skipped',
    );
    const text = ok(run(store, ['rewind', '--to', p]), 'rewind').stdout;
    assert.match(text, /Cannot restore \(2\) — left as they are:\n.*huge\.log: over the size limit.*maxFileSizeMB/s);
    assert.equal(fs.readFileSync(path.join(ws, 'small.txt'), 'utf8'), 'small\n');
    assert.equal(
      fs.readFileSync(path.join(ws, 'huge.log'), 'utf8'),
      'y'.repeat(6000),
      'left as it is: a rewind never overwrites what it cannot keep a copy of',
    );
    assert.equal(fs.statSync(path.join(ws, 'made-huge.bin')).size, 3000, 'not deleted either: it could not be brought back');
  });

  it('even --force never overwrites a file the user made too large to keep a copy of', () => {
    const { ws, store, s } = session({ maxFileBytes: 1000 });
    s.start();
    s.prompt('p');
    const p = lastPrompt(store);
    s.write('notes.txt', 'agent text\n');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'the user pasted a lot: ' + 'u'.repeat(2000));
    const r = run(store, ['rewind', '--to', p, '--force', '--json']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).notRestorable.map((n: { reason: string }) => n.reason),
      ['too-large'],
    );
    assert.match(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), /^the user pasted a lot/);
  });

  it('binary and empty files restore byte-exact: created, emptied and deleted', () => {
    const { ws, store, s } = session();
    const all = Buffer.from(Array.from({ length: 256 * 4 }, (_, i) => i % 256));
    fs.writeFileSync(path.join(ws, 'blob.bin'), all);
    fs.writeFileSync(path.join(ws, 'empty-at-start'), '');
    fs.writeFileSync(path.join(ws, 'full.txt'), 'content\n');
    s.start();
    s.prompt('p');
    const p = lastPrompt(store);
    const before = snapshotTree(ws);
    s.write('blob.bin', Buffer.concat([all.subarray(0, 100), Buffer.from([0, 0, 0xff])]));
    s.write('empty-at-start', 'now filled');
    s.write('full.txt', '');
    s.write('new-empty', '');
    ok(run(store, ['rewind', '--to', p]), 'rewind');
    assertTree(ws, before, 'binary and empty files');
    assert.equal(fs.statSync(path.join(ws, 'empty-at-start')).size, 0, 'an empty file is restored as an empty file, not deleted');
  });

  it('symlinks: recorded and restored as links, never followed out of the workspace', () => {
    const { root, ws, store, s } = session();
    const outsideDir = path.join(root, 'outside');
    fs.mkdirSync(outsideDir);
    const secret = path.join(outsideDir, 'secret.txt');
    fs.writeFileSync(secret, 'SECRET outside the workspace\n');
    fs.writeFileSync(path.join(ws, 'config.txt'), 'config\n');
    fs.symlinkSync(outsideDir, path.join(ws, 'linked-dir')); // a folder link pointing out
    s.start();
    s.prompt('p');
    const p = lastPrompt(store);
    // The agent replaces a file with a link to a file outside, and writes through the folder link.
    s.tool('Write', { file_path: path.join(ws, 'config.txt'), content: '' }, () => {
      fs.rmSync(path.join(ws, 'config.txt'));
      fs.symlinkSync(secret, path.join(ws, 'config.txt'));
    });
    s.write('linked-dir/planted.txt', 'written through the link\n');
    assert.equal(fs.readFileSync(path.join(outsideDir, 'planted.txt'), 'utf8'), 'written through the link\n');
    const link = lines(store)
      .filter((l) => l.path === path.join(ws, 'config.txt'))
      .at(-1)!;
    assert.equal(link.link, true, 'the link itself is recorded');
    assert.equal(link.hash, sha(secret), "as its target's name, not the target's content");
    assert.ok(!allBlobs(store).includes(sha('SECRET outside the workspace\n')), 'the content outside was never copied in');

    const plan = json(store, ['plan', '--to', p]);
    assert.deepEqual(
      plan.notRestorable,
      // Recorded by its real path (a folder link leads where it leads): outside the workspace.
      [{ path: path.join(outsideDir, 'planted.txt'), reason: 'outside-workspace' }],
      'a path whose folder leads outside is never written',
    );
    const text = ok(run(store, ['rewind', '--to', p]), 'rewind').stdout;
    assert.match(text, /outside\/planted\.txt: outside every workspace folder/);
    assert.equal(fs.readFileSync(path.join(ws, 'config.txt'), 'utf8'), 'config\n');
    assert.equal(fs.lstatSync(path.join(ws, 'config.txt')).isSymbolicLink(), false, 'a plain file again');
    assert.equal(fs.readFileSync(secret, 'utf8'), 'SECRET outside the workspace\n', 'the target was never written');
    assert.ok(fs.existsSync(path.join(outsideDir, 'planted.txt')), 'nothing outside was deleted');
    // Undo: the link comes back as a link.
    const undo = lines(store)
      .filter((l) => l.t === 'checkpoint' && l.kind === 'rewind')
      .at(-1)!.id!;
    ok(run(store, ['rewind', '--to', undo]), 'undo');
    assert.equal(fs.readlinkSync(path.join(ws, 'config.txt')), secret);
    assert.equal(fs.readFileSync(secret, 'utf8'), 'SECRET outside the workspace\n');
  });

  it('FIFOs and devices are ignored: the hook never opens them, never hangs, records nothing for them', () => {
    const { ws, store, s } = session();
    const fifo = path.join(ws, 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const devices = [fifo];
    if (isRoot && spawnSync('mknod', [path.join(ws, 'null-dev'), 'c', '1', '3']).status === 0) devices.push(path.join(ws, 'null-dev'));
    s.start();
    s.prompt('p');
    // A hook that opened a FIFO would block for good: the CLI helper kills it after 60 s and its status is then
    // not 0, which the session helper refuses — a hang fails here without a wall-clock check.
    for (const d of devices) s.tool('Write', { file_path: d, content: 'x' }); // exits 0, prints nothing (checked by the helper)
    s.bash('mkfifo another-pipe', () => spawnSync('mkfifo', [path.join(ws, 'another-pipe')]));
    const named = lines(store).filter((l) => l.t === 'snap' && (devices.includes(l.path!) || l.path!.endsWith('another-pipe')));
    assert.deepEqual(named, [], 'nothing recorded for FIFOs and devices');
    assert.equal(ok(run(store, ['plan', '--to', lastPrompt(store), '--json']), 'plan').status, 0);
  });

  it('names: non-UTF-8 bytes are skipped by shell capture and said so; very long names and case-only renames restore exactly', () => {
    const { ws, store, s } = session();
    fs.writeFileSync(path.join(ws, 'Readme.md'), '# readme\n');
    s.start();
    s.prompt('p');
    const p = lastPrompt(store);
    const before = snapshotTree(ws);
    const long = 'ü'.repeat(120) + '.txt'; // 244 bytes: near the 255-byte limit, multi-byte
    const deep = path.join(...Array.from({ length: 30 }, (_, i) => `level-${i}-${'d'.repeat(20)}`), 'deep.txt');
    s.write(long, 'long name\n');
    s.write(deep, 'deep path\n');
    const latin1 = Buffer.concat([Buffer.from(ws + '/caf'), Buffer.from([0xe9]), Buffer.from('.txt')]); // "café" in Latin-1
    s.bash('mv Readme.md README.md && touch $(printf "caf\\351.txt")', () => {
      fs.renameSync(path.join(ws, 'Readme.md'), path.join(ws, 'README.md'));
      fs.writeFileSync(latin1, 'latin-1 name');
    });
    const rec = lines(store);
    assert.ok(!rec.some((l) => l.path?.includes('\ufffd')), 'no mangled name is recorded');
    assert.match(errorsLog(store), /not valid UTF-8/, 'the skipped name is reported');
    ok(run(store, ['rewind', '--to', p]), 'rewind');
    assert.equal(fs.readFileSync(latin1, 'utf8'), 'latin-1 name', 'the file with the non-UTF-8 name is never touched');
    fs.rmSync(latin1); // (Node cannot read it by the mangled name snapshotTree would see)
    const now = snapshotTree(ws);
    assert.deepEqual(Object.keys(now).sort(), Object.keys(before).sort(), 'long names and deep paths removed, the case-only rename undone');
    assert.equal(fs.readFileSync(path.join(ws, 'Readme.md'), 'utf8'), '# readme\n');
    const undo = lines(store)
      .filter((l) => l.t === 'checkpoint' && l.kind === 'rewind')
      .at(-1)!.id!;
    ok(run(store, ['rewind', '--to', undo]), 'undo');
    assert.equal(fs.readFileSync(path.join(ws, long), 'utf8'), 'long name\n');
    assert.equal(fs.readFileSync(path.join(ws, deep), 'utf8'), 'deep path\n');
    assert.ok(fs.existsSync(path.join(ws, 'README.md')) && !fs.existsSync(path.join(ws, 'Readme.md')), 'the case-only rename is back');
  });

  it('Windows-style, relative and malformed paths in payloads: exit 0, nothing printed, logged, nothing recorded', () => {
    const { ws, store, s } = session();
    s.start();
    const before = lines(store).length;
    for (const bad of ['C:\\Users\\me\\file.txt', '\\\\server\\share\\file.txt', 'src\\file.txt', 'relative/file.txt', '', 42, null]) {
      s.tool('Write', { file_path: bad, content: 'x' });
    }
    assert.equal(lines(store).length, before, 'nothing recorded for any of them');
    const logged = errorsLog(store)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).message as string);
    for (const bad of ['"C:\\\\Users\\\\me\\\\file.txt"', '"relative/file.txt"', '"src\\\\file.txt"', '42', 'null'])
      assert.ok(logged.includes(`hook claude: Write file_path is not an absolute path: ${bad}`), `logged: ${bad} (${logged.join(' | ')})`);
    assert.deepEqual(snapshotTree(ws), {}, 'nothing was created anywhere');
  });

  it('a tampered files.jsonl line pointing outside every workspace folder is refused at rewind', () => {
    const { root, ws, store, s } = session();
    s.start();
    s.prompt('p');
    const p = lastPrompt(store);
    s.write('mine.txt', 'agent\n');
    const outside = path.join(root, 'elsewhere', 'precious.txt');
    fs.mkdirSync(path.dirname(outside));
    fs.writeFileSync(outside, 'precious\n');
    // Lines claiming the agent created it after the prompt: a rewind would delete it.
    const blob = sha('precious\n');
    fs.mkdirSync(path.join(store, 'objects', blob.slice(0, 2)), { recursive: true });
    fs.writeFileSync(path.join(store, 'objects', blob.slice(0, 2), blob.slice(2)), 'precious\n');
    fs.appendFileSync(
      path.join(store, 'files.jsonl'),
      JSON.stringify({ t: 'snap', path: outside, hash: null, phase: 'before', time: Date.now() }) +
        '\n' +
        JSON.stringify({ t: 'snap', path: outside, hash: blob, phase: 'after', time: Date.now(), mtime: fs.statSync(outside).mtimeMs }) +
        '\n',
    );
    const plan = json(store, ['plan', '--to', p]);
    assert.deepEqual(plan.notRestorable, [{ path: outside, reason: 'outside-workspace' }]);
    const r = ok(run(store, ['rewind', '--to', p]), 'rewind');
    assert.match(r.stdout, /precious\.txt: outside every workspace folder of this store, never written/);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'precious\n', 'never deleted');
    assert.equal(fs.existsSync(path.join(ws, 'mine.txt')), false, 'the rest of the rewind happened');
  });

  it('an unknown future store format is refused with a clear message, never guessed or overwritten', () => {
    const { ws, store, s } = session();
    s.start();
    const meta = path.join(store, 'store.json');
    fs.writeFileSync(meta, JSON.stringify({ format: 99, created: 1, roots: [ws] }));
    const logBefore = fs.readFileSync(path.join(store, 'files.jsonl'));
    const r = run(store, ['checkpoints']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /newer Agent Rewind \(store format 99/);
    assert.equal(r.stderr.trim().split('\n').length, 1, 'one sentence');
    // A hook against it: exit 0, nothing printed, nothing written, the reason in errors.log.
    const h = run(store, ['hook', 'claude'], {
      input: JSON.stringify({ session_id: 'x', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'hi' }),
    });
    assert.deepEqual([h.status, h.stdout], [0, '']);
    assert.deepEqual(fs.readFileSync(path.join(store, 'files.jsonl')), logBefore, 'files.jsonl untouched');
    assert.deepEqual(JSON.parse(fs.readFileSync(meta, 'utf8')).format, 99, 'store.json untouched');
  });

  it('an older store format (fixture) is migrated on read by every command', () => {
    const dir = path.join(tempDir(), 'format-0');
    fs.cpSync(path.join(__dirname, '../fixtures/stores/format-0'), dir, { recursive: true });
    const metaBefore = fs.readFileSync(path.join(dir, 'store.json'));
    const list = json(dir, ['checkpoints']);
    assert.deepEqual(
      list.map((c: { id: string; kind: string }) => [c.id, c.kind]),
      [['oldprompt001', 'prompt']],
    );
    const plan = json(dir, ['plan', '--to', 'oldprompt001']);
    assert.deepEqual(
      plan.files.map((f: { path: string; action: string }) => [f.path, f.action]),
      [['/work/app/a.txt', 'delete']],
    );
    assert.deepEqual(fs.readFileSync(path.join(dir, 'store.json')), metaBefore, 'read, not rewritten');
  });

  describe('permissions (run as an unprivileged user)', { skip: process.platform === 'win32' ? 'POSIX permissions' : false }, () => {
    // As root every permission check passes, so the CLI runs as `nobody` here.
    const asUser = isRoot ? { uid: 65534, gid: 65534 } : {};
    // The checkout may live in a private folder (mode 700) `nobody` cannot enter: it runs a copy of
    // the built CLI from a world-readable folder, and from there.
    const userBin = tempDir('ar-perm-bin-');
    fs.chmodSync(userBin, 0o755);
    for (const f of fs.readdirSync(path.dirname(CLI)).filter((n) => n.endsWith('.js'))) {
      fs.copyFileSync(path.join(path.dirname(CLI), f), path.join(userBin, f));
      fs.chmodSync(path.join(userBin, f), 0o644);
    }
    const userCli = path.join(userBin, path.basename(CLI));
    function userRun(store: string, args: string[], input = '') {
      const r = spawnSync(process.execPath, [userCli, ...args], {
        env: { ...process.env, AGENT_REWIND_STORE: store, AGENT_REWIND_FAULT: '' },
        input,
        cwd: userBin,
        encoding: 'utf8',
        ...asUser,
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    }
    function userWorld() {
      const root = tempDir('ar-perm-');
      fs.chmodSync(root, 0o755);
      const ws = path.join(root, 'ws');
      const store = path.join(root, 'store');
      fs.mkdirSync(ws);
      fs.mkdirSync(store, { mode: 0o700 });
      if (isRoot) for (const d of [ws, store]) fs.chownSync(d, 65534, 65534);
      const hook = (p: Record<string, unknown>) => {
        const r = userRun(store, ['hook', 'claude'], JSON.stringify({ session_id: 'perm', cwd: ws, permission_mode: 'default', ...p }));
        assert.deepEqual([r.status, r.stdout], [0, ''], r.stderr);
      };
      const write = (rel: string, content: string, id: string) => {
        const file = path.join(ws, rel);
        hook({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: id, tool_input: { file_path: file, content } });
        fs.writeFileSync(file, content);
        if (isRoot) fs.chownSync(file, 65534, 65534);
        hook({
          hook_event_name: 'PostToolUse',
          tool_name: 'Write',
          tool_use_id: id,
          tool_input: { file_path: file, content },
          tool_response: {},
        });
      };
      const own = (p: string) => isRoot && fs.chownSync(p, 65534, 65534);
      return { ws, store, hook, write, own };
    }

    it('read-only files are restored with their content and mode', () => {
      const { ws, store, hook, own } = userWorld();
      const f = path.join(ws, 'readonly.txt');
      fs.writeFileSync(f, 'original\n');
      own(f);
      fs.chmodSync(f, 0o444);
      hook({ hook_event_name: 'SessionStart', source: 'startup' });
      hook({ hook_event_name: 'UserPromptSubmit', prompt: 'p' });
      const p = lastPrompt(store);
      // The agent makes it writable and changes it.
      const input = { file_path: f, content: 'agent\n' };
      hook({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: 't1', tool_input: input });
      fs.chmodSync(f, 0o644);
      fs.writeFileSync(f, 'agent\n');
      hook({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_use_id: 't1', tool_input: input, tool_response: {} });
      const r = userRun(store, ['rewind', '--to', p]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(fs.readFileSync(f, 'utf8'), 'original\n');
      assert.equal(fs.statSync(f).mode & 0o777, 0o444);
    });

    it('a read-only folder refuses the rewind before anything is written, and says how to fix it', () => {
      const { ws, store, hook, write, own } = userWorld();
      const ro = path.join(ws, 'locked');
      fs.mkdirSync(ro);
      own(ro);
      hook({ hook_event_name: 'SessionStart', source: 'startup' });
      hook({ hook_event_name: 'UserPromptSubmit', prompt: 'p' });
      const p = lastPrompt(store);
      write('a.txt', 'agent a\n', 't1');
      write('locked/b.txt', 'agent b\n', 't2');
      fs.chmodSync(ro, 0o555);
      const before = snapshotTree(ws);
      const linesBefore = lines(store).length;
      const r = userRun(store, ['rewind', '--to', p]);
      fs.chmodSync(ro, 0o755);
      assert.equal(r.status, 1);
      assert.match(
        r.stderr,
        /^Nothing was written: .*locked\/b\.txt \(permission denied: cannot write in .*locked\)\. Fix the permissions and rewind again\.\n$/,
      );
      assert.deepEqual(snapshotTree(ws), before, 'not even a.txt was rewound');
      assert.equal(lines(store).length, linesBefore, 'nothing recorded');
    });

    it('a file the hook cannot read is recorded as unreadable and listed as not restorable, never overwritten', () => {
      const { ws, store, hook, write } = userWorld();
      const secret = path.join(ws, 'root-only.txt');
      fs.writeFileSync(secret, 'not yours\n');
      fs.chmodSync(secret, 0o600); // owned by root (or by us, then made unreadable below)
      if (!isRoot) fs.chmodSync(secret, 0o000);
      hook({ hook_event_name: 'SessionStart', source: 'startup' });
      hook({ hook_event_name: 'UserPromptSubmit', prompt: 'p' });
      const p = lastPrompt(store);
      // An agent running with more rights than the hook changes it: neither hook can read it.
      const input = { file_path: secret, content: 'agent version\n' };
      hook({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: 'tx', tool_input: input });
      fs.writeFileSync(secret, 'agent version\n');
      hook({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_use_id: 'tx', tool_input: input, tool_response: {} });
      write('other.txt', 'agent\n', 't1');
      const snaps = lines(store).filter((l) => l.path === secret);
      assert.deepEqual(
        snaps.map((x) => [x.hash, x.skipped]),
        [
          [null, 'unreadable'],
          [null, 'unreadable'],
        ],
        'recorded as unreadable, not as missing',
      );
      const r = userRun(store, ['rewind', '--to', p, '--force']);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /Cannot restore \(1\) — left as they are:\n.*root-only\.txt: could not be read/);
      assert.match(r.stdout, /delete +.*other\.txt/, 'the rest is rewound');
      fs.chmodSync(secret, 0o600);
      assert.equal(fs.readFileSync(secret, 'utf8'), 'agent version\n', 'left as it is, not deleted or emptied');
    });
  });
});
