// Whose store it is, through the real CLI: a store folder another user owns, or one others may write
// (the folder, a store file or folder in it, or where a symlinked store leads), is refused before anything
// is read from it — every command exits 1 with one sentence that says how to fix it; the hook exits 0,
// prints nothing, writes nothing there (not even errors.log) and says why in the user's own log.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { snapshotTree, tempDir } from '../helpers/tmp';

// Another user: `nobody`. The folder is given to it with chown, which needs root: the cli tier runs as root.
const OTHER = 65534;

const COMMANDS = [
  ['checkpoints'],
  ['plan', '--to', 'x'],
  ['rewind', '--to', 'x'],
  ['verify'],
  ['gc'],
  ['status'],
  ['checkpoint', '--label', 'mine'],
];

function hookInto(store: string, ws: string, state: string, payload: Record<string, unknown>) {
  return cli(['hook', 'claude'], {
    store,
    env: { XDG_STATE_HOME: state },
    input: JSON.stringify({ session_id: 's1', transcript_path: '', cwd: ws, ...payload }),
  });
}

/** Every command refuses the store with one sentence matching `said`, and the folder is as it was. */
function refusedEverywhere(store: string, said: RegExp): void {
  const before = JSON.stringify(snapshotTree(store));
  for (const args of COMMANDS) {
    const r = cli([...args, '--store', store]);
    assert.equal(r.status, 1, `${args[0]}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, said, args[0]);
  }
  const ws = tempDir();
  const state = tempDir();
  const h = hookInto(store, ws, state, { hook_event_name: 'SessionStart', source: 'startup' });
  assert.deepEqual([h.status, h.stdout, h.stderr], [0, '', '']);
  assert.equal(JSON.stringify(snapshotTree(store)), before, 'nothing written into the store, not even errors.log');
  const log = fs.readFileSync(path.join(state, 'agent-rewind', 'errors.log'), 'utf8');
  assert.match(log, /nothing recorded in /);
  assert.equal(fs.statSync(path.join(state, 'agent-rewind')).mode & 0o777, 0o700);
}

/** A store with one recorded prompt and a Write, as its owner made it. */
function recordedStore() {
  const root = tempDir();
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  const store = path.join(root, 'store');
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('write');
  s.write('a.txt', 'agent\n');
  return { root, ws, store };
}

describe('a store folder others could write', () => {
  it('an empty world-writable folder of another user is refused by every command and by the hook', () => {
    const store = path.join(tempDir(), 'shared');
    fs.mkdirSync(store);
    fs.chownSync(store, OTHER, OTHER);
    fs.chmodSync(store, 0o777);
    refusedEverywhere(store, /shared belongs to another user, .*use a store folder you own/);
  });

  it('a folder of another user is refused even when nobody else may write it', () => {
    const store = path.join(tempDir(), 'theirs');
    fs.mkdirSync(store, { mode: 0o755 });
    fs.chownSync(store, OTHER, OTHER);
    refusedEverywhere(store, /theirs belongs to another user/);
  });

  it('an own folder that group or others may write is refused, and says to chmod go-w', () => {
    for (const mode of [0o757, 0o775]) {
      const store = path.join(tempDir(), 'mine');
      fs.mkdirSync(store);
      fs.chmodSync(store, mode);
      refusedEverywhere(
        store,
        new RegExp(`mine can be written by other users, .*run \`chmod go-w ${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``),
      );
      fs.chmodSync(store, 0o755);
      const h = hookInto(store, tempDir(), tempDir(), { hook_event_name: 'SessionStart', source: 'startup' });
      assert.equal(h.status, 0);
      assert.equal(cliJson<unknown[]>(['checkpoints'], { store }).length, 1, 'fixed as the message says: the store records again');
    }
  });

  it('a recorded store whose log, store.json or objects/ others may write is refused, and its rewind writes nothing', () => {
    for (const name of ['files.jsonl', 'store.json', 'objects']) {
      const { ws, store } = recordedStore();
      const prompt = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!;
      fs.chmodSync(path.join(store, name), name === 'objects' ? 0o777 : 0o666);
      const r = cli(['rewind', '--to', prompt.id], { store });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`${name} can be written by other users`));
      assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'agent\n', 'nothing rewound');
    }
  });

  it('a store file another user owns is refused', () => {
    const { store } = recordedStore();
    fs.chownSync(path.join(store, 'files.jsonl'), OTHER, OTHER);
    const r = cli(['checkpoints'], { store });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /files\.jsonl belongs to another user/);
  });

  it("a store that is a symlink to another user's folder is refused; a symlink to one's own store is fine", () => {
    const { root, store } = recordedStore();
    const link = path.join(root, 'link');
    fs.symlinkSync(store, link);
    assert.equal(cli(['checkpoints'], { store: link }).status, 0);
    fs.chownSync(store, OTHER, OTHER);
    const r = cli(['checkpoints'], { store: link });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} belongs to another user`));
  });

  it('a symlink inside the store is refused', () => {
    const { root, store } = recordedStore();
    const elsewhere = path.join(root, 'elsewhere.jsonl');
    fs.renameSync(path.join(store, 'files.jsonl'), elsewhere);
    fs.symlinkSync(elsewhere, path.join(store, 'files.jsonl'));
    const r = cli(['checkpoints'], { store });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /files\.jsonl is a symbolic link inside the store/);
  });

  it('with the resident recorder on, the hook neither reads the lock file of such a store nor starts a resident there', () => {
    const store = path.join(tempDir(), 'shared');
    fs.mkdirSync(store);
    fs.chmodSync(store, 0o777);
    const before = JSON.stringify(snapshotTree(store));
    const state = tempDir();
    const r = cli(['hook', 'claude'], {
      store,
      env: { XDG_STATE_HOME: state, AGENT_REWIND_RESIDENT: '1' },
      input: JSON.stringify({ session_id: 's1', transcript_path: '', cwd: tempDir(), hook_event_name: 'SessionStart', source: 'startup' }),
    });
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
    assert.equal(JSON.stringify(snapshotTree(store)), before, 'no resident.starting, no request, no lock');
    assert.match(fs.readFileSync(path.join(state, 'agent-rewind', 'errors.log'), 'utf8'), /can be written by other users/);
  });

  it('a store the hook makes is owner-only (0700), and so are its folders', () => {
    const { store } = recordedStore();
    assert.equal(fs.statSync(store).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(store, 'objects')).mode & 0o777, 0o700);
  });
});
