// The Codex adapter on every hook payload the real Codex CLI 0.171.0 sent in the captured two-prompt
// session (test/fixtures/agents/codex/real-0.171.0/hooks.jsonl): which events are recorded, the prompt's
// id (its turn id), apply_patch paths (relative and absolute, moves, deletes), Bash as a shell call, and
// the events we ignore. Plus Connect's `.codex/hooks.json` round trip.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseCodexPayload } from '../../src/agents/codex/hookPayload';
import { CODEX_HOOKS_FILE } from '../../src/agents/codex/connect';
import { codexToolKind } from '../../src/agents/codex/toolKind';
import type { AgentEvent } from '../../src/recording/events';
import { tempDir } from '../helpers/tmp';
import { registry } from '../../src/agents/registry';

const codexConnector = registry.connector('codex')!;

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'agents', 'codex', 'real-0.171.0');
const WS = '/WORKSPACE';

interface Captured {
  event: string;
  payload: Record<string, unknown>;
}
const captured: Captured[] = fs
  .readFileSync(path.join(FIXTURE, 'hooks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Captured);

function events(): (AgentEvent | null)[] {
  return captured.map((c) => {
    const r = parseCodexPayload(JSON.stringify(c.payload));
    assert.notEqual(r.kind, 'bad', `${c.event}: ${r.kind === 'bad' ? r.reason : ''}`);
    return r.kind === 'event' ? r.event : null;
  });
}

test('every real payload is accepted; model-request events are ignored, the rest recorded as agent codex', () => {
  const evs = events();
  const modelRequest = (c: Captured) => c.event === 'PreModelRequest' || c.event === 'PostModelRequest';
  assert.ok(captured.some(modelRequest) && captured.some((c) => !modelRequest(c)), 'the capture has both kinds');
  assert.deepEqual(
    evs.flatMap((e, i) => (modelRequest(captured[i]!) ? [e] : [])).filter((e) => e !== null),
    [],
    'model-request events are not recorded',
  );
  captured.forEach((c, i) => {
    if (modelRequest(c)) return;
    const e = evs[i];
    assert.ok(e, `${c.event} is recorded`);
    assert.equal(e.agent, 'codex');
    assert.equal(e.session, c.payload.session_id);
    assert.equal(e.cwd, WS);
    assert.match(e.transcript ?? '', /\/sessions\/.*rollout-.*\.jsonl$/);
  });
  const types = evs.filter((e) => e).map((e) => e!.type);
  assert.deepEqual([...new Set(types)].sort(), ['after_tool', 'before_tool', 'prompt', 'session_end', 'session_start', 'stop']);
});

test('SessionStart keeps its source; a prompt carries its text and turn id', () => {
  const evs = events().filter((e) => e);
  const starts = evs.filter((e) => e!.type === 'session_start').map((e) => (e as { source?: string }).source);
  assert.deepEqual(starts, ['startup', 'resume']);
  const prompts = evs.filter((e) => e!.type === 'prompt') as Extract<AgentEvent, { type: 'prompt' }>[];
  assert.equal(prompts.length, 2);
  assert.equal(prompts[1]!.text, 'Also mention the greeting in the README');
  const ups = captured.filter((c) => c.event === 'UserPromptSubmit');
  assert.equal(prompts[0]!.promptId, ups[0]!.payload.turn_id);
  assert.match(prompts[0]!.promptId!, /^[0-9a-f-]{36}$/);
});

test('apply_patch: the files it adds, updates, deletes and moves, relative paths resolved against cwd', () => {
  const tools = events().filter((e) => e && e.type === 'before_tool') as Extract<AgentEvent, { type: 'before_tool' }>[];
  const patches = tools.filter((t) => t.tool === 'apply_patch');
  assert.equal(patches.length, 4, 'three patches that applied and one that failed');
  assert.deepEqual(patches[0]!.paths, [`${WS}/src/greet.js`, `${WS}/src/app.js`, `${WS}/src/old.js`]);
  assert.deepEqual(patches[1]!.paths, [`${WS}/notes/todo.txt`, `${WS}/docs/todo.md`], 'absolute source, relative destination');
  assert.equal(patches[0]!.kind.kind, 'file-write');
  assert.equal(patches[0]!.shell, false);
  assert.equal(patches[0]!.callId, captured.find((c) => c.event === 'PreToolUse')!.payload.tool_use_id);
  // The failed patch has a PreToolUse and no PostToolUse: the recorder's orphan repair covers it.
  const after = events().filter((e) => e && e.type === 'after_tool' && (e as { tool: string }).tool === 'apply_patch');
  assert.equal(after.length, 3);
});

test('Bash: a shell call with the command, ok on PostToolUse (Codex sends no exit code)', () => {
  const evs = events().filter((e) => e && (e.type === 'before_tool' || e.type === 'after_tool')) as Extract<
    AgentEvent,
    { type: 'before_tool' | 'after_tool' }
  >[];
  const push = evs.find((e) => e.tool === 'Bash' && e.type === 'before_tool' && /git push/.test(JSON.stringify(e.input)))!;
  assert.equal(push.shell, true);
  assert.deepEqual(push.kind, { kind: 'shell', command: 'git push -q origin main', dialect: 'sh' });
  assert.deepEqual(push.paths, []);
  const failing = evs.find((e) => e.type === 'after_tool' && /does-not-exist/.test(JSON.stringify(e.input)))!;
  assert.equal((failing as { ok: boolean }).ok, true);
});

test('bad input is reported, never thrown', () => {
  assert.equal(parseCodexPayload('').kind, 'bad');
  assert.equal(parseCodexPayload('[1]').kind, 'bad');
  assert.equal(parseCodexPayload('{"hook_event_name":"Stop"}').kind, 'bad');
  const notPatch = parseCodexPayload(
    JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd: '/w',
      tool_name: 'apply_patch',
      tool_input: { command: 'echo' },
    }),
  );
  assert.equal(notPatch.kind, 'bad');
  const noCwd = parseCodexPayload(
    JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch' },
    }),
  );
  assert.equal(noCwd.kind, 'bad', 'a relative path with no cwd cannot be resolved');
  assert.equal(parseCodexPayload(JSON.stringify({ hook_event_name: 'PermissionRequest', session_id: 's' })).kind, 'ignore');
});

test('tool kinds: rollout names (exec_command, shell argv) and hook names agree; MCP tools are remote', () => {
  assert.deepEqual(codexToolKind('exec_command', { cmd: 'ls -la' }), { kind: 'shell', command: 'ls -la', dialect: 'sh' });
  assert.deepEqual(codexToolKind('shell', { command: ['bash', '-lc', 'npm test'] }), { kind: 'shell', command: 'npm test', dialect: 'sh' });
  assert.deepEqual(codexToolKind('mcp__github__create_issue', {}), { kind: 'remote', server: 'github', name: 'create_issue' });
  assert.equal(codexToolKind('view_image', { path: '/a.png' }).kind, 'read');
  assert.equal(codexToolKind('something_new', {}).kind, 'other');
  const k = codexToolKind('apply_patch', '*** Begin Patch\n*** Delete File: /w/x.txt\n*** End Patch', '/w');
  assert.deepEqual(k, { kind: 'file-write', paths: ['/w/x.txt'], summary: 'x.txt' });
});

test('Connect writes .codex/hooks.json beside the user hooks, idempotently, and Disconnect restores the bytes', () => {
  const ws = tempDir('ar-codex-connect-');
  const target = { node: '/usr/bin/node', cli: '/opt/agent rewind/cli.js', store: '/srv/store' };
  // No file before: Connect creates it (and .codex/), Disconnect removes both.
  const r = codexConnector.connect(ws, target);
  assert.equal(r.changed, true);
  assert.ok(r.notes.some((n) => /trust/.test(n)));
  const file = path.join(ws, CODEX_HOOKS_FILE);
  const written = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    hooks: Record<string, { matcher?: string; hooks: { timeout: number; command: string }[] }[]>;
  };
  assert.deepEqual(Object.keys(written.hooks), ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd']);
  assert.equal(written.hooks.PreToolUse![0]!.matcher, undefined, 'no matcher: every tool');
  assert.equal(written.hooks.SessionEnd![0]!.hooks[0]!.timeout, 3, 'Codex caps SessionEnd at 3 s');
  assert.ok(
    Object.values(written.hooks).every((g) => Number.isInteger(g[0]!.hooks[0]!.timeout)),
    'whole seconds',
  );
  assert.match(
    written.hooks.Stop![0]!.hooks[0]!.command,
    /'\/opt\/agent rewind\/cli\.js' hook codex --store \/srv\/store --connected-by=agent-rewind$/,
  );
  assert.equal(codexConnector.state(ws, target), 'connected');
  assert.equal(codexConnector.connect(ws, target).changed, false, 'idempotent');
  assert.equal(codexConnector.state(ws, { ...target, store: '/elsewhere' }), 'outdated');
  assert.equal(codexConnector.disconnect(ws).changed, true);
  assert.equal(fs.existsSync(path.join(ws, '.codex')), false);
  assert.equal(codexConnector.state(ws, target), 'disconnected');

  // The user's own hooks and formatting survive a round trip.
  fs.mkdirSync(path.join(ws, '.codex'));
  const mine = '{\n    "hooks": {\n        "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n    }\n}\n';
  fs.writeFileSync(file, mine);
  codexConnector.connect(ws, target);
  const both = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]> };
  assert.equal(both.hooks.Stop!.length, 2);
  codexConnector.disconnect(ws);
  assert.equal(fs.readFileSync(file, 'utf8'), mine);
  assert.ok(codexConnector.detect(ws, { PATH: '' }, ws));
});
