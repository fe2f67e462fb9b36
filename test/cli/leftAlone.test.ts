// Scoped rewinds say what they leave: two sessions edit a shared file, and `--session` names it as
// left alone (with both sessions and the ways out) in the text plan, `plan --json`, and the rewind's
// result; a shell call that changed two files names the other one when `--path` takes only one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

interface LeftAlone {
  path: string;
  reason: string;
  sessions: string[];
  with?: string[];
}
interface PlanOut {
  files: { path: string; action: string }[];
  leftAlone: LeftAlone[];
}
interface RewindOut extends PlanOut {
  status: string;
  checkpoint: string;
}

function checkpointAtPrompt(store: string, session: string): string {
  const list = cliJson<{ id: string; kind: string; session: string | null }[]>(['checkpoints'], { store });
  const cp = list.find((c) => c.kind === 'prompt' && c.session === session);
  assert.ok(cp, `a prompt checkpoint of ${session}: ${JSON.stringify(list)}`);
  return cp.id;
}

/** A git repository with two committed files, and two sessions started in it (alpha and beta). */
function repo(): { ws: string; store: string; a: ClaudeSession; b: ClaudeSession } {
  const { ws, store } = sandbox();
  execFileSync('git', ['init', '-q', ws]);
  fs.writeFileSync(path.join(ws, 'shared.txt'), 'one\ntwo\nthree\n');
  fs.writeFileSync(path.join(ws, 'notes.md'), '# notes\n');
  execFileSync('git', ['-C', ws, 'add', '.']);
  execFileSync('git', ['-C', ws, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init']);
  const a = new ClaudeSession(store, ws, 'sess-alpha');
  const b = new ClaudeSession(store, ws, 'sess-beta');
  a.start();
  b.start();
  return { ws, store, a, b };
}

describe('a session-scoped rewind names the files it leaves because another session changed them too', () => {
  /** Alpha writes alpha.ts and edits shared.txt; beta edits shared.txt too and writes beta.ts. */
  function twoSessions() {
    const { ws, store, a, b } = repo();
    a.prompt('alpha: add a helper');
    b.prompt('beta: tidy up');
    const target = checkpointAtPrompt(store, 'sess-alpha');
    a.write('alpha.ts', 'export const alpha = 1;\n');
    a.edit('shared.txt', 'one\n', 'ONE (alpha)\n');
    b.edit('shared.txt', 'three\n', 'THREE (beta)\n');
    b.write('beta.ts', 'export const beta = 2;\n');
    return { ws, store, target, shared: path.join(ws, 'shared.txt') };
  }
  const afterBoth = 'ONE (alpha)\ntwo\nTHREE (beta)\n';

  it('plan text and --json, rewind --json: the shared file is left alone, with both sessions and the ways out', () => {
    const { ws, store, target, shared } = twoSessions();
    assert.equal(fs.readFileSync(shared, 'utf8'), afterBoth);

    const plan = cliJson<PlanOut>(['plan', '--to', target, '--session', 'sess-alpha'], { store });
    assert.deepEqual(
      plan.files.map((f) => [path.basename(f.path), f.action]),
      [['alpha.ts', 'delete']],
    );
    assert.deepEqual(plan.leftAlone, [{ path: shared, reason: 'other-session', sessions: ['sess-alpha', 'sess-beta'] }]);

    const text = cli(['plan', '--to', target, '--session', 'sess-alpha'], { store });
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(`left alone: ${escape(shared)} — also changed after this point by session sess-alpha, session sess-beta`),
    );
    assert.match(text.stdout, new RegExp(`agent-rewind rewind --to ${target} +\\(without --session`));
    assert.match(text.stdout, /agent-rewind diff <point> now --path <file>, then agent-rewind rewind --to <point> --path <file>/);

    // The whole rewind has nothing to leave alone.
    assert.deepEqual(cliJson<PlanOut>(['plan', '--to', target], { store }).leftAlone, []);

    const r = cliJson<RewindOut>(['rewind', '--to', target, '--session', 'sess-alpha'], { store });
    assert.equal(r.status, 'done');
    assert.deepEqual(r.leftAlone, plan.leftAlone);
    assert.equal(fs.existsSync(path.join(ws, 'alpha.ts')), false);
    assert.equal(fs.readFileSync(shared, 'utf8'), afterBoth, 'the shared file keeps both sessions’ edits');
    assert.equal(fs.readFileSync(path.join(ws, 'beta.ts'), 'utf8'), 'export const beta = 2;\n');
    assert.equal(cli(['verify'], { store }).status, 0);
  });

  it('the rewind’s text result names the shared file as left alone', () => {
    const { store, target, shared } = twoSessions();
    const r = cli(['rewind', '--to', target, '--session', 'sess-alpha'], { store });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Rewound to .*: restored 0, deleted 1, recreated 0 file\(s\)\./);
    assert.match(
      r.stdout,
      new RegExp(`left alone: ${escape(shared)} — also changed after this point by session sess-alpha, session sess-beta`),
    );
    assert.match(r.stdout, /without --session/);
    assert.equal(fs.readFileSync(shared, 'utf8'), afterBoth);
  });

  it('a refused session-scoped rewind (exit 3) still names the files it would leave alone, in text and --json', () => {
    const { ws, store, target, shared } = twoSessions();
    fs.writeFileSync(path.join(ws, 'alpha.ts'), 'export const alpha = 1; // mine\n'); // the user's own edit
    const text = cli(['rewind', '--to', target, '--session', 'sess-alpha'], { store });
    assert.equal(text.status, 3, text.stderr);
    assert.match(text.stderr, /Refused: 1 file\(s\)/);
    assert.match(
      text.stdout,
      new RegExp(`left alone: ${escape(shared)} — also changed after this point by session sess-alpha, session sess-beta`),
    );
    const json = cli(['rewind', '--to', target, '--session', 'sess-alpha', '--json'], { store });
    assert.equal(json.status, 3, json.stderr);
    const refused = JSON.parse(json.stdout) as RewindOut;
    assert.equal(refused.status, 'refused');
    assert.deepEqual(refused.leftAlone, [{ path: shared, reason: 'other-session', sessions: ['sess-alpha', 'sess-beta'] }]);
    assert.equal(fs.readFileSync(path.join(ws, 'alpha.ts'), 'utf8'), 'export const alpha = 1; // mine\n', 'nothing written');
    assert.equal(fs.readFileSync(shared, 'utf8'), afterBoth);
  });

  it('when every file the session changed is shared, the rewind writes nothing and says which files it left, not "already match"', () => {
    const { ws, store, a, b } = repo();
    a.prompt('alpha');
    const target = checkpointAtPrompt(store, 'sess-alpha');
    a.edit('shared.txt', 'two\n', 'TWO (alpha)\n');
    b.prompt('beta');
    b.edit('shared.txt', 'one\n', 'ONE (beta)\n');

    const r = cliJson<RewindOut & { leftAlone: LeftAlone[] }>(['rewind', '--to', target, '--session', 'sess-alpha'], { store });
    assert.equal(r.status, 'nothing');
    assert.deepEqual(r.leftAlone, [{ path: path.join(ws, 'shared.txt'), reason: 'other-session', sessions: ['sess-alpha', 'sess-beta'] }]);
    const text = cli(['rewind', '--to', target, '--session', 'sess-alpha'], { store });
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /Nothing rewound: every file this selection would change is left alone/);
    assert.doesNotMatch(text.stdout, /already match/);
    assert.match(text.stdout, /left alone: .*shared\.txt/);
    assert.equal(fs.readFileSync(path.join(ws, 'shared.txt'), 'utf8'), 'ONE (beta)\nTWO (alpha)\nthree\n');
  });
});

describe('a path-scoped rewind names the files a call outside the selection changed with the chosen one', () => {
  it('one shell command changed two files: --path takes one, the other is left alone, named with the chosen file', () => {
    const { ws, store, a, b } = repo();
    a.prompt('alpha: rename everywhere');
    const target = checkpointAtPrompt(store, 'sess-alpha');
    a.bash("sed -i 's/one/uno/' shared.txt notes.md", () => {
      fs.writeFileSync(path.join(ws, 'shared.txt'), 'uno\ntwo\nthree\n');
      fs.writeFileSync(path.join(ws, 'notes.md'), '# notes uno\n');
    });
    b.prompt('beta: unrelated');
    b.write('beta.ts', 'export const beta = 2;\n');
    const shared = path.join(ws, 'shared.txt');
    const notes = path.join(ws, 'notes.md');

    const plan = cliJson<PlanOut>(['plan', '--to', target, '--path', 'shared.txt'], { store, cwd: ws });
    assert.deepEqual(
      plan.files.map((f) => [f.path, f.action]),
      [[shared, 'restore']],
    );
    assert.deepEqual(plan.leftAlone, [{ path: notes, reason: 'outside-selection', sessions: ['sess-alpha'], with: [shared] }]);
    const text = cli(['plan', '--to', target, '--path', 'shared.txt'], { store, cwd: ws });
    assert.match(
      text.stdout,
      new RegExp(`left alone: ${escape(notes)} — changed by the same call as a chosen file.*\\(${escape(shared)}\\)`),
    );
    assert.match(text.stdout, /without --path\), or add --path <file> for each/);

    const r = cliJson<RewindOut>(['rewind', '--to', target, '--path', 'shared.txt'], { store, cwd: ws });
    assert.equal(r.status, 'done');
    assert.deepEqual(r.leftAlone, plan.leftAlone);
    assert.equal(fs.readFileSync(shared, 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(fs.readFileSync(notes, 'utf8'), '# notes uno\n', 'the other file stays as the call made it');

    // Both files chosen: nothing is left alone.
    assert.equal(cliJson<RewindOut>(['rewind', '--to', r.checkpoint], { store }).status, 'done');
    const both = cliJson<PlanOut>(['plan', '--to', target, '--path', 'shared.txt', '--path', 'notes.md'], { store, cwd: ws });
    assert.deepEqual(both.leftAlone, []);
    assert.equal(both.files.length, 2);
  });

  it('a step rewind of one file (--before-call with --path) names the file the same call also changed', () => {
    const { ws, store, a } = repo();
    a.prompt('alpha');
    a.bash("sed -i 's/one/uno/' shared.txt notes.md", () => {
      fs.writeFileSync(path.join(ws, 'shared.txt'), 'uno\ntwo\nthree\n');
      fs.writeFileSync(path.join(ws, 'notes.md'), '# notes uno\n');
    });
    const call = fs
      .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((r) => r.t === 'call' && r.tool === 'Bash').call as string;
    const plan = cliJson<PlanOut>(['plan', '--before-call', call, '--path', 'notes.md'], { store, cwd: ws });
    assert.deepEqual(
      plan.files.map((f) => path.basename(f.path)),
      ['notes.md'],
    );
    assert.deepEqual(plan.leftAlone, [
      { path: path.join(ws, 'shared.txt'), reason: 'outside-selection', sessions: ['sess-alpha'], with: [path.join(ws, 'notes.md')] },
    ]);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
