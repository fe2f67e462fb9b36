// Which folder a session's working folder makes writable (core/workspace/roots.ts), on real folders.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { allowedRoots, readWorkspaceFolders, sessionRoot, tooBroadRoot, writeWorkspaceFolders } from '../../src/core/workspace/roots';
import { tempDir } from '../helpers/tmp';

describe('workspace roots from a working folder', () => {
  it('refuses home, a parent of home, the temp folder and the file-system root', () => {
    assert.match(tooBroadRoot(os.homedir())!, /home folder/);
    const saved = process.env.HOME;
    process.env.HOME = path.join(tempDir(), 'users', 'me');
    try {
      assert.match(tooBroadRoot(path.dirname(os.homedir()))!, /holds your home folder/);
    } finally {
      process.env.HOME = saved;
    }
    assert.match(tooBroadRoot(os.tmpdir())!, /temporary folder/);
    assert.match(tooBroadRoot(path.parse(process.cwd()).root)!, /root of the file system/);
    assert.equal(tooBroadRoot(tempDir()), null);
    assert.equal(tooBroadRoot(path.join(os.homedir(), 'project')), null);
  });

  it('a folder in a git work tree → its top-level; a plain folder → itself; home → none, with the reason', () => {
    const repo = tempDir();
    fs.mkdirSync(path.join(repo, '.git'));
    fs.mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
    assert.deepEqual(sessionRoot(path.join(repo, 'src', 'deep')), { root: repo });
    assert.deepEqual(sessionRoot(repo), { root: repo });
    const plain = tempDir();
    assert.deepEqual(sessionRoot(plain), { root: plain });
    const home = sessionRoot(os.homedir());
    assert.equal(home.root, null);
    assert.match((home as { reason: string }).reason, /too broad to be a workspace/);
  });

  it('a repository of the whole home folder (dotfiles) does not make home a root: the project folder is', () => {
    const home = tempDir();
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      fs.mkdirSync(path.join(home, '.git'));
      fs.mkdirSync(path.join(home, 'proj'));
      assert.deepEqual(sessionRoot(path.join(home, 'proj')), { root: path.join(home, 'proj') });
      assert.equal(sessionRoot(home).root, null);
    } finally {
      process.env.HOME = saved;
    }
  });

  it("with VS Code's folders known, a folder outside them has no root — by name or through a symlink — unless a --root names it", () => {
    const parent = tempDir();
    const ws = path.join(parent, 'ws');
    const sibling = path.join(parent, 'sibling');
    fs.mkdirSync(path.join(ws, 'sub'), { recursive: true });
    fs.mkdirSync(sibling);
    fs.symlinkSync(ws, path.join(parent, 'link'));
    const store = path.join(parent, 'store');
    fs.mkdirSync(store);
    assert.equal(allowedRoots(store), null, 'no file: nothing known, any folder may be a root');
    assert.deepEqual(sessionRoot(sibling, allowedRoots(store)), { root: sibling });
    assert.equal(writeWorkspaceFolders(store, [path.join(parent, 'link')]), true);
    assert.equal(writeWorkspaceFolders(store, [path.join(parent, 'link')]), false, 'unchanged: not rewritten');
    assert.deepEqual(readWorkspaceFolders(store), [path.join(parent, 'link')]);
    const out = sessionRoot(sibling, allowedRoots(store));
    assert.equal(out.root, null);
    assert.match((out as { reason: string }).reason, /sibling is outside the folders open in VS Code/);
    assert.deepEqual(sessionRoot(path.join(ws, 'sub'), allowedRoots(store)), { root: path.join(ws, 'sub') }, 'inside, through the symlink');
    assert.deepEqual(sessionRoot(sibling, allowedRoots(store, [sibling])), { root: sibling }, 'named by --root');
    fs.writeFileSync(path.join(store, 'workspace-folders.json'), '{"folders": ['); // cut short: as if unknown
    assert.equal(allowedRoots(store), null);
  });
});
