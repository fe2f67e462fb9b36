// Calls without ids paired by key, first in first out, on a real store; doubled deliveries dropped once.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Store } from '../../src/core/store';
import { DEDUPE_WINDOW_MS, firstDelivery, sweepDedupe } from '../../src/recording/dedupe';
import type { AfterToolEvent, BeforeToolEvent } from '../../src/recording/events';
import { clearPairs, pairCall } from '../../src/recording/pairCalls';
import { tempDir } from '../helpers/tmp';

const tool = {
  agent: 'copilot',
  session: 's1',
  tool: 'bash',
  kind: { kind: 'shell', command: 'ls', dialect: 'sh' },
  input: { command: 'ls' },
  paths: [],
  shell: true,
  pairKey: 'k',
} as const;
const before = (): BeforeToolEvent => ({ ...tool, kind: { ...tool.kind }, input: { ...tool.input }, paths: [], type: 'before_tool' });
const after = (): AfterToolEvent => ({
  ...tool,
  kind: { ...tool.kind },
  input: { ...tool.input },
  paths: [],
  type: 'after_tool',
  ok: true,
});

test('two identical calls in flight: the afters take the befores’ ids in order; none left after that', () => {
  const store = Store.open(path.join(tempDir(), 'store'), { create: true });
  const b1 = before();
  const b2 = before();
  pairCall(store, b1);
  pairCall(store, b2);
  assert.ok(b1.callId && b2.callId && b1.callId !== b2.callId);
  const a1 = after();
  const a2 = after();
  const a3 = after();
  pairCall(store, a1);
  pairCall(store, a2);
  pairCall(store, a3);
  assert.equal(a1.callId, b1.callId);
  assert.equal(a2.callId, b2.callId);
  assert.equal(a3.callId, undefined, 'an after with no before left gets no id');
  const b3 = before();
  pairCall(store, b3);
  clearPairs(store, 's1');
  const a4 = after();
  pairCall(store, a4);
  assert.equal(a4.callId, undefined, 'a boundary cleared the unmatched before');
});

test('twenty identical calls begun within a few milliseconds pair first in first out (same-ms befores keep their order)', () => {
  const store = Store.open(path.join(tempDir(), 'store'), { create: true });
  const befores = Array.from({ length: 20 }, () => before());
  for (const b of befores) pairCall(store, b);
  const afters = Array.from({ length: 20 }, () => after());
  for (const a of afters) pairCall(store, a);
  assert.deepEqual(
    afters.map((a) => a.callId),
    befores.map((b) => b.callId),
  );
});

test('a second delivery of one event is dropped within the window; events without a timestamp never are', () => {
  const store = Store.open(path.join(tempDir(), 'store'), { create: true });
  const e = before();
  assert.equal(firstDelivery(store, e, '1000'), true);
  assert.equal(firstDelivery(store, e, '1000'), false);
  assert.equal(firstDelivery(store, { ...e, input: { command: 'pwd' } }, '1000'), true, 'another input is another event');
  assert.equal(firstDelivery(store, e, '1001'), true, 'another timestamp is another event');
  assert.equal(firstDelivery(store, e, undefined), true);
  assert.equal(firstDelivery(store, e, undefined), true);
  const later = Date.now() + DEDUPE_WINDOW_MS + 1;
  assert.equal(firstDelivery(store, e, '1000', later), true, 'a stale marker does not hide a new event');
  sweepDedupe(store, later + DEDUPE_WINDOW_MS + 1);
  assert.deepEqual(fs.readdirSync(path.join(store.dir, 'dedupe')), []);
});
