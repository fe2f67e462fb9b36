// Reading git's index file directly (shell capture's baseline): checked against what git itself
// says about real repositories, in every index version we read, and refused (null: ask git) for
// anything we do not fully understand.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parseGitIndex, readGitIndex } from '../../src/core/git/indexFile';
import { tempDir } from '../helpers/tmp';

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
}

/** A repository with the kinds of entries an index holds: nested, executable, symlink, non-ASCII, long paths. */
function repo(intentToAdd = true): string {
  const ws = tempDir('ar-gitindex-');
  git(ws, 'init', '-q');
  const files: Record<string, string> = {
    'README.md': '# r\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/deep/er/b.ts': 'b\n',
    'src/deep/er/c.ts': 'c\n',
    'naïve café.txt': 'unicode\n',
    [`long/${'x'.repeat(180)}/${'y'.repeat(60)}.txt`]: 'long\n',
    'run.sh': '#!/bin/sh\necho\n',
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), content);
  }
  fs.chmodSync(path.join(ws, 'run.sh'), 0o755);
  fs.symlinkSync('src/a.ts', path.join(ws, 'link-to-a'));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'init');
  fs.writeFileSync(path.join(ws, 'added-later.txt'), 'intent\n');
  if (intentToAdd) git(ws, 'add', '-N', 'added-later.txt'); // an extended flag: needs version 3 or later
  return ws;
}

/** What git says: mode, id, stage and path of every entry. */
function gitStage(ws: string): string[] {
  return git(ws, '-c', 'core.quotePath=false', 'ls-files', '--stage')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace('\t', ' '));
}

function ours(ws: string): string[] {
  const idx = readGitIndex(path.join(ws, '.git'));
  assert.ok(idx, 'the index is read');
  return idx.entries.map((e) => `${e.mode.toString(8)} ${e.id} ${e.stage} ${e.path}`);
}

describe('git index reader', () => {
  for (const version of [2, 3, 4]) {
    it(`version ${version}: the same entries as git ls-files --stage`, () => {
      const ws = repo(version > 2);
      git(ws, 'update-index', '--index-version', String(version));
      if (version === 3) git(ws, 'update-index', '--skip-worktree', 'README.md'); // extended flags
      const idx = readGitIndex(path.join(ws, '.git'))!;
      assert.equal(idx.version, version);
      assert.deepEqual(ours(ws), gitStage(ws));
      // Extended flags exist from version 3: git add -N is seen there (its id is not the content), and skip-worktree.
      assert.equal(!!idx.entries.find((e) => e.path === 'added-later.txt')?.intentToAdd, version > 2, 'git add -N');
      assert.equal(!!idx.entries.find((e) => e.path === 'README.md')!.skipWorktree, version === 3, 'skip-worktree');
      const a = idx.entries.find((e) => e.path === 'src/a.ts')!;
      const st = fs.statSync(path.join(ws, 'src/a.ts'));
      assert.deepEqual([a.size, a.ino, a.mtimeSec], [st.size, st.ino, Math.floor(st.mtimeMs / 1000)], 'the stat git recorded');
    });
  }

  it('merge conflicts: every stage is listed', () => {
    const ws = repo();
    git(ws, 'checkout', '-q', '-b', 'other');
    fs.writeFileSync(path.join(ws, 'src/a.ts'), 'other\n');
    git(ws, 'commit', '-q', '-am', 'other');
    git(ws, 'checkout', '-q', '-');
    fs.writeFileSync(path.join(ws, 'src/a.ts'), 'mine\n');
    git(ws, 'commit', '-q', '-am', 'mine');
    try {
      git(ws, 'merge', '-q', 'other');
    } catch {
      /* the conflict is the point */
    }
    const stages = ours(ws).filter((l) => l.endsWith(' src/a.ts'));
    assert.equal(stages.length, 3);
    assert.deepEqual(ours(ws), gitStage(ws));
  });

  it('gives up (null: ask git) on a damaged checksum, a split index, or garbage; an empty repository has no entries', () => {
    const ws = repo();
    const file = path.join(ws, '.git', 'index');
    const good = fs.readFileSync(file);
    const bad = Buffer.from(good);
    bad[20] = bad[20]! ^ 0xff;
    fs.writeFileSync(file, bad);
    assert.equal(readGitIndex(path.join(ws, '.git')), null, 'a checksum mismatch');
    assert.throws(() => parseGitIndex(bad));
    fs.writeFileSync(file, 'not an index at all');
    assert.equal(readGitIndex(path.join(ws, '.git')), null, 'garbage');
    fs.writeFileSync(file, good);
    git(ws, 'update-index', '--split-index');
    assert.equal(readGitIndex(path.join(ws, '.git')), null, 'a split index (required "link" extension)');
    const empty = tempDir('ar-gitindex-empty-');
    git(empty, 'init', '-q');
    assert.deepEqual(readGitIndex(path.join(empty, '.git'))?.entries, []);
  });
});
