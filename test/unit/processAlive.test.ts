// Whether a process still runs (core/storeFiles/lock.ts `processAlive`): what decides that a lock's
// holder is gone and that a resident recorder died under its hook (resident/forward.ts). A zombie — dead,
// not yet collected by a parent busy in a synchronous call — is gone, though signal 0 still reaches it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { describe, it } from 'node:test';
import { processAlive, sleepMs } from '../../src/core/storeFiles/lock';

const state = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0];
};

describe('processAlive', () => {
  it('this process runs; a pid nobody has does not', () => {
    assert.equal(processAlive(process.pid), true);
    assert.equal(processAlive(2 ** 22 + 12345), false); // above any pid_max
  });

  it('a child that died and is not collected yet (a zombie) does not run', () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = child.pid!;
    // This thread holds the event loop until it is a zombie: node collects children only from there.
    const until = Date.now() + 30000;
    while (state(pid) !== 'Z' && Date.now() < until) sleepMs(5);
    assert.equal(state(pid), 'Z', 'the child died and stays uncollected while we hold the loop');
    assert.equal(processAlive(pid), false);
  });
});
