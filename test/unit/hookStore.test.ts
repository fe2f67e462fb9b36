// The store a connected workspace records into, read back from the hook configuration every
// connector writes (agents/hookStore.ts): each agent's own file and format, a store path that needs
// quoting, the nearest folder first, and nothing read that is not a plain file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CONNECTORS } from '../../src/agents/connectors';
import { findHookStore } from '../../src/agents/hookStore';
import { targetOfHookCommand } from '../../src/agents/common/hookTarget';
import { hookCommand } from '../../src/agents/common/hookCommand';
import { tempDir } from '../helpers/tmp';

const STORE = '/tmp/odd store/it\'s $HOME `x` "q"';
const target = { node: '/usr/bin/node', cli: '/opt/agent rewind/cli.js', store: STORE };

test('every connector: the store its hook names is found in the workspace and from a folder below it', () => {
  for (const c of CONNECTORS) {
    const ws = tempDir();
    c.connect(ws, target);
    fs.mkdirSync(path.join(ws, 'src', 'deep'), { recursive: true });
    const found = findHookStore(path.join(ws, 'src', 'deep'));
    assert.equal(found?.store, STORE, c.agent);
    assert.ok(found.file.startsWith(ws + path.sep), `${c.agent}: ${found.file}`);
  }
});

test("Claude Code's shared settings.json is read too; the nearest folder wins over one above", () => {
  const outer = tempDir();
  fs.mkdirSync(path.join(outer, '.claude'));
  fs.writeFileSync(
    path.join(outer, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: hookCommand({ ...target, store: '/outer', agent: 'claude' }) }] }] },
    }),
  );
  const inner = path.join(outer, 'packages', 'app');
  fs.mkdirSync(inner, { recursive: true });
  assert.deepEqual(findHookStore(inner), { store: '/outer', file: path.join(outer, '.claude', 'settings.json'), folder: outer });
  CONNECTORS.find((c) => c.agent === 'codex')!.connect(inner, { ...target, store: '/inner' });
  assert.equal(findHookStore(path.join(inner))?.store, '/inner');
  assert.equal(findHookStore(outer)?.store, '/outer');
});

test('a hook command that is not ours, has no --store, or a config that is not a plain file: no store', () => {
  assert.equal(targetOfHookCommand("node cli.js hook claude --store '/x'"), null, 'no marker: not written by Connect');
  assert.equal(targetOfHookCommand('node cli.js hook claude --connected-by=agent-rewind'), null);
  assert.deepEqual(targetOfHookCommand("E=1 node 'c li.js' hook claude --store '/a b' --connected-by=agent-rewind"), {
    node: 'node',
    cli: 'c li.js',
    store: '/a b',
    env: { E: '1' },
  });
  const ws = tempDir();
  fs.mkdirSync(path.join(ws, '.claude', 'settings.local.json'), { recursive: true }); // a folder by that name
  fs.mkdirSync(path.join(ws, '.codex'));
  fs.writeFileSync(path.join(ws, '.codex', 'hooks.json'), '{ not json');
  fs.mkdirSync(path.join(ws, '.gemini'));
  execFileSync('mkfifo', [path.join(ws, '.gemini', 'settings.json')]); // read, it would block for good
  assert.equal(findHookStore(ws), null);
});
