import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseCopilotPayload } from '../../src/agents/copilot/hookPayload';
import { fixtureText, WS } from './agentFixtures';

const DIR = path.resolve(__dirname, '../fixtures/agents/copilot');

/** Both captured spellings of one session, event for event. */
function both(n: string, pn = n) {
  const camel = fs.readdirSync(path.join(DIR, 'camel')).find((f) => f.startsWith(`${n}-`))!;
  const pascal = fs.readdirSync(path.join(DIR, 'pascal')).find((f) => f.startsWith(`${pn}-`))!;
  const event = camel.replace(/^\d+-/, '').replace(/-.*|\.json$/g, '');
  return [
    parseCopilotPayload(fixtureText(`copilot/camel/${camel}`), { event }),
    parseCopilotPayload(fixtureText(`copilot/pascal/${pascal}`)),
  ];
}

test('copilot: camelCase (event from the argument) and PascalCase give the same events, stamps included', () => {
  // The failure came before the permission request in one capture and after it in the other.
  for (const [n, pn] of [['01'], ['02'], ['03'], ['05', '06'], ['07'], ['08'], ['10'], ['11'], ['13'], ['16'], ['18'], ['19'], ['20']]) {
    const [c, p] = both(n!, pn);
    assert.equal(c!.kind, 'event', `${n}: ${JSON.stringify(c)}`);
    assert.deepEqual(c, p, `camel and Pascal ${n}`);
  }
  const [start] = both('01');
  assert.ok(start!.kind === 'event' && start!.event.type === 'session_start' && start!.event.agent === 'copilot');
  assert.equal(start!.kind === 'event' && start!.stamp, '1796319046213');
});

test('copilot: tools map to kinds with Copilot’s inputs; no call id, a pair key instead', () => {
  const [create] = both('03');
  assert.ok(create!.kind === 'event' && create!.event.type === 'before_tool');
  const e = create!.event;
  assert.equal(e.tool, 'create');
  assert.deepEqual(e.paths, [`${WS}/hello.txt`]);
  assert.equal(e.callId, undefined);
  assert.ok(e.pairKey);
  const [fail] = both('05', '06');
  assert.ok(fail!.kind === 'event' && fail!.event.type === 'after_tool' && !fail!.event.ok);
  const [bash] = both('11');
  assert.ok(bash!.kind === 'event' && bash!.event.type === 'before_tool' && bash!.event.kind.kind === 'shell');
  const [mcp] = both('16');
  assert.ok(mcp!.kind === 'event' && mcp!.event.type === 'before_tool' && mcp!.event.kind.kind === 'remote');
});

test('copilot: toolArgs as a JSON string; permissionRequest ignored; the event inferred when no argument came', () => {
  const p = JSON.parse(fixtureText('copilot/camel/03-preToolUse-create.json'));
  p.toolArgs = JSON.stringify(p.toolArgs);
  const r = parseCopilotPayload(JSON.stringify(p), { event: 'preToolUse' });
  assert.ok(r.kind === 'event' && r.event.type === 'before_tool');
  assert.deepEqual(r.event.paths, [`${WS}/hello.txt`]);
  assert.equal(
    parseCopilotPayload(fixtureText('copilot/camel/06-permissionRequest-edit.json'), { event: 'permissionRequest' }).kind,
    'ignore',
  );
  const inferred = parseCopilotPayload(fixtureText('copilot/camel/07-postToolUse-create.json'));
  assert.ok(inferred.kind === 'event' && inferred.event.type === 'after_tool' && inferred.event.ok);
});
