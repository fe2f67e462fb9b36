// Storage use and a size limit, through the real CLI on real sessions: `storage` says what the space is
// spent on by session and by age; `gc --max-gb` drops the oldest checkpoints (never the latest) until the
// store fits, and leaves a store that verifies and still rewinds.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

const KB = 1024;
const GB = 1024 ** 3;

/** Three sessions, each rewriting big.txt with 300 KB of new content. */
function threeSessions() {
  const { ws, store } = sandbox();
  const sessions = [1, 2, 3].map((i) => {
    const s = new ClaudeSession(store, ws, `sess-${i}`);
    s.start();
    s.prompt(`version ${i}`);
    s.write('big.txt', randomBytes(150 * KB).toString('hex'));
    return s;
  });
  return { ws, store, sessions };
}

describe('agent-rewind storage and gc --max-gb', () => {
  it('storage --json: by session (each one its own copies) and by age; the text form says the same', () => {
    const { store } = threeSessions();
    const u = cliJson(['storage'], { store });
    assert.equal(u.sessions.length, 3);
    for (const s of u.sessions) {
      assert.match(s.session, /^sess-[123]$/);
      assert.ok(s.bytes >= 300 * KB && s.bytes < 400 * KB, `${s.session}: ${s.bytes}`);
      assert.equal(s.agent, 'claude');
      assert.ok(s.checkpoints >= 2, 'its session start and its prompt');
    }
    assert.equal(u.byAge[0].days, '0-1');
    assert.equal(
      u.byAge[0].bytes,
      u.sessions.reduce((t: number, s: { bytes: number }) => t + s.bytes, 0),
    );
    assert.equal(u.recordedBytes, u.byAge[0].bytes);
    assert.ok(u.totalBytes >= u.recordedBytes + u.logBytes);
    const text = cli(['storage'], { store });
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /By session \(3 sessions, largest first\)/);
    assert.match(text.stdout, /sess-2 +"version 2"/);
    assert.match(text.stdout, /0-1 days/);
  });

  it('gc --max-gb drops the oldest checkpoints until the store fits; the latest stays, verify passes, a rewind still works', () => {
    const { store, ws } = threeSessions();
    const before = cliJson<{ id: string; session: string }[]>(['checkpoints'], { store });
    const size = cliJson(['storage'], { store }).totalBytes as number;
    // Room for the last session's two versions (its "before" and its write) but not for a third: the older ones must go.
    const limit = size - 250 * KB;
    const r = cliJson(['gc', '--max-gb', String(limit / GB)], { store });
    assert.equal(r.sizeLimit.fits, true, JSON.stringify(r));
    assert.ok(r.sizeLimit.droppedCheckpoints > 0);
    assert.ok(r.bytesLeft <= limit, `${r.bytesLeft} > ${limit}`);
    const after = cliJson<{ id: string }[]>(['checkpoints'], { store });
    assert.deepEqual(
      after.map((c) => c.id),
      before.slice(before.length - after.length).map((c) => c.id),
      'the oldest went first',
    );
    assert.equal(after.at(-1)!.id, before.at(-1)!.id);
    assert.equal(cli(['verify'], { store }).status, 0);
    const plan = cliJson(['plan', '--to', after[0]!.id], { store, cwd: ws });
    assert.equal(plan.blocked.length, 0);
    // The text form names the size rule.
    const again = cli(['gc', '--max-gb', String(limit / GB)], { store });
    assert.match(again.stdout, /to stay under 0\.\d\d GB/);
  });

  it('a size that is not a positive number is a usage error (exit 2) and nothing is removed', () => {
    const { store } = threeSessions();
    const n = cliJson<unknown[]>(['checkpoints'], { store }).length;
    for (const v of ['0', '-1', 'lots']) {
      const r = cli(['gc', `--max-gb=${v}`], { store });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /--max-gb takes a size in GB/);
    }
    assert.equal(cliJson<unknown[]>(['checkpoints'], { store }).length, n);
  });
});
