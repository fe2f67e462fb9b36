// "Connect Agents…" says what it will do: a hook another program wrote (the demo, the CLI, a window
// whose `node` is elsewhere) that runs an existing Node and CLI into this same store is connected, not
// "an older hook"; VS Code agent mode's row names Claude Code's file while that file serves it; and
// Disconnect selects nothing by itself.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { HookTarget } from '../../src/agents/common/connector';
import { agentStates, CONNECTORS, connectorState } from '../../src/agents/connectors';
import { agentRow } from '../../src/extension/connect/agentRows';
import { ENGLISH } from '../../src/shared/l10n';
import { tempDir } from '../helpers/tmp';
import { registry } from '../../src/agents/registry';

const claudeConnector = registry.connector('claude')!;

/** Two installs of the CLI and a Node that exist, as on a machine with a demo checkout and the extension's copy. */
function installs() {
  const root = tempDir();
  const file = (rel: string) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, '');
    return p;
  };
  const store = path.join(root, 'store');
  const demo: HookTarget = { node: process.execPath, cli: file('repo/dist/cli.js'), store };
  const extension: HookTarget = { node: file('bin/node'), cli: file('globalStorage/cli/cli.js'), store };
  return { root, demo, extension, gone: { ...extension, cli: path.join(root, 'old', 'cli.js') } };
}

test('a hook written with another existing Node and CLI, into the same store, is connected — Claude Code and the VS Code agent it serves', () => {
  const { root, demo, extension } = installs();
  for (const c of CONNECTORS) {
    const ws = path.join(root, `ws-${c.agent}`);
    fs.mkdirSync(ws);
    c.connect(ws, demo);
    assert.equal(c.state(ws, extension), 'outdated', `${c.agent}: the paths differ`);
    assert.equal(connectorState(c, ws, extension), 'connected', c.agent);
  }
  const ws = path.join(root, 'ws-claude');
  const states = agentStates(ws, extension);
  assert.equal(states.get('claude'), 'connected');
  assert.equal(states.get('vscode'), 'connected');
});

test('still an older hook: another store, a CLI that is gone, or hook entries that differ from what Connect writes now', () => {
  const { root, demo, extension } = installs();
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  claudeConnector.connect(ws, demo);
  assert.equal(connectorState(claudeConnector, ws, { ...extension, store: path.join(root, 'other') }), 'outdated');
  fs.rmSync(demo.cli);
  assert.equal(connectorState(claudeConnector, ws, extension), 'outdated', 'the hook runs a CLI that is not there');
  fs.writeFileSync(demo.cli, '');
  const file = claudeConnector.files(ws)[0]!;
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  delete settings.hooks.Stop;
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  assert.equal(connectorState(claudeConnector, ws, extension), 'outdated', 'an event is missing');
  assert.equal(connectorState(claudeConnector, ws, demo), 'outdated');
});

test("rows: VS Code agent mode served by Claude Code's file names that file; Disconnect selects nothing; Connect selects connected and detected agents", () => {
  const vscodeRow = { state: 'connected' as const, evidence: null, files: ['.github/hooks/agent-rewind.json'] };
  const served = { ...vscodeRow, servedBy: { file: '.claude/settings.local.json', name: 'Claude Code' } };
  assert.equal(agentRow(vscodeRow, false, ENGLISH).detail, 'writes .github/hooks/agent-rewind.json');
  const connect = agentRow(served, false, ENGLISH);
  assert.equal(connect.detail, 'served by .claude/settings.local.json (Claude Code’s file, which it reads too): writes nothing else');
  assert.doesNotMatch(connect.detail, /\.github/);
  assert.equal(connect.description, 'connected');
  assert.equal(connect.picked, true);
  assert.match(
    agentRow(served, true, ENGLISH).detail,
    /^recorded through \.claude\/settings\.local\.json \(Claude Code’s file\): disconnecting Claude Code stops it$/,
  );
  for (const state of ['connected', 'outdated', 'disconnected'] as const)
    for (const evidence of [null, 'found'])
      assert.equal(agentRow({ state, evidence, files: ['x'] }, true, ENGLISH).picked, false, `${state} ${evidence}`);
  assert.equal(agentRow({ state: 'disconnected', evidence: '.codex', files: ['x'] }, false, ENGLISH).picked, true);
  assert.equal(agentRow({ state: 'disconnected', evidence: null, files: ['x'] }, false, ENGLISH).picked, false);
});
