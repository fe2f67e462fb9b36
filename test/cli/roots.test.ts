// Writable roots through real hooks: a session's folder becomes a root only when it can be a
// workspace. An agent started in the home folder records its file tools, copies no dot-folder,
// makes nothing in home writable, and says so once.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { tempDir } from '../helpers/tmp';

describe('a session started in the home folder', () => {
  it('adds no root, copies no dot-folder, records file tools, and says so once', () => {
    const home = path.join(tempDir(), 'home');
    const store = path.join(path.dirname(home), 'store');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh', 'id_secret'), 'PRIVATE-KEY-BYTES\n');
    fs.mkdirSync(path.join(home, 'proj'));
    const file = path.join(home, 'proj', 'a.txt');
    const agent = new ClaudeSession(store, home, 'sess-home', { env: { HOME: home } });
    agent.start();
    agent.prompt('write a file');
    agent.write(file, 'agent\n');
    agent.bash('touch ~/.ssh/x');

    const meta = JSON.parse(fs.readFileSync(path.join(store, 'store.json'), 'utf8'));
    assert.deepEqual(meta.roots, [], 'home is never a root');
    const blobs = fs.readdirSync(path.join(store, 'objects'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    for (const b of blobs)
      assert.doesNotMatch(fs.readFileSync(path.join(b.parentPath, b.name), 'utf8'), /PRIVATE-KEY-BYTES/, 'no dot-folder copied');
    const log = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8');
    assert.match(log, /"path":"[^"]*proj\/a\.txt"/, 'the file tool is recorded');
    assert.doesNotMatch(log, /id_secret/);
    const said = fs
      .readFileSync(path.join(store, 'errors.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('too broad to be a workspace'));
    assert.equal(said.length, 1, 'said once');
    const cps = cliJson<{ id: string; kind: string; label: string }[]>(['checkpoints'], { store, env: { HOME: home } });
    assert.match(cps.find((c) => c.kind === 'session-start')!.label, /shell capture off: .* your home folder/);
    // Nothing in home is writable: a rewind lists the file as outside the workspace, never writes it.
    const plan = cliJson(['plan', '--to', cps.find((c) => c.kind === 'prompt')!.id], { store, env: { HOME: home } });
    assert.deepEqual(plan.files, []);
    assert.deepEqual(plan.notRestorable, [{ path: file, reason: 'outside-workspace' }]);
  });

  it('a plain folder (not a repository) stays a root, as before: plan and rewind work', () => {
    const ws = tempDir();
    const store = path.join(tempDir(), 'store');
    const file = path.join(ws, 'b.txt');
    const agent = new ClaudeSession(store, ws, 'sess-home', { env: { HOME: tempDir() } });
    agent.start();
    agent.prompt('p');
    agent.write(file, 'x\n');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(store, 'store.json'), 'utf8')).roots, [ws]);
    const p = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!;
    assert.equal(cliJson(['rewind', '--to', p.id], { store }).status, 'done');
    assert.equal(fs.existsSync(file), false);
  });

  it('an explicit --root on the hook command line is a root, even for a session in the home folder', () => {
    const home = path.join(tempDir(), 'home');
    const proj = path.join(home, 'proj');
    fs.mkdirSync(proj, { recursive: true });
    const store = path.join(path.dirname(home), 'store');
    new ClaudeSession(store, home, 'sess-home', { env: { HOME: home }, args: ['--root', proj] }).start();
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(store, 'store.json'), 'utf8')).roots, [proj]);
  });
});

describe('a session outside the folders VS Code has open (workspace-folders.json in the store)', () => {
  /** One session through real hooks: start, prompt, a Write of `written`, a Bash call that makes `shellMade`. */
  function session(store: string, cwd: string, id: string, written: string, shellMade: string, args: string[] = []): void {
    const agent = new ClaudeSession(store, cwd, id, { env: { HOME: tempDir() }, args });
    agent.start();
    agent.prompt(`work in ${path.basename(cwd)}`);
    agent.write(written, 'agent\n');
    agent.bash(`touch ${shellMade}`, () => fs.writeFileSync(shellMade, ''));
  }
  const snapsOf = (store: string, p: string) =>
    fs
      .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => r.t === 'snap' && r.path === p);
  /** A folder VS Code has open (named in the store's workspace-folders.json, as the extension writes it) and one beside it. */
  function openFolderAndSibling() {
    const parent = tempDir();
    const ws = path.join(parent, 'ws');
    const sibling = path.join(parent, 'sibling');
    const store = path.join(parent, 'store');
    for (const d of [ws, sibling, store]) fs.mkdirSync(d);
    fs.writeFileSync(path.join(store, 'workspace-folders.json'), JSON.stringify({ folders: [ws] }));
    return { parent, ws, sibling, store };
  }
  const saidOutside = (store: string) =>
    fs
      .readFileSync(path.join(store, 'errors.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('outside the folders open in VS Code'));

  it('records only the file tools of a session in a sibling folder, takes no baseline, and says so once; inside a folder all is as before', () => {
    const { ws, sibling, store } = openFolderAndSibling();
    fs.writeFileSync(path.join(sibling, 'old.txt'), 'already here\n');

    session(store, sibling, 'sess-sibling', path.join(sibling, 'a.txt'), path.join(sibling, 'made-by-shell.txt'));
    assert.equal(fs.existsSync(path.join(store, 'scan', 'sess-sibling.scan')), false, 'no baseline');
    assert.equal(snapsOf(store, path.join(sibling, 'a.txt')).length, 2, 'the Write is recorded, before and after');
    assert.deepEqual(snapsOf(store, path.join(sibling, 'made-by-shell.txt')), [], 'no shell capture there');
    assert.deepEqual(snapsOf(store, path.join(sibling, 'old.txt')), [], 'nothing of the folder copied');
    assert.equal(saidOutside(store).length, 1, 'said once');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(store, 'store.json'), 'utf8')).roots, [], 'the sibling is no root');
    const cps = cliJson<{ id: string; kind: string; label: string; session: string }[]>(['checkpoints'], { store });
    const start = cps.find((c) => c.kind === 'session-start' && c.session === 'sess-sibling')!;
    assert.match(start.label, /shell capture off: .*sibling is outside the folders open in VS Code/);
    // Its file cannot be written by a rewind: it lies outside the workspace.
    const prompt = cps.find((c) => c.kind === 'prompt' && c.session === 'sess-sibling')!;
    const plan = cliJson(['plan', '--to', prompt.id], { store });
    assert.deepEqual(plan.files, []);
    assert.deepEqual(plan.notRestorable, [{ path: path.join(sibling, 'a.txt'), reason: 'outside-workspace' }]);

    // A session inside the open folder: a root, a baseline, shell capture, a rewind that writes.
    session(store, ws, 'sess-inside', path.join(ws, 'b.txt'), path.join(ws, 'made-by-shell.txt'));
    assert.equal(fs.existsSync(path.join(store, 'scan', 'sess-inside.scan')), true, 'a baseline');
    assert.equal(snapsOf(store, path.join(ws, 'made-by-shell.txt')).length, 2, "the shell command's file is captured");
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(store, 'store.json'), 'utf8')).roots, [ws]);
    assert.equal(saidOutside(store).length, 1, 'nothing more said');
    const inside = cliJson<{ id: string; kind: string; label: string; session: string }[]>(['checkpoints'], { store }).find(
      (c) => c.kind === 'prompt' && c.session === 'sess-inside',
    )!;
    assert.equal(cliJson(['rewind', '--to', inside.id], { store }).status, 'done');
    assert.equal(fs.existsSync(path.join(ws, 'b.txt')), false);
    assert.equal(fs.existsSync(path.join(ws, 'made-by-shell.txt')), false);
  });

  it('a sibling folder named by --root is a root, and without the file any folder is one (the CLI alone)', () => {
    const { parent, sibling, store } = openFolderAndSibling();
    session(store, sibling, 'sess-root', path.join(sibling, 'a.txt'), path.join(sibling, 'shell.txt'), ['--root', sibling]);
    assert.equal(snapsOf(store, path.join(sibling, 'shell.txt')).length, 2, 'shell capture on');
    assert.equal(fs.existsSync(path.join(store, 'errors.log')), false, 'nothing to say');

    const bare = path.join(parent, 'store-cli-only');
    session(bare, sibling, 'sess-cli', path.join(sibling, 'c.txt'), path.join(sibling, 'shell2.txt'));
    assert.equal(snapsOf(bare, path.join(sibling, 'shell2.txt')).length, 2, 'shell capture on');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(bare, 'store.json'), 'utf8')).roots, [sibling]);
  });
});

describe('roots written into store.json that no recording vouches for', () => {
  it('make nothing writable: a root `/` or a folder no session worked in leaves an outside write outside the workspace', () => {
    const parent = tempDir();
    const ws = path.join(parent, 'ws');
    const outside = path.join(parent, 'outside');
    fs.mkdirSync(ws);
    fs.mkdirSync(outside);
    const store = path.join(parent, 'store');
    const file = path.join(outside, 'o.txt');
    const agent = new ClaudeSession(store, ws, 'sess-home', { env: { HOME: tempDir() } });
    agent.start();
    agent.prompt('p');
    agent.write(file, 'agent\n');
    const metaFile = path.join(store, 'store.json');
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
    assert.deepEqual(meta.roots, [ws]);
    const prompt = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!;
    for (const planted of ['/', outside, parent]) {
      fs.writeFileSync(metaFile, JSON.stringify({ ...meta, roots: [ws, planted] }));
      const plan = cliJson(['plan', '--to', prompt.id], { store });
      assert.deepEqual(plan.files, [], planted);
      assert.deepEqual(plan.notRestorable, [{ path: file, reason: 'outside-workspace' }], planted);
      const r = cli(['rewind', '--to', prompt.id, '--json'], { store });
      assert.equal(fs.readFileSync(file, 'utf8'), 'agent\n', `${planted}: not rewound (${r.stdout})`);
    }
    // What a session recorded stays a root: the workspace's own files rewind as before.
    const mine = path.join(ws, 'm.txt');
    agent.write(mine, 'm\n');
    assert.deepEqual(
      cliJson(['plan', '--to', prompt.id], { store }).files.map((f: { path: string }) => f.path),
      [mine],
    );
  });
});
