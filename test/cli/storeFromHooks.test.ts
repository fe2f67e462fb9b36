// The CLI finds the store of a connected workspace (DESIGN §5): run with no --store and no
// AGENT_REWIND_STORE inside a workspace whose agent Connect wired up, in a subfolder too, it uses the
// store the hook command names, says so in one line on stderr and keeps --json stdout clean.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CLI, cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { tempDir } from '../helpers/tmp';
import { registry } from '../../src/agents/registry';

const claudeConnector = registry.connector('claude')!;
const codexConnector = registry.connector('codex')!;

/** A workspace Connect wired to a store whose path needs quoting, with one recorded prompt. */
function connected() {
  const root = tempDir();
  const ws = path.join(root, 'my project');
  const store = path.join(root, "store's place");
  fs.mkdirSync(path.join(ws, 'src', 'deep'), { recursive: true });
  claudeConnector.connect(ws, { node: process.execPath, cli: CLI, store });
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('Write a.txt');
  s.write('a.txt', 'a\n');
  return { ws, store };
}

describe('agent-rewind with no store given, inside a connected workspace', () => {
  it('from a subfolder: the store named in .claude/settings.local.json, said once on stderr; --json stdout is the JSON alone', () => {
    const { ws, store } = connected();
    const r = cli(['checkpoints', '--json'], { cwd: path.join(ws, 'src', 'deep') });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), cliJson(['checkpoints'], { store }));
    assert.equal(r.stderr, `agent-rewind: using the store named in ${path.join(ws, '.claude', 'settings.local.json')}: ${store}\n`);
    const top = cli(['status'], { cwd: ws });
    assert.equal(top.status, 0, top.stderr);
    assert.equal(top.stderr, `agent-rewind: using the store named in ${path.join('.claude', 'settings.local.json')}: ${store}\n`);
    assert.match(top.stdout, /, 1 session,/);
  });

  it('the nearest connected folder wins; --store and AGENT_REWIND_STORE still come first, and say nothing', () => {
    const { ws, store } = connected();
    const inner = path.join(ws, 'packages', 'tool');
    fs.mkdirSync(inner, { recursive: true });
    const other = path.join(tempDir(), 'other store');
    codexConnector.connect(inner, { node: process.execPath, cli: CLI, store: other });
    const r = cli(['checkpoints'], { cwd: inner });
    assert.equal(r.status, 1, 'nothing is recorded in that store yet');
    assert.match(
      r.stderr,
      new RegExp(`^agent-rewind: using the store named in ${path.join('.codex', 'hooks.json').replace(/\./g, '\\.')}: `),
    );
    assert.ok(r.stderr.includes(other), r.stderr);
    const given = cli(['checkpoints', '--json', '--store', store], { cwd: inner });
    assert.equal(given.status, 0, given.stderr);
    assert.equal(given.stderr, '');
    const env = cli(['checkpoints', '--json'], { cwd: inner, store });
    assert.equal(env.status, 0, env.stderr);
    assert.equal(env.stderr, '');
  });

  it('outside any connected workspace: a usage error (exit 2) that says the three ways', () => {
    const r = cli(['checkpoints'], { cwd: tempDir() });
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /No store given: pass --store <dir>, set AGENT_REWIND_STORE, or run this inside a workspace where an agent is connected\./,
    );
  });

  it('a store named inside the workspace itself (it may have come with a cloned repository) is not used by itself: exit 1, nothing read', () => {
    const ws = path.join(tempDir(), 'cloned');
    const planted = path.join(ws, '.store');
    fs.mkdirSync(ws, { recursive: true });
    claudeConnector.connect(ws, { node: process.execPath, cli: CLI, store: planted });
    const r = cli(['checkpoints', '--json'], { cwd: ws });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /lies inside this workspace .* pass --store /);
    assert.equal(fs.existsSync(planted), false, 'nothing made there');
  });
});
