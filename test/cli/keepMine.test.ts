// Keep mine and hunks through the built CLI on real files: the agent edits lines 40–45 of a file
// through the real hook path, the user edits the disk after it, and `rewind --keep-mine` reverts the
// agent's lines and keeps the user's byte for byte; overlapping edits are a conflict named in the
// plan (exit 3, nothing written); `--hunks` writes only the chosen hunks; undo restores the exact
// bytes; binary and too-large files and a mode change refuse with their reason; CRLF and a missing
// final newline survive.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox, snapshotTree } from '../helpers/tmp';

interface HunkOut {
  id: string;
  from: [number, number];
  to: [number, number];
  plus: number;
  minus: number;
}
interface PlanOut {
  files: { path: string; action: string; hunks?: HunkOut[] }[];
  blocked: { path: string; reason: string; merge?: string; conflicts?: { from: [number, number] }[] }[];
}

const numbered = (n: number, eol = '\n', prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}${eol}`);

/** A 60-line file at the prompt checkpoint; the agent then rewrites lines 40–45. */
function scenario(opts: { eol?: string; finalNewline?: boolean } = {}) {
  const eol = opts.eol ?? '\n';
  const { ws, store } = sandbox();
  const file = path.join(ws, 'app.txt');
  const lines = numbered(60, eol);
  if (opts.finalNewline === false) lines[59] = lines[59]!.slice(0, -eol.length);
  const original = lines.join('');
  fs.writeFileSync(file, original);
  const s = new ClaudeSession(store, ws, 'sess-keep');
  s.start();
  s.prompt('change the middle');
  const target = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!.id;
  const agent = [...lines];
  for (let i = 39; i < 45; i++) agent[i] = `agent ${i + 1}${eol}`;
  s.write('app.txt', agent.join(''));
  return { ws, store, file, target, original, lines, agent, eol };
}

describe('rewind --keep-mine: a three-way merge for a file the user changed after the agent', () => {
  it('user edits lines 1–3, the agent edited 40–45: the plan says clean, the rewind reverts 40–45 and keeps 1–3 byte for byte', () => {
    const { store, file, target, lines, agent } = scenario();
    const mine = [...agent];
    for (let i = 0; i < 3; i++) mine[i] = `mine ${i + 1}\n`;
    fs.writeFileSync(file, mine.join(''));

    const plan = cliJson<PlanOut>(['plan', '--to', target], { store });
    assert.deepEqual(plan.blocked, [{ path: file, reason: 'modified-outside', merge: 'clean' }]);
    // Hunks between the disk now and the target: the user's lines and the agent's.
    assert.deepEqual(
      plan.files[0]!.hunks!.map((h) => [h.from, h.to, h.plus, h.minus]),
      [
        [[1, 3], [1, 3], 3, 3],
        [[40, 6], [40, 6], 6, 6],
      ],
    );

    const refused = cli(['rewind', '--to', target], { store });
    assert.equal(refused.status, 3);
    assert.match(refused.stderr, /--keep-mine merges it cleanly/);
    assert.match(refused.stderr, /agent-rewind rewind --to \S+ --keep-mine/);

    const r = cliJson<{ status: string; undo: string; files: { path: string; ok: boolean }[] }>(['rewind', '--to', target, '--keep-mine'], {
      store,
    });
    assert.equal(r.status, 'done');
    assert.deepEqual(
      r.files.map((f) => [f.path, f.ok]),
      [[file, true]],
    );
    const want = [...lines];
    for (let i = 0; i < 3; i++) want[i] = `mine ${i + 1}\n`;
    assert.equal(fs.readFileSync(file, 'utf8'), want.join(''));
    assert.equal(cli(['verify'], { store }).status, 0);

    // Undo brings back the exact bytes before the rewind.
    const undo = cli(r.undo.split(' ').slice(1), { store });
    assert.equal(undo.status, 0, undo.stderr);
    assert.equal(fs.readFileSync(file, 'utf8'), mine.join(''));
  });

  it('the user edit recorded at a later prompt (your-edit) merges the same way: base is what the agent left', () => {
    const { store, file, target, lines, agent } = scenario();
    const mine = [...agent];
    mine[2] = 'mine 3\n';
    fs.writeFileSync(file, mine.join(''));
    new ClaudeSession(store, path.dirname(file), 'sess-keep').prompt('thanks, go on');
    const plan = cliJson<PlanOut>(['plan', '--to', target], { store });
    assert.deepEqual(
      plan.blocked.map((b) => [b.path, b.reason, b.merge]),
      [[file, 'your-edit', 'clean']],
    );
    const r = cli(['rewind', '--to', target, '--keep-mine'], { store });
    assert.equal(r.status, 0, r.stderr);
    const want = [...lines];
    want[2] = 'mine 3\n';
    assert.equal(fs.readFileSync(file, 'utf8'), want.join(''));
  });

  it('both touch line 40: a conflict — exit 3, nothing written, the plan and the message name the range', () => {
    const { ws, store, file, target, agent } = scenario();
    const mine = [...agent];
    mine[39] = 'mine 40\n';
    fs.writeFileSync(file, mine.join(''));
    const before = snapshotTree(ws);

    const plan = cliJson<PlanOut>(['plan', '--to', target], { store });
    assert.deepEqual(plan.blocked, [{ path: file, reason: 'modified-outside', merge: 'conflict', conflicts: [{ from: [40, 6] }] }]);

    const r = cli(['rewind', '--to', target, '--keep-mine'], { store });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /cannot merge it: your changes and the agent’s touch the same lines, at lines 40–45/);
    assert.deepEqual(snapshotTree(ws), before);
    const refused = cli(['rewind', '--to', target, '--keep-mine', '--json'], { store });
    assert.equal(refused.status, 3);
    const json = JSON.parse(refused.stdout) as { status: string; blocked: PlanOut['blocked'] };
    assert.equal(json.status, 'refused');
    assert.deepEqual(json.blocked[0]!.conflicts, [{ from: [40, 6] }]);
    assert.deepEqual(snapshotTree(ws), before);
  });

  it('CRLF line ends and a missing final newline survive the merge', () => {
    const { store, file, target, lines, agent } = scenario({ eol: '\r\n', finalNewline: false });
    const mine = [...agent];
    mine[1] = 'mine 2\r\n';
    mine[59] = 'line 60 and mine'; // still no final newline
    fs.writeFileSync(file, mine.join(''));
    const r = cli(['rewind', '--to', target, '--keep-mine'], { store });
    assert.equal(r.status, 0, r.stderr);
    const want = [...lines];
    want[1] = 'mine 2\r\n';
    want[59] = 'line 60 and mine';
    assert.deepEqual(fs.readFileSync(file), Buffer.from(want.join('')));
  });

  it('a binary file refuses with its reason, and so does a change of mode', () => {
    const { ws, store } = sandbox();
    const bin = path.join(ws, 'data.bin');
    const script = path.join(ws, 'run.sh');
    fs.writeFileSync(bin, Buffer.from([1, 0, 2, 10, 3, 10]));
    fs.writeFileSync(script, 'echo one\necho two\n', { mode: 0o644 });
    const s = new ClaudeSession(store, ws, 'sess-bin');
    s.start();
    s.prompt('go');
    const target = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!.id;
    s.write('data.bin', Buffer.from([1, 0, 2, 10, 9, 10]));
    s.write('run.sh', 'echo one\necho TWO\n');
    fs.writeFileSync(bin, Buffer.from([7, 0, 2, 10, 9, 10]));
    fs.chmodSync(script, 0o755);
    const before = snapshotTree(ws);
    const plan = cliJson<PlanOut>(['plan', '--to', target], { store });
    assert.deepEqual(
      plan.blocked.map((b) => [path.basename(b.path), b.merge]),
      [
        ['data.bin', undefined],
        ['run.sh', undefined],
      ],
    );
    const r = cli(['rewind', '--to', target, '--keep-mine'], { store });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /data\.bin .*a binary file never merges/);
    assert.match(r.stderr, /run\.sh .*a change of mode never merges/);
    assert.deepEqual(snapshotTree(ws), before);
  });

  it('a file the user made larger than the size limit refuses a --keep-mine rewind with its reason (a plain rewind leaves it as it is)', () => {
    const { ws, store } = sandbox();
    fs.mkdirSync(store, { recursive: true });
    const big = path.join(ws, 'big.txt');
    fs.writeFileSync(big, 'a\n'.repeat(10));
    const s = new ClaudeSession(store, ws, 'sess-big');
    s.start();
    fs.writeFileSync(path.join(store, 'config.json'), JSON.stringify({ maxFileBytes: 100 }));
    s.prompt('go');
    const target = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!.id;
    s.write('big.txt', 'b\n'.repeat(10));
    fs.writeFileSync(big, 'b\n'.repeat(10) + 'mine\n'.repeat(40));
    const plan = cliJson<{ notRestorable: { path: string; reason: string }[] }>(['plan', '--to', target], { store });
    assert.deepEqual(plan.notRestorable, [{ path: big, reason: 'too-large' }]);
    const before = snapshotTree(ws);
    const r = cli(['rewind', '--to', target, '--keep-mine'], { store });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /big\.txt .*too large to merge/);
    assert.deepEqual(snapshotTree(ws), before);
  });
});

describe('rewind --hunks: only the chosen hunks of the chosen files', () => {
  it('the chosen hunk takes the target lines; the others and every other file stay as they were; undo restores the bytes', () => {
    const { ws, store, file, target, lines } = scenario();
    const s = new ClaudeSession(store, ws, 'sess-keep');
    s.edit('app.txt', 'line 2\n', 'agent 2\n');
    s.write('other.txt', 'new file\n');
    const now = fs.readFileSync(file, 'utf8');
    const plan = cliJson<PlanOut>(['plan', '--to', target], { store });
    const app = plan.files.find((f) => f.path === file)!;
    assert.deepEqual(
      app.hunks!.map((h) => [h.from, h.to, h.plus, h.minus]),
      [
        [[2, 1], [2, 1], 1, 1],
        [[40, 6], [40, 6], 6, 6],
      ],
    );
    // The same plan gives the same ids.
    assert.deepEqual(cliJson<PlanOut>(['plan', '--to', target], { store }).files.find((f) => f.path === file)!.hunks, app.hunks);

    const r = cliJson<{ status: string; undo: string; files: { path: string }[] }>(
      ['rewind', '--to', target, '--hunks', `app.txt=${app.hunks![1]!.id}`],
      { store, cwd: ws },
    );
    assert.equal(r.status, 'done');
    assert.deepEqual(
      r.files.map((f) => f.path),
      [file],
    );
    const want = [...lines];
    want[1] = 'agent 2\n';
    assert.equal(fs.readFileSync(file, 'utf8'), want.join(''));
    assert.equal(fs.readFileSync(path.join(ws, 'other.txt'), 'utf8'), 'new file\n');

    assert.equal(cli(r.undo.split(' ').slice(1), { store }).status, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), now);
  });

  it('an unknown hunk id or a file with nothing to rewind is an error naming it, nothing written', () => {
    const { ws, store, target } = scenario();
    fs.writeFileSync(path.join(ws, 'untouched.txt'), 'x\n');
    const before = snapshotTree(ws);
    const bad = cli(['rewind', '--to', target, '--hunks', `${path.join(ws, 'app.txt')}=deadbeef`], { store });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /app\.txt has no hunk deadbeef/);
    const usage = cli(['rewind', '--to', target, '--hunks', 'app.txt'], { store });
    assert.equal(usage.status, 2);
    assert.deepEqual(snapshotTree(ws), before);
  });

  it('with --keep-mine on a file the user changed: hunks clear of the user lines are taken, one touching them refuses', () => {
    const { ws, store, file, target, agent, lines } = scenario();
    const mine = [...agent];
    mine[0] = 'mine 1\n';
    fs.writeFileSync(file, mine.join(''));
    const hunks = cliJson<PlanOut>(['plan', '--to', target], { store }).files[0]!.hunks!;
    assert.equal(hunks.length, 2);
    const before = snapshotTree(ws);
    const touching = cli(['rewind', '--to', target, '--keep-mine', '--hunks', `${file}=${hunks[0]!.id}`], { store });
    assert.equal(touching.status, 3);
    assert.match(touching.stderr, /chosen hunks at line 1 would overwrite your changed lines/);
    assert.deepEqual(snapshotTree(ws), before);
    const ok = cli(['rewind', '--to', target, '--keep-mine', '--hunks', `${file}=${hunks[1]!.id}`], { store });
    assert.equal(ok.status, 0, ok.stderr);
    const want = [...lines];
    want[0] = 'mine 1\n';
    assert.equal(fs.readFileSync(file, 'utf8'), want.join(''));
  });
});

describe('the agent is told', () => {
  it('after --keep-mine, its next prompt names the file as mixing the point’s lines with the user’s', () => {
    const { store, file, target, agent } = scenario();
    const mine = [...agent];
    mine[0] = 'mine 1\n';
    fs.writeFileSync(file, mine.join(''));
    assert.equal(cli(['rewind', '--to', target, '--keep-mine'], { store }).status, 0);
    const r = cli(['hook', 'claude'], {
      store,
      input: JSON.stringify({
        session_id: 'sess-keep',
        transcript_path: path.join(path.dirname(store), 'sess-keep.jsonl'),
        cwd: path.dirname(file),
        hook_event_name: 'UserPromptSubmit',
        prompt: 'go on',
        prompt_id: 'p-after',
      }),
    });
    assert.equal(r.status, 0, r.stderr);
    const text = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    assert.ok(
      text.includes(`- ${file} (rewound only in part: it now mixes lines as they were before the prompt "change the middle"`),
      text,
    );
  });
});
