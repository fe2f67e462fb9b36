// Attempts through the built CLI: `diff <A> <B>` between checkpoints, `now` and `attempt:<n>`, and
// taking a file from an earlier attempt with `rewind --to attempt:<n> --path`, undoable — the
// sequence "prompt, rewind, prompt differently, compare the two attempts, take one file from the
// first, undo", fed through the real hook path.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

interface DiffJson {
  from: string;
  to: string;
  files: { path: string; change: string; plus: number; minus: number; binary?: boolean; tooLarge?: boolean }[];
}
interface Checkpoint {
  id: string;
  kind: string;
  label: string;
}
interface AttemptJson {
  n: number;
  current: boolean;
  parent: number | null;
  branchedAt: string | null;
  end: string | null;
  prompts: { label: string }[];
  files: string[];
}

const read = (p: string) => fs.readFileSync(p, 'utf8');

/** A prompt through the real hook, returning what it prints (the re-grounding context after a rewind). */
function promptOutput(s: ClaudeSession, text: string): string {
  const r = cli(['hook', 'claude'], {
    store: s.store,
    input: JSON.stringify({
      session_id: s.session,
      transcript_path: s.transcript,
      cwd: s.cwd,
      hook_event_name: 'UserPromptSubmit',
      prompt: text,
    }),
  });
  assert.equal(r.status, 0);
  return r.stdout;
}

/** Prompt, rewind, prompt differently: two attempts at one task. */
function twoAttempts() {
  const { ws, store } = sandbox();
  fs.writeFileSync(path.join(ws, 'app.js'), 'line 1\nline 2\n');
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('add a greeting');
  const first = cliJson<Checkpoint[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!;
  s.edit('app.js', 'line 2\n', 'line 2\nhello\n');
  s.write('greet.js', 'export const greet = () => "hi";\n');
  const rewound = cliJson<{ status: string; checkpoint: string }>(['rewind', '--to', first.id], { store });
  assert.equal(rewound.status, 'done');
  // The first prompt after the rewind is told which files were rewound (the re-grounding), once.
  assert.match(promptOutput(s, 'add a farewell instead'), /Files were rewound/);
  s.edit('app.js', 'line 1\n', 'bye\nline 1\n');
  s.write('bye.js', 'export const bye = 1;\n');
  return { ws, store, s, first, rewound };
}

describe('attempts and diff (CLI)', () => {
  it('the sequence: prompt, rewind, prompt differently, compare the two attempts, take one file from the first, undo', () => {
    const { ws, store, first, rewound } = twoAttempts();
    const app = path.join(ws, 'app.js');
    const greet = path.join(ws, 'greet.js');
    const bye = path.join(ws, 'bye.js');

    const attempts = cliJson<AttemptJson[]>(['attempts'], { store });
    assert.deepEqual(
      attempts.map((a) => [a.n, a.current, a.parent, a.branchedAt, a.end, a.prompts.map((p) => p.label)]),
      [
        [1, false, null, null, rewound.checkpoint, ['add a greeting']],
        [2, true, 1, first.id, null, ['add a farewell instead']],
      ],
    );
    assert.deepEqual(attempts[0]!.files, [app, greet].sort());

    // Compare: what takes attempt 1's files to attempt 2's.
    const d = cliJson<DiffJson>(['diff', 'attempt:1', 'attempt:2'], { store });
    assert.equal(d.from, 'attempt:1');
    assert.equal(d.to, 'attempt:2');
    assert.deepEqual(d.files, [
      { path: app, change: 'modified', plus: 1, minus: 1 },
      { path: bye, change: 'added', plus: 1, minus: 0 },
      { path: greet, change: 'deleted', plus: 0, minus: 1 },
    ]);
    // The other way round, the opposite changes.
    const back = cliJson<DiffJson>(['diff', 'attempt:2', 'attempt:1'], { store });
    assert.deepEqual(
      back.files.map((f) => [path.basename(f.path), f.change, f.plus, f.minus]),
      [
        ['app.js', 'modified', 1, 1],
        ['bye.js', 'deleted', 0, 1],
        ['greet.js', 'added', 1, 0],
      ],
    );
    // The attempt in progress is what is on disk: nothing differs from now.
    assert.deepEqual(cliJson<DiffJson>(['diff', 'attempt:2', 'now'], { store }).files, []);
    const text = cli(['diff', 'attempt:1', 'now'], { store });
    assert.equal(text.status, 0);
    assert.match(text.stdout, /modified +\+1 -1 +.*app\.js/);

    // Take one file from the first attempt: the same plan, safety check, write and undo as every rewind.
    const plan = cliJson<{ target: string; files: { path: string; action: string }[] }>(['plan', '--to', 'attempt:1', '--path', greet], {
      store,
    });
    assert.equal(plan.target, rewound.checkpoint);
    assert.deepEqual(
      plan.files.map((f) => [f.path, f.action]),
      [[greet, 'recreate']],
    );
    const take = cliJson<{ status: string; checkpoint: string; undo: string; files: { path: string }[] }>(
      ['rewind', '--to', 'attempt:1', '--path', 'greet.js'],
      { store, cwd: ws },
    );
    assert.equal(take.status, 'done');
    assert.deepEqual(
      take.files.map((f) => f.path),
      [greet],
    );
    assert.equal(read(greet), 'export const greet = () => "hi";\n');
    // Only that file: attempt 2's other work stays, and taking a file starts no attempt.
    assert.equal(read(app), 'bye\nline 1\nline 2\n');
    assert.equal(read(bye), 'export const bye = 1;\n');
    const after = cliJson<AttemptJson[]>(['attempts'], { store });
    assert.deepEqual(
      after.map((a) => [a.n, a.current]),
      [
        [1, false],
        [2, true],
      ],
    );

    // Undo the take.
    const undo = cliJson<{ status: string }>(['rewind', '--to', take.checkpoint], { store });
    assert.equal(undo.status, 'done');
    assert.equal(fs.existsSync(greet), false);
    assert.equal(read(app), 'bye\nline 1\nline 2\n');
    assert.deepEqual(
      cliJson<AttemptJson[]>(['attempts'], { store }).map((a) => [a.n, a.current]),
      [
        [1, false],
        [2, true],
      ],
    );
    assert.equal(cli(['verify'], { store }).status, 0);
  });

  it('switching to an earlier attempt (rewind to its end) and back moves between the two, refusing over the user’s own edits', () => {
    const { ws, store, s } = twoAttempts();
    const app = path.join(ws, 'app.js');
    const sw = cliJson<{ status: string; checkpoint: string }>(['rewind', '--to', 'attempt:1'], { store });
    assert.equal(sw.status, 'done');
    assert.equal(read(app), 'line 1\nline 2\nhello\n');
    assert.equal(fs.existsSync(path.join(ws, 'bye.js')), false);
    const tree = cliJson<AttemptJson[]>(['attempts'], { store });
    assert.deepEqual(
      tree.map((a) => [a.n, a.current, a.end]),
      [
        [1, true, null],
        [2, false, sw.checkpoint],
      ],
    );
    // The agent's next prompt is told which files now hold the other attempt's content.
    const told = promptOutput(s, 'continue');
    assert.ok(told.includes(`${app} (now as it was at the end of attempt 1`), told);
    // The user edits a file attempt 2 also changed: switching back is refused, nothing written.
    fs.writeFileSync(app, 'mine\n');
    const refused = cli(['rewind', '--to', 'attempt:2'], { store });
    assert.equal(refused.status, 3);
    assert.match(refused.stderr, /app\.js/);
    assert.equal(read(app), 'mine\n');
    // Put back what attempt 1 had there: switching back to attempt 2 now goes through.
    fs.writeFileSync(app, 'line 1\nline 2\nhello\n');
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', 'attempt:2'], { store }).status, 'done');
    assert.equal(read(app), 'bye\nline 1\nline 2\n');
    assert.deepEqual(
      cliJson<AttemptJson[]>(['attempts'], { store }).map((a) => [a.n, a.current]),
      [
        [1, false],
        [2, true],
      ],
    );
    // The attempt in progress is no point to take files from.
    const current = cli(['plan', '--to', 'attempt:2'], { store });
    assert.equal(current.status, 1);
    assert.match(current.stderr, /attempt in progress/);
  });

  it('diff between checkpoints and now, limited with --path; binary and too-large files are marked', () => {
    const { ws, store } = sandbox();
    fs.mkdirSync(store, { recursive: true });
    const s = new ClaudeSession(store, ws);
    s.start();
    fs.writeFileSync(path.join(store, 'config.json'), JSON.stringify({ maxFileBytes: 1000 }));
    s.prompt('make files');
    const [, p] = cliJson<Checkpoint[]>(['checkpoints'], { store });
    s.write('notes.txt', 'a\nb\n');
    s.write('image.bin', Buffer.from([0, 1, 2, 3]));
    s.write('big.txt', 'x'.repeat(2000));
    s.prompt('next');
    const later = cliJson<Checkpoint[]>(['checkpoints'], { store }).pop()!;
    fs.chmodSync(path.join(ws, 'notes.txt'), 0o755);

    const d = cliJson<DiffJson>(['diff', p!.id, later.id], { store });
    assert.deepEqual(d.files, [
      { path: path.join(ws, 'big.txt'), change: 'added', plus: 0, minus: 0, tooLarge: true },
      { path: path.join(ws, 'image.bin'), change: 'added', plus: 0, minus: 0, binary: true },
      { path: path.join(ws, 'notes.txt'), change: 'added', plus: 2, minus: 0 },
    ]);
    // The disk now: only the mode changed since the later checkpoint.
    assert.deepEqual(cliJson<DiffJson>(['diff', later.id, 'now'], { store }).files, [
      { path: path.join(ws, 'notes.txt'), change: 'mode', plus: 0, minus: 0 },
    ]);
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'a\nc\n');
    const only = cliJson<DiffJson>(['diff', 'now', p!.id, '--path', path.join(ws, 'notes.txt')], { store });
    assert.deepEqual(only, { from: 'now', to: p!.id, files: [{ path: path.join(ws, 'notes.txt'), change: 'deleted', plus: 0, minus: 2 }] });
  });

  it('exit codes: an unknown point is exit 1 naming it; fewer than two points is exit 2', () => {
    const { store } = twoAttempts();
    for (const bad of ['nosuchcheckpoint', 'attempt:9', 'attempt:x']) {
      const r = cli(['diff', bad, 'now'], { store });
      assert.equal(r.status, 1, bad);
      assert.ok(r.stderr.includes(`"${bad}"`), r.stderr);
      assert.match(r.stderr, /agent-rewind checkpoints/);
      assert.equal(r.stdout, '');
    }
    for (const args of [['diff'], ['diff', 'now'], ['diff', 'now', '--json']]) {
      const r = cli(args, { store });
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, /agent-rewind diff <A> <B>/);
    }
    const unknownPath = cli(['diff', 'attempt:1', 'now', '--path', '/nowhere/x.txt'], { store });
    assert.equal(unknownPath.status, 1);
    assert.match(unknownPath.stderr, /\/nowhere\/x\.txt/);
    const unknownTarget = cli(['rewind', '--to', 'attempt:7', '--path', 'x'], { store });
    assert.equal(unknownTarget.status, 1);
    assert.match(unknownTarget.stderr, /"attempt:7"/);
  });
});

describe('one attempt on every surface (CLI)', () => {
  it('rewound at its third prompt: attempt 1 counts its own work from there; a take is labelled as one; plan names the attempt', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('Write a');
    s.write('a.txt', 'a1\n');
    s.prompt('Write b');
    s.write('b.txt', 'b1\n');
    s.prompt('Also push it, then change a and write c');
    s.edit('a.txt', 'a1', 'a3');
    s.write('c.txt', 'c3\n');
    const p3 = cliJson<Checkpoint[]>(['checkpoints'], { store }).filter((c) => c.kind === 'prompt')[2]!;
    cliJson(['rewind', '--to', p3.id], { store });
    promptOutput(s, 'Write d instead');
    s.write('d.txt', 'd1\n');

    const [one, two] = cliJson<AttemptJson[]>(['attempts'], { store });
    assert.deepEqual(
      one!.prompts.map((p) => p.label),
      ['Also push it, then change a and write c'],
    );
    assert.deepEqual(one!.files, [path.join(ws, 'a.txt'), path.join(ws, 'c.txt')]);
    assert.deepEqual(
      two!.prompts.map((p) => p.label),
      ['Write d instead'],
    );
    const text = cli(['attempts'], { store });
    assert.match(text.stdout, /^attempt:1 .*; 1 prompt, 2 files;/m);

    const plan = cli(['plan', '--to', 'attempt:1', '--path', path.join(ws, 'c.txt')], { store, cwd: ws });
    assert.equal(plan.status, 0, plan.stderr);
    assert.match(plan.stdout.split('\n')[0]!, /^Rewind to the end of attempt 1 \(left \d{4}-\d\d-\d\dT[^)]+\)$/);
    const take = cliJson<{ checkpoint: string }>(['rewind', '--to', 'attempt:1', '--path', path.join(ws, 'c.txt')], { store, cwd: ws });
    assert.equal(read(path.join(ws, 'c.txt')), 'c3\n');
    const cps = cliJson<Checkpoint[]>(['checkpoints'], { store });
    assert.equal(cps.find((c) => c.id === take.checkpoint)!.label, 'Before taking files from Attempt 1');
    assert.match(cli(['checkpoints'], { store }).stdout, /Before taking files from Attempt 1$/m);
  });
});
