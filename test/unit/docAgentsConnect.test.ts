// Connect / Disconnect for the agents added from their docs (issue 29), on real files in temp folders:
// a fresh workspace gets exactly the documented files; the user's own settings and hooks are kept
// byte for byte; connecting twice changes nothing; an older CLI path makes the state "outdated" and is
// replaced, never duplicated; Disconnect removes exactly what Connect added (the workspace tree is back
// to what it was); a file of ours' name that the user wrote is left alone.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CONNECT_MARKER } from '../../src/agents/common/hookCommand';
import type { AgentConnector, HookTarget } from '../../src/agents/common/connector';
import { CONNECTORS } from '../../src/agents/connectors';
import { hostEditorAgent, hostFirst } from '../../src/agents/hostEditor';
import { KIRO_CLI_TRIGGERS } from '../../src/agents/kiro/connect';
import { KIRO_IDE_EVENTS } from '../../src/agents/kiro/hookPayload';
import { OPENCODE_PLUGIN_REL } from '../../src/agents/opencode/plugin';
import { QWEN_HOOK_EVENTS } from '../../src/agents/qwen/connect';
import { WINDSURF_HOOK_EVENTS } from '../../src/agents/windsurf/hookPayload';
import { tempDir } from '../helpers/tmp';
import { registry } from '../../src/agents/registry';

const auggieConnector = registry.connector('auggie')!;
const droidConnector = registry.connector('droid')!;
const kiroConnector = registry.connector('kiro')!;
const opencodeConnector = registry.connector('opencode')!;
const qwenConnector = registry.connector('qwen')!;
const windsurfConnector = registry.connector('windsurf')!;

const TARGET: HookTarget = { node: '/usr/bin/node', cli: '/opt/agent-rewind/0.1.0/dist/cli.js', store: '/home/ana/.store' };
const TARGET2: HookTarget = { ...TARGET, cli: '/opt/agent-rewind/0.2.0/dist/cli.js' };

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        out[path.relative(dir, p) + '/'] = '';
        walk(p);
      } else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const json = (ws: string, rel: string) => JSON.parse(fs.readFileSync(path.join(ws, rel), 'utf8'));

/** The round trip every connector must make, starting from `userFiles`. */
function roundTrip(c: AgentConnector, userFiles: Record<string, string>): string {
  const ws = tempDir(`ar-${c.agent}-`);
  for (const [rel, text] of Object.entries(userFiles)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  const before = tree(ws);
  assert.equal(c.state(ws, TARGET), 'disconnected');
  const r = c.connect(ws, TARGET);
  assert.ok(r.changed && r.files.length > 0, JSON.stringify(r));
  assert.equal(c.state(ws, TARGET), 'connected');
  assert.equal(c.connect(ws, TARGET).changed, false, 'connecting twice changes nothing');
  assert.equal(c.state(ws, TARGET2), 'outdated', 'another CLI path: an older hook of ours');
  assert.ok(c.connect(ws, TARGET2).changed);
  const text = r.files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  assert.ok(!text.includes(TARGET.cli), 'the older command is replaced, not kept beside the new one');
  assert.equal(c.disconnect(ws).changed, true);
  assert.deepEqual(tree(ws), before, 'Disconnect gives back exactly what was there');
  assert.equal(c.state(ws, TARGET), 'disconnected');
  assert.equal(c.disconnect(ws).changed, false);
  c.connect(ws, TARGET);
  return ws;
}

test('qwen: .qwen/settings.json, Claude layout, ms timeouts, a name; the user settings and hooks are kept', () => {
  const ws = roundTrip(qwenConnector, {});
  const s = json(ws, '.qwen/settings.json');
  assert.deepEqual(Object.keys(s.hooks), QWEN_HOOK_EVENTS);
  const pre = s.hooks.PreToolUse[0];
  assert.equal(pre.matcher, '*');
  assert.equal(pre.hooks[0].timeout, 30000);
  assert.equal(pre.hooks[0].name, 'agent-rewind');
  assert.match(pre.hooks[0].command, /hook qwen --store .*--connected-by=agent-rewind$/);
  const user =
    '{\n  // mine\n  "model": { "name": "qwen3-coder-plus" },\n  "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }] }\n}\n';
  roundTrip(qwenConnector, { '.qwen/settings.json': user });
});

test('droid: .factory/settings.json in seconds; a hooks.json beside it is named in the notes', () => {
  const ws = roundTrip(droidConnector, { '.factory/settings.json': '{ "model": "custom:local" }\n' });
  const s = json(ws, '.factory/settings.json');
  assert.equal(s.model, 'custom:local');
  assert.equal(s.hooks.PreToolUse[0].hooks[0].timeout, 30);
  assert.match(s.hooks.UserPromptSubmit[0].hooks[0].command, /hook droid /);
  fs.writeFileSync(path.join(ws, '.factory', 'hooks.json'), '{}\n');
  assert.match(droidConnector.connect(ws, TARGET).notes.join(' '), /\.factory\/hooks\.json/);
});

test('auggie: .augment/settings.json, PromptSubmit, a `.*` matcher on tool events only', () => {
  const ws = roundTrip(auggieConnector, {});
  const s = json(ws, '.augment/settings.json');
  assert.ok(s.hooks.PromptSubmit && !s.hooks.UserPromptSubmit);
  assert.equal(s.hooks.PostToolUse[0].matcher, '.*');
  assert.equal(s.hooks.SessionStart[0].matcher, undefined);
  assert.match(s.hooks.Stop[0].hooks[0].command, /hook auggie /);
});

test('windsurf: .windsurf/hooks.json, one flat handler per event; the user hooks stay', () => {
  const ws = roundTrip(windsurfConnector, {});
  const s = json(ws, '.windsurf/hooks.json');
  assert.deepEqual(Object.keys(s.hooks), WINDSURF_HOOK_EVENTS);
  assert.deepEqual(Object.keys(s.hooks.pre_write_code[0]), ['command', 'show_output']);
  assert.match(s.hooks.pre_write_code[0].command, /hook windsurf --store/);
  roundTrip(windsurfConnector, {
    '.windsurf/hooks.json':
      '{\n  "hooks": {\n    "pre_run_command": [{ "command": "python3 /opt/guard.py", "show_output": true }]\n  }\n}\n',
  });
});

test('kiro: one .kiro.hook per IDE trigger (stdin from /dev/null) and the CLI v3 hooks file; a user hook of that name stays', () => {
  const ws = roundTrip(kiroConnector, { '.kiro/hooks/lint.kiro.hook': '{"name":"lint"}\n' });
  for (const e of KIRO_IDE_EVENTS) {
    const h = json(ws, `.kiro/hooks/agent-rewind-${e}.kiro.hook`);
    assert.equal(h.when.type, e);
    assert.equal(h.then.type, 'runCommand');
    assert.match(h.then.command, new RegExp(`hook kiro ${e} --store .*${CONNECT_MARKER} < /dev/null$`));
  }
  assert.deepEqual(json(ws, '.kiro/hooks/agent-rewind-preToolUse.kiro.hook').when.toolTypes, ['*']);
  const cli = json(ws, '.kiro/hooks/agent-rewind.json');
  assert.equal(cli.version, 'v1');
  assert.deepEqual(
    cli.hooks.map((h: { trigger: string }) => h.trigger),
    KIRO_CLI_TRIGGERS,
  );
  const mine = tempDir('ar-kiro-mine-');
  fs.mkdirSync(path.join(mine, '.kiro', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(mine, '.kiro/hooks/agent-rewind.json'), '{"version":"v1","hooks":[]}\n');
  const r = kiroConnector.connect(mine, TARGET);
  assert.match(r.notes.join(' '), /agent-rewind\.json is your own file/);
  assert.equal(fs.readFileSync(path.join(mine, '.kiro/hooks/agent-rewind.json'), 'utf8'), '{"version":"v1","hooks":[]}\n');
  kiroConnector.disconnect(mine);
  assert.ok(fs.existsSync(path.join(mine, '.kiro/hooks/agent-rewind.json')), 'Disconnect leaves the user file');
});

test('opencode: the plugin file in .opencode/plugins/, carrying the CLI, the store and the marker', () => {
  const ws = roundTrip(opencodeConnector, { '.opencode/plugins/mine.ts': 'export const Mine = async () => ({})\n' });
  const text = fs.readFileSync(path.join(ws, OPENCODE_PLUGIN_REL), 'utf8');
  assert.ok(text.includes(JSON.stringify(TARGET.cli)) && text.includes(JSON.stringify(TARGET.store)) && text.includes(CONNECT_MARKER));
  assert.match(text, /export default AgentRewind;/);
  assert.ok(fs.existsSync(path.join(ws, '.opencode/plugins/mine.ts')), "the user's plugin stays");
});

test('inside Windsurf, Kiro or Cursor, Connect Agents… offers that editor’s own agent first', () => {
  assert.equal(hostEditorAgent('Windsurf'), 'windsurf');
  assert.equal(hostEditorAgent('Windsurf - Next'), 'windsurf');
  assert.equal(hostEditorAgent('Kiro'), 'kiro');
  assert.equal(hostEditorAgent('Cursor'), 'cursor');
  assert.equal(hostEditorAgent('Code - OSS', 'kiro'), 'kiro', 'by URI scheme when the name is generic');
  assert.equal(hostEditorAgent('Visual Studio Code', 'vscode'), null);
  const order = hostFirst(CONNECTORS, 'kiro').map((c) => c.agent);
  assert.equal(order[0], 'kiro');
  assert.deepEqual(
    order.slice(1),
    CONNECTORS.map((c) => c.agent).filter((a) => a !== 'kiro'),
  );
  assert.deepEqual(
    hostFirst(CONNECTORS, null).map((c) => c.agent),
    CONNECTORS.map((c) => c.agent),
  );
});
