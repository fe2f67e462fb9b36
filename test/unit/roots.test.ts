// Which folder a session's working folder makes writable (core/roots.ts), on real folders.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { sessionRoot, tooBroadRoot } from '../../src/core/roots';
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
});
