// Checkpoint and session ids (core/storeFiles/ids.ts): safe on a command line and in a shell, and unique.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../src/core/storeFiles/ids';

test('ids are 12 letters or digits, never an option, and do not repeat', () => {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (let i = 0; i < 20000; i++) {
    const id = newId();
    assert.match(id, /^[0-9a-zA-Z]{12}$/);
    seen.add(id);
    for (const c of id) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  assert.equal(seen.size, 20000);
  // Every one of the 62 characters appears, none far more often than the others (uniform: 3,871 each).
  assert.equal(counts.size, 62);
  for (const [c, n] of counts) assert.ok(n > 3300 && n < 4450, `${c} appeared ${n} times`);
});
