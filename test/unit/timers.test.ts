// The extension's one debounce and one "say so if it is slow" (src/extension/timers.ts), on node's mock
// clock: what runs, how often, and that nothing runs after dispose or once the work has settled.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { Debouncer, whenSlow } from '../../src/extension/timers';

beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
afterEach(() => mock.timers.reset());

test('a burst of triggers runs the work once, the quiet time after the last one', () => {
  let runs = 0;
  const d = new Debouncer(150, () => runs++);
  d.trigger();
  mock.timers.tick(100);
  d.trigger(); // the wait starts again
  mock.timers.tick(100);
  assert.deepEqual([runs, d.pending], [0, true]);
  mock.timers.tick(50);
  assert.deepEqual([runs, d.pending], [1, false]);
  d.trigger();
  d.dispose();
  mock.timers.tick(1000);
  assert.equal(runs, 1, 'nothing after dispose');
});

test('whenSlow says so only when the work outlasts the delay', async () => {
  const slow: string[] = [];
  let finish = () => {};
  const long = new Promise<void>((resolve) => (finish = resolve));
  whenSlow(Promise.resolve(), 300, () => slow.push('quick'));
  whenSlow(long, 300, () => slow.push('long'));
  await Promise.resolve(); // the quick work settles
  mock.timers.tick(300);
  assert.deepEqual(slow, ['long']);
  finish();
  const failed = Promise.reject(new Error('cancelled'));
  whenSlow(failed, 300, () => slow.push('failed'));
  await failed.catch(() => undefined);
  mock.timers.tick(300);
  assert.deepEqual(slow, ['long'], 'a failure settles too');
});
