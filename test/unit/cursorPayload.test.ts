import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCursorPayload } from '../../src/agents/cursor/hookPayload';
import { fixtureText, WS } from './agentFixtures';

const parse = (rel: string) => parseCursorPayload(fixtureText(`cursor/${rel}`));
const ev = (rel: string) => {
  const r = parse(rel);
  assert.equal(r.kind, 'event', JSON.stringify(r));
  return r.kind === 'event' ? r.event : (null as never);
};

test('cursor: conversation_id is the session, workspace_roots[0] the folder; lifecycle events map', () => {
  const s = ev('session-start.json');
  assert.ok(s.type === 'session_start' && s.session === '0b7e9f4a-2c61-4d3e-8a5f-9c1d2e3f4a5b' && s.cwd === WS && s.agent === 'cursor');
  assert.equal(ev('prompt.json').type, 'prompt');
  assert.equal(ev('stop.json').type, 'stop');
  assert.equal(ev('session-end.json').type, 'session_end');
  // No timestamp in Cursor's payloads: never deduplicated.
  const r = parse('prompt.json');
  assert.ok(r.kind === 'event' && r.stamp === undefined);
});

test('cursor: afterFileEdit is an after-only write; shell and MCP pairs share a key within the generation', () => {
  const e = ev('after-file-edit.json');
  assert.ok(e.type === 'after_tool' && e.afterOnly && e.kind.kind === 'file-write');
  assert.deepEqual(e.paths, [`${WS}/src/net/client.ts`]);
  const b = ev('before-shell.json');
  const a = ev('after-shell.json');
  assert.ok(b.type === 'before_tool' && a.type === 'after_tool' && b.shell && b.pairKey === a.pairKey);
  const mb = ev('before-mcp.json');
  const ma = ev('after-mcp.json');
  assert.ok(mb.type === 'before_tool' && ma.type === 'after_tool' && mb.kind.kind === 'remote' && mb.pairKey === ma.pairKey);
  assert.deepEqual(mb.input, { owner: 'ana', repo: 'app', title: 'Retry constant moved' });
});

test('cursor: preToolUse file tools give a real before, paired by tool_use_id', () => {
  const w = ev('pre-tool-write.json');
  assert.ok(w.type === 'before_tool' && w.kind.kind === 'file-write' && w.callId === 'toolu_01Cx7Wq3Ea9Rt2Yu5Io8Pa1S');
  assert.deepEqual(w.paths, [`${WS}/src/net/retry.ts`]);
  const p = ev('post-tool-edit.json');
  assert.ok(p.type === 'after_tool' && p.ok && p.tool === 'StrReplace');
});
