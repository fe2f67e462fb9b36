// Sessions are agent sessions: a rewind, its undo, a take and a manual checkpoint are the user's own
// actions. Through the real CLI on a real session: after a rewind and more work, `plan` names only the
// agent's session, and `status` and `storage` count the same one session.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

test('one agent session, a rewind, its undo, a manual checkpoint and more work: one session in plan, status and storage', () => {
  const { ws, store } = sandbox();
  const s = new ClaudeSession(store, ws, 'agent-1');
  s.start();
  s.prompt('Write a and b');
  s.write('a.txt', 'a1\n');
  s.write('b.txt', 'b1\n');
  s.prompt('Change both');
  s.edit('a.txt', 'a1', 'a2');
  s.edit('b.txt', 'b1', 'b2');
  const [p1, p2] = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).filter((c) => c.kind === 'prompt');
  const rw = cliJson(['rewind', '--to', p2!.id], { store });
  const undo = cliJson(['rewind', '--to', rw.checkpoint], { store });
  cliJson(['rewind', '--to', undo.checkpoint], { store });
  assert.equal(cli(['checkpoint', '--label', 'mine'], { store }).status, 0);
  // The re-grounding that prompt prints is not this test's subject (conversationFilesRewound.test.ts).
  const said = cli(['hook', 'claude'], {
    store,
    input: JSON.stringify({
      session_id: s.session,
      transcript_path: s.transcript,
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Change a again',
    }),
  });
  assert.equal(said.status, 0);
  s.edit('a.txt', 'a1', 'a3');
  assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'b1\n');

  const plan = cliJson(['plan', '--to', p1!.id], { store, cwd: ws });
  assert.deepEqual(
    plan.files.map((f: { path: string; sessions?: string[] }) => [path.basename(f.path), f.sessions ?? []]),
    [
      ['a.txt', ['agent-1']],
      ['b.txt', ['agent-1']],
    ],
  );
  const text = cli(['plan', '--to', p1!.id], { store, cwd: ws });
  assert.equal(text.status, 0, text.stderr);
  assert.doesNotMatch(text.stdout, /\(rewind\)|earlier rewind|no session/);
  // Only this session's changes: every file, nothing left alone for "another session".
  const only = cliJson(['plan', '--to', p1!.id, '--session', 'agent-1'], { store, cwd: ws });
  assert.equal(only.files.length, 2);
  assert.deepEqual(only.leftAlone, []);

  const status = cliJson(['status'], { store });
  const storage = cliJson(['storage'], { store });
  assert.equal(status.counts.sessions, 1);
  assert.deepEqual(
    storage.sessions.map((u: { session: string }) => u.session),
    ['agent-1'],
  );
  assert.equal(storage.own.checkpoints, 4, 'three rewinds and the manual checkpoint');
  const storageText = cli(['storage'], { store });
  assert.match(storageText.stdout, /By session \(1 session, largest first\)/);
  assert.doesNotMatch(storageText.stdout, /no session/);
  assert.match(storageText.stdout, /Your own actions \(rewinds, undos, takes, manual checkpoints\): .*, 4 checkpoints\./);
  const statusText = cli(['status'], { store });
  assert.match(statusText.stdout, /, 1 session, /);
});
