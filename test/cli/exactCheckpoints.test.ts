// "A checkpoint is what was on disk" and "your edits stay yours", through real hook processes and
// the real CLI: the user's edit between turns comes back when rewinding to the prompt after it
// (Edit tool and shell command); an unrecorded change in a gap makes the path uncertain; the
// user's line stays protected through "Rewind anyway" and Undo; a chmod and a retargeted symlink
// are rewound; and .git is byte- and mtime-identical after plan, rewind and undo.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();

type Cp = { id: string; kind: string; label: string };
const prompts = (store: string) => cliJson<Cp[]>(['checkpoints'], { store }).filter((c) => c.kind === 'prompt');
const read = (ws: string, rel: string) => fs.readFileSync(path.join(ws, rel), 'utf8');

function repo(): { ws: string; store: string } {
  const { ws, store } = sandbox();
  git(ws, 'init', '-q');
  fs.writeFileSync(path.join(ws, 'README.md'), 'hello\n');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  return { ws, store };
}

describe("the user's edit between turns is on the timeline", () => {
  for (const via of ['Edit tool', 'shell command'] as const) {
    it(`user edit, agent edit (${via}), rewind to the prompt in between: the user's line comes back`, () => {
      const { ws, store } = repo();
      const s = new ClaudeSession(store, ws);
      s.start();
      s.prompt('make a config');
      s.write('config.txt', 'port=1\n');
      fs.appendFileSync(path.join(ws, 'config.txt'), 'mine=yes\n'); // the user, in the editor, saved
      s.prompt('bump the port');
      if (via === 'Edit tool') s.edit('config.txt', 'port=1', 'port=2');
      else
        s.bash("sed -i 's/port=1/port=2/' config.txt", () =>
          fs.writeFileSync(path.join(ws, 'config.txt'), read(ws, 'config.txt').replace('port=1', 'port=2')),
        );
      assert.equal(read(ws, 'config.txt'), 'port=2\nmine=yes\n');

      const [first, bump] = prompts(store);
      // Rewinding to before the user's edit reverts their line: said (the agent's content is on disk), not refused.
      const plan = cliJson<{ warnings: { path: string; reason: string }[]; blocked: unknown[] }>(['plan', '--to', first!.id], { store });
      assert.deepEqual(
        plan.warnings.map((w) => [path.basename(w.path), w.reason]),
        [['config.txt', 'observed']],
      );
      assert.deepEqual(plan.blocked, []);
      assert.match(
        cli(['plan', '--to', first!.id], { store }).stdout,
        /warning: .*config\.txt your own edits after this point will be reverted/,
      );

      const r = cliJson<{ status: string; checkpoint: string }>(['rewind', '--to', bump!.id], { store });
      assert.equal(r.status, 'done');
      assert.equal(read(ws, 'config.txt'), 'port=1\nmine=yes\n', "the user's line is part of that checkpoint");
      // Now the disk holds the user's content: a rewind further back is refused, naming it; the undo is not.
      const back = cliJson<{ blocked: { reason: string; edit?: { how: string } }[] }>(['plan', '--to', first!.id], { store });
      assert.deepEqual(
        back.blocked.map((b) => [b.reason, b.edit?.how]),
        [['your-edit', 'observed']],
      );
      assert.equal(cliJson<{ status: string }>(['rewind', '--to', r.checkpoint], { store }).status, 'done');
      assert.equal(read(ws, 'config.txt'), 'port=2\nmine=yes\n');
      assert.equal(cli(['verify'], { store }).status, 0);
    });
  }
});

describe('uncertain paths', () => {
  it('a change nobody recorded, inside a turn, makes the path uncertain: refused (exit 3), and --force writes the later version', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('work');
    s.write('a.txt', 'agent one\n');
    s.bash('git push origin main'); // irreversible: a checkpoint right before it
    fs.writeFileSync(path.join(ws, 'a.txt'), 'the user, mid-turn\n'); // no boundary sees this
    s.edit('a.txt', 'the user, mid-turn', 'agent two');
    const push = cliJson<Cp[]>(['checkpoints'], { store }).find((c) => c.kind === 'before-tool')!;

    const plan = cliJson<{ uncertain: { path: string; reason: string; recorded: string; found: string }[] }>(['plan', '--to', push.id], {
      store,
    });
    assert.deepEqual(
      plan.uncertain.map((u) => [path.basename(u.path), u.reason]),
      [['a.txt', 'unrecorded-change']],
    );
    assert.match(plan.uncertain[0]!.recorded, /^\d{4}-\d\d-\d\dT/);
    const refused = cli(['rewind', '--to', push.id], { store });
    assert.equal(refused.status, 3, refused.stderr);
    assert.match(refused.stderr, /unrecorded-change: .*a\.txt/);
    assert.equal(read(ws, 'a.txt'), 'agent two\n', 'nothing written');
    const forced = cliJson<{ status: string; undo: string }>(['rewind', '--to', push.id, '--force'], { store });
    assert.equal(forced.status, 'done');
    assert.equal(read(ws, 'a.txt'), 'the user, mid-turn\n', 'the later evidence: the user’s version');
    assert.equal(cli(forced.undo.split(' ').slice(1), { store }).status, 0);
    assert.equal(read(ws, 'a.txt'), 'agent two\n');
  });
});

describe('your edits stay yours through Rewind anyway and Undo', () => {
  it('after a forced rewind and its undo, a rewind to an earlier point refuses on the user’s line and names how it came back', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('first');
    s.write('todo.ts', 'export const todos = [];\n');
    s.prompt('second');
    s.edit('todo.ts', 'export const todos = [];', 'export const todos: string[] = [];');
    fs.appendFileSync(path.join(ws, 'todo.ts'), '// my own line\n'); // the user saves; no boundary yet
    const [first, second] = prompts(store);

    const refused = cli(['rewind', '--to', second!.id], { store });
    assert.equal(refused.status, 3);
    assert.match(refused.stderr, /modified-outside: .*todo\.ts/);
    const forced = cliJson<{ status: string; checkpoint: string }>(['rewind', '--to', second!.id, '--force'], { store });
    assert.equal(forced.status, 'done');
    assert.doesNotMatch(read(ws, 'todo.ts'), /my own line/);
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', forced.checkpoint], { store }).status, 'done'); // Undo
    assert.match(read(ws, 'todo.ts'), /my own line/, 'Undo brings the line back byte for byte');

    // The store's latest record is now the undo's own snapshot; the line is still the user's.
    for (const target of [first!.id, second!.id]) {
      const plan = cliJson<{ blocked: { path: string; reason: string; edit?: { how: string; restored?: { undo: boolean } } }[] }>(
        ['plan', '--to', target],
        { store },
      );
      assert.deepEqual(
        plan.blocked.map((b) => [path.basename(b.path), b.reason, b.edit?.how, b.edit?.restored?.undo]),
        [['todo.ts', 'your-edit', 'kept', true]],
        `plan to ${target}`,
      );
      const r = cli(['rewind', '--to', target], { store });
      assert.equal(r.status, 3, 'refused, every time');
      assert.match(r.stderr, /your-edit: .*todo\.ts — your own edit, kept by the rewind at .* and restored by Undo at /);
    }
    assert.match(read(ws, 'todo.ts'), /my own line/);
    // Forced once more: a copy is kept, and the next undo makes it the user's again.
    const again = cliJson<{ checkpoint: string }>(['rewind', '--to', first!.id, '--force'], { store });
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', again.checkpoint], { store }).status, 'done');
    assert.match(read(ws, 'todo.ts'), /my own line/);
    assert.equal(cli(['rewind', '--to', second!.id], { store }).status, 3);
    assert.equal(cli(['verify'], { store }).status, 0);
  });

  it("the user's edit seen at a turn boundary is refused when a rewind would overwrite it", () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('first');
    s.write('notes.md', 'agent notes\n');
    fs.writeFileSync(path.join(ws, 'notes.md'), 'my rewrite\n');
    s.prompt('second'); // observes the user's rewrite
    const [first] = prompts(store);
    const plan = cliJson<{ blocked: { reason: string; edit?: { how: string } }[] }>(['plan', '--to', first!.id], { store });
    assert.deepEqual(
      plan.blocked.map((b) => [b.reason, b.edit?.how]),
      [['your-edit', 'observed']],
    );
    assert.equal(cli(['rewind', '--to', first!.id], { store }).status, 3);
    assert.equal(read(ws, 'notes.md'), 'my rewrite\n');
  });
});

describe('modes and symlinks', () => {
  it('chmod +x through Bash is recorded by shell capture and rewound', () => {
    const { ws, store } = repo();
    fs.writeFileSync(path.join(ws, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o644 });
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'script');
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('make it runnable');
    s.bash('chmod +x run.sh', () => fs.chmodSync(path.join(ws, 'run.sh'), 0o755));
    const [p] = prompts(store);
    assert.equal(cliJson<{ files: unknown[] }>(['plan', '--to', p!.id], { store }).files.length, 1);
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', p!.id], { store }).status, 'done');
    assert.equal(fs.statSync(path.join(ws, 'run.sh')).mode & 0o777, 0o644);
  });

  it("the user's chmod between turns is observed: a rewind to the next prompt keeps it", () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('first');
    s.write('tool.sh', '#!/bin/sh\n');
    fs.chmodSync(path.join(ws, 'tool.sh'), 0o755);
    s.prompt('second');
    s.write('tool.sh', '#!/bin/sh\necho two\n');
    fs.chmodSync(path.join(ws, 'tool.sh'), 0o644); // the agent's write (as some tools do) dropped the bit
    s.prompt('third');
    const [, second] = prompts(store);
    cliJson(['rewind', '--to', second!.id, '--force'], { store });
    assert.equal(read(ws, 'tool.sh'), '#!/bin/sh\n');
    assert.equal(fs.statSync(path.join(ws, 'tool.sh')).mode & 0o111, 0o111);
  });

  it('a symlink retargeted by a shell command is rewound as a link to its old target', () => {
    const { ws, store } = repo();
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b\n');
    fs.symlinkSync('a.txt', path.join(ws, 'current'));
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'links');
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('switch');
    s.bash('ln -sfn b.txt current', () => {
      fs.rmSync(path.join(ws, 'current'));
      fs.symlinkSync('b.txt', path.join(ws, 'current'));
    });
    const [p] = prompts(store);
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', p!.id], { store }).status, 'done');
    assert.equal(fs.readlinkSync(path.join(ws, 'current')), 'a.txt');
  });
});

describe('.git is never written', () => {
  it('.git/index and HEAD keep their bytes and mtimes through plan, rewind and undo, with stat-dirty files', () => {
    const { ws, store } = repo();
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(ws, `f${i}.txt`), `${i}\n`);
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'files');
    // Stat-dirty: same content, new mtimes — a plain `git status` would refresh and rewrite the index.
    const later = new Date(Date.now() + 5000);
    for (let i = 0; i < 20; i++) fs.utimesSync(path.join(ws, `f${i}.txt`), later, later);
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('edit');
    s.edit('f1.txt', '1', 'one');
    s.write('new.txt', 'new\n');
    s.bash('echo x >> f2.txt', () => fs.appendFileSync(path.join(ws, 'f2.txt'), 'x\n'));
    const facts = () =>
      ['index', 'HEAD', 'config'].map((f) => {
        const p = path.join(ws, '.git', f);
        const st = fs.statSync(p);
        return [f, fs.readFileSync(p).toString('base64'), st.mtimeMs, st.size];
      });
    const listing = () =>
      execFileSync('find', [path.join(ws, '.git'), '-printf', '%P %s %T@\\n'], { encoding: 'utf8' })
        .split('\n')
        .sort();
    const before = facts();
    const tree = listing();
    const [p] = prompts(store);
    cliJson(['plan', '--to', p!.id], { store });
    const r = cliJson<{ status: string; checkpoint: string }>(['rewind', '--to', p!.id], { store });
    assert.equal(r.status, 'done');
    cliJson(['plan', '--to', r.checkpoint], { store });
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', r.checkpoint], { store }).status, 'done');
    assert.deepEqual(facts(), before, 'index, HEAD, config: same bytes, same mtimes');
    assert.deepEqual(listing(), tree, 'nothing in .git created, removed or touched');
  });
});
