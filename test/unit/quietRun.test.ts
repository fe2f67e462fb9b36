// A long install step is quiet: its output goes to the log file, the terminal gets one line with
// the time it took; on failure, the log's last lines and its path.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const QUIET = path.resolve(__dirname, '../../scripts/quietRun.mjs');

function step(script: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-quiet-'));
  const log = path.join(dir, 'logs', 'step.log');
  const r = spawnSync(process.execPath, [QUIET, log, 'the step', '[tools]', dir, '--', 'sh', '-c', script], { encoding: 'utf8' });
  return { ...r, log, logText: fs.readFileSync(log, 'utf8') };
}

describe('quietRun', () => {
  it('a step that succeeds prints one line with its time and the log; its output is only in the log', () => {
    const r = step('for i in $(seq 1 300); do echo "warning: noisy compiler line $i"; done; echo err >&2');
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^\[tools\] the step: done in \d+s \(full output in .*step\.log\)\n$/);
    assert.equal(r.logText.split('\n').filter((l) => l.startsWith('warning:')).length, 300);
    assert.match(r.logText, /^err$/m);
  });

  it('a step that fails prints the last lines of the log and where the whole of it is, and exits with its code', () => {
    const r = step('for i in $(seq 1 100); do echo "line $i"; done; exit 7');
    assert.equal(r.status, 7);
    assert.match(r.stderr, /the step: FAILED after \d+s \(exit 7\)/);
    assert.match(r.stderr, /^line 100$/m);
    assert.match(r.stderr, /^line 71$/m);
    assert.doesNotMatch(r.stderr, /^line 70$/m, 'only the last 30 lines');
    assert.ok(r.stderr.includes(`The whole output is in ${r.log}.`));
  });
});
