// The one git runner (core/git/run.ts): only subcommands that read, always GIT_OPTIONAL_LOCKS=0 —
// except git status on an index file of our own — so nothing we run can write the user's .git.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertReadOnly, envFor, git, subcommandOf } from '../../src/core/git/run';

test('the subcommand is found after git global options', () => {
  assert.equal(subcommandOf(['-c', 'a=b', '-C', 'dir', '--git-dir=x', 'status', '-z']), 'status');
  assert.equal(subcommandOf(['--no-pager', 'rev-parse', 'HEAD']), 'rev-parse');
  assert.equal(subcommandOf([]), undefined);
});

test('commands that write are refused before anything runs', () => {
  for (const args of [
    ['commit', '-m', 'x'],
    ['reset', '--hard'],
    ['checkout', '.'],
    ['update-index', '--refresh'],
    ['stash'],
    ['gc'],
    ['config', 'user.name', 'x'],
    ['-c', 'x=y', 'add', '.'],
    [],
  ]) {
    assert.throws(() => assertReadOnly(args), { code: 'git-write-refused' }, args.join(' '));
    assert.throws(() => git('.', args), { code: 'git-write-refused' }, args.join(' '));
  }
  for (const args of [
    ['status', '-z'],
    ['rev-parse', 'HEAD'],
    ['config', '--get', 'core.eol'],
    ['cat-file', '--batch'],
    ['ls-files', '-s'],
    ['diff-files'],
  ])
    assertReadOnly(args);
});

test('every call runs with GIT_OPTIONAL_LOCKS=0 and without inherited repository variables', () => {
  const env = envFor(['status']);
  assert.equal(env.GIT_OPTIONAL_LOCKS, '0');
  assert.equal(env.GIT_INDEX_FILE, undefined);
  assert.equal(env.GIT_DIR, undefined);
  assert.equal(env.GIT_WORK_TREE, undefined);
});

test('only git status may run on a private index (our own copy), and only it may take optional locks', () => {
  const env = envFor(['status', '-z'], '/store/scan/s.index');
  assert.equal(env.GIT_INDEX_FILE, '/store/scan/s.index');
  assert.equal(env.GIT_OPTIONAL_LOCKS, undefined);
  assert.throws(() => envFor(['ls-files'], '/store/scan/s.index'), { code: 'git-write-refused' });
});
