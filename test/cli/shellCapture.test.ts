// Shell-made file changes through the real hook path: a replayed session whose Bash calls modify,
// create, delete and move files (the test makes the changes between PreToolUse and PostToolUse,
// as the command would) rewinds them byte-exact; ignored files stay as they are; the user's own
// edits between commands are not attributed to the agent; a huge workspace turns capture off, visibly.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox, snapshotTree } from '../helpers/tmp';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();

function put(ws: string, rel: string, content: string | Buffer, mode?: number): void {
  const p = path.join(ws, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  if (mode !== undefined) fs.chmodSync(p, mode);
}

type Snap = { t: string; path: string; phase: string; tool?: string; call?: string; hash: string | null };
function snaps(store: string): Snap[] {
  return fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Snap)
    .filter((r) => r.t === 'snap');
}

function checkpoints(store: string) {
  return cliJson<{ id: string; kind: string; label: string; files: number }[]>(['checkpoints'], { store });
}

function workspace(withGit: boolean) {
  const { ws, store } = sandbox();
  if (withGit) git(ws, 'init', '-q');
  put(ws, '.gitignore', 'dist/\n*.log\n');
  put(ws, 'src/app.ts', 'export const app = 1;\n');
  put(ws, 'src/util.ts', 'export const util = 2;\n');
  put(ws, 'src/old-name.ts', 'export const moved = 3;\n');
  put(ws, 'doomed.txt', 'delete me\n');
  put(ws, 'bin/tool.sh', '#!/bin/sh\necho tool\n', 0o755);
  put(ws, 'assets/logo.bin', Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]));
  put(ws, 'dist/bundle.js', 'built\n');
  put(ws, 'debug.log', 'log line 1\n');
  if (withGit) {
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'init');
    put(ws, 'src/util.ts', 'export const util = 2; // dirty, uncommitted\n');
    put(ws, 'notes.md', 'untracked notes\n');
  }
  return { ws, store };
}

/** The command: modifies, creates, deletes, moves; touches ignored files too. */
function bigCommand(ws: string): void {
  put(ws, 'src/app.ts', 'export const app = 100; // changed by sed\n');
  put(ws, 'src/util.ts', 'rewritten\n');
  fs.rmSync(path.join(ws, 'doomed.txt'));
  fs.mkdirSync(path.join(ws, 'src/lib/deep'), { recursive: true });
  fs.renameSync(path.join(ws, 'src/old-name.ts'), path.join(ws, 'src/lib/deep/new-name.ts'));
  put(ws, 'generated/schema.json', '{"v":1}\n');
  put(ws, 'bin/tool.sh', '#!/bin/sh\necho changed\n');
  put(ws, 'assets/logo.bin', Buffer.from([9, 9, 9]));
  put(ws, 'dist/bundle.js', 'rebuilt\n');
  put(ws, 'dist/new-chunk.js', 'chunk\n');
  fs.appendFileSync(path.join(ws, 'debug.log'), 'log line 2\n');
}

const ignoredOnly = (t: Record<string, string>) =>
  Object.fromEntries(Object.entries(t).filter(([k]) => k.startsWith('dist') || k.endsWith('.log')));
const withoutIgnored = (t: Record<string, string>) =>
  Object.fromEntries(Object.entries(t).filter(([k]) => !k.startsWith('dist') && !k.endsWith('.log')));

for (const withGit of [true, false]) {
  describe(`shell capture in ${withGit ? 'a git repository' : 'a plain folder'}`, () => {
    it('rewinds what a Bash command modified, created, deleted and moved, byte-exact; ignored files are left as they are', () => {
      const { ws, store } = workspace(withGit);
      const s = new ClaudeSession(store, ws);
      s.start();
      s.prompt('refactor');
      const before = snapshotTree(ws);
      s.bash("sed -i 's/1/100/' src/app.ts && mv src/old-name.ts src/lib/deep/new-name.ts && rm doomed.txt && npm run build", () =>
        bigCommand(ws),
      );
      const afterCmd = snapshotTree(ws);

      const recorded = snaps(store);
      assert.ok(
        recorded.every((r) => r.tool === 'Bash' && r.call?.startsWith('toolu_')),
        'attributed to the Bash call',
      );
      const paths = [...new Set(recorded.map((r) => path.relative(ws, r.path)))].sort();
      assert.deepEqual(paths, [
        'assets/logo.bin',
        'bin/tool.sh',
        'doomed.txt',
        'generated/schema.json',
        'src/app.ts',
        'src/lib/deep/new-name.ts',
        'src/old-name.ts',
        'src/util.ts',
      ]);
      assert.ok(!recorded.some((r) => r.path.includes('/dist/') || r.path.endsWith('.log')), 'ignored files are never recorded');
      // A move is a delete of the old path and a create of the new one.
      const moved = recorded
        .filter((r) => r.path.endsWith('old-name.ts') || r.path.endsWith('new-name.ts'))
        .map((r) => [path.basename(r.path), r.phase, r.hash === null]);
      assert.deepEqual(moved, [
        ['new-name.ts', 'before', true],
        ['new-name.ts', 'after', false],
        ['old-name.ts', 'before', false],
        ['old-name.ts', 'after', true],
      ]);

      const prompt = checkpoints(store).find((c) => c.kind === 'prompt')!;
      assert.equal(prompt.files, 8);
      const plan = cliJson<{ files: { path: string; action: string }[]; blocked: unknown[] }>(['plan', '--to', prompt.id], { store });
      assert.deepEqual(plan.blocked, []);
      assert.deepEqual(
        plan.files.map((f) => [path.relative(ws, f.path), f.action]),
        [
          ['assets/logo.bin', 'restore'],
          ['bin/tool.sh', 'restore'],
          ['doomed.txt', 'recreate'],
          ['generated/schema.json', 'delete'],
          ['src/app.ts', 'restore'],
          ['src/lib/deep/new-name.ts', 'delete'],
          ['src/old-name.ts', 'recreate'],
          ['src/util.ts', 'restore'],
        ],
      );
      const r = cli(['rewind', '--to', prompt.id, '--json'], { store });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(JSON.parse(r.stdout).files.every((f: { ok: boolean }) => f.ok));
      const now = snapshotTree(ws);
      assert.deepEqual(
        withoutIgnored(now),
        withoutIgnored(before),
        'every non-ignored file is back, byte for byte, and the folders the command made are gone',
      );
      assert.deepEqual(ignoredOnly(now), ignoredOnly(afterCmd), 'ignored files are as the command left them');
      assert.equal(fs.statSync(path.join(ws, 'bin/tool.sh')).mode & 0o777, 0o755, 'still executable');

      // And the rewind can be undone.
      const undo = cli(['rewind', '--to', JSON.parse(r.stdout).checkpoint, '--json'], { store });
      assert.equal(undo.status, 0, undo.stderr);
      assert.deepEqual(withoutIgnored(snapshotTree(ws)), withoutIgnored(afterCmd));
      assert.equal(cli(['verify'], { store }).status, 0);
    });

    it("does not attribute the user's edits between commands to the agent, and keeps them on rewind", () => {
      const { ws, store } = workspace(withGit);
      const s = new ClaudeSession(store, ws);
      s.start();
      s.prompt('first');
      s.bash('echo one >> src/app.ts', () => fs.appendFileSync(path.join(ws, 'src/app.ts'), 'one\n'));
      // The user, in their editor, between two agent commands:
      put(ws, 'doomed.txt', 'the user rewrote this\n');
      put(ws, 'src/util.ts', 'user version of util\n');
      put(ws, 'user-new.txt', 'made by the user\n');
      s.prompt('second');
      s.bash('echo two >> src/util.ts', () => fs.appendFileSync(path.join(ws, 'src/util.ts'), 'two\n'));

      const second = snaps(store).filter((r) => r.call && r.call === snaps(store).at(-1)!.call);
      assert.deepEqual([...new Set(second.map((r) => path.relative(ws, r.path)))], ['src/util.ts'], 'only what the second command changed');
      assert.ok(
        !snaps(store).some((r) => r.path.endsWith('doomed.txt') || r.path.endsWith('user-new.txt')),
        "the user's files are nobody's change",
      );

      const cps = checkpoints(store).filter((c) => c.kind === 'prompt');
      // Rewinding the second prompt restores util.ts to the user's version, not the committed one.
      const r2 = cliJson<{ status: string }>(['rewind', '--to', cps[1]!.id], { store });
      assert.equal(r2.status, 'done');
      assert.equal(fs.readFileSync(path.join(ws, 'src/util.ts'), 'utf8'), 'user version of util\n');
      // Rewinding everything leaves the user's own files alone.
      const plan = cliJson<{ files: { path: string }[] }>(['plan', '--to', cps[0]!.id], { store });
      assert.ok(!plan.files.some((f) => f.path.endsWith('doomed.txt') || f.path.endsWith('user-new.txt')));
      assert.ok(plan.files.some((f) => f.path.endsWith('src/app.ts')));
    });
  });
}

describe('shell capture, edge cases', () => {
  it('captures a failed command (PostToolUseFailure) and a command run from a subfolder', () => {
    const { ws, store } = workspace(true);
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('p');
    s.bash('make && false', () => {
      put(ws, 'src/app.ts', 'half-done\n');
      throw new Error('exit 1');
    });
    const sub = new ClaudeSession(store, path.join(ws, 'src'), s.session);
    sub.bash('rm util.ts', () => fs.rmSync(path.join(ws, 'src/util.ts')));
    const paths = [...new Set(snaps(store).map((r) => path.relative(ws, r.path)))].sort();
    assert.deepEqual(paths, ['src/app.ts', 'src/util.ts']);
    const prompt = checkpoints(store).find((c) => c.kind === 'prompt')!;
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', prompt.id], { store }).status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'src/app.ts'), 'utf8'), 'export const app = 1;\n');
    assert.ok(fs.existsSync(path.join(ws, 'src/util.ts')));
  });

  it("a shell call whose PostToolUse never came: the next one's PreToolUse records its changes as its own, not as the user's", () => {
    const { ws, store } = workspace(false);
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('p');
    const at = checkpoints(store).find((c) => c.kind === 'prompt')!;
    const before = snapshotTree(ws);
    // The first command's PreToolUse, its effect, and no PostToolUse (the hook died, or was never run).
    s.hook({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'toolu_lost', tool_input: { command: 'make' } });
    put(ws, 'src/app.ts', 'built by make\n');
    put(ws, 'made.txt', 'made\n');
    s.bash('rm doomed.txt', () => fs.rmSync(path.join(ws, 'doomed.txt')));
    const attributed = snaps(store)
      .filter((r) => r.phase === 'after')
      .map((r) => `${r.call === 'toolu_lost' ? 'lost' : r.call ? 'next' : '?'} ${path.relative(ws, r.path)}`)
      .sort();
    assert.deepEqual(attributed, ['lost made.txt', 'lost src/app.ts', 'next doomed.txt']);
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', at.id], { store }).status, 'done');
    assert.deepEqual(snapshotTree(ws), before, 'both commands are rewound');
  });

  it('starts capturing mid-session when there was no SessionStart', () => {
    const { ws, store } = workspace(false);
    const s = new ClaudeSession(store, ws);
    s.prompt('no session start hook');
    s.bash('rm doomed.txt', () => fs.rmSync(path.join(ws, 'doomed.txt')));
    const prompt = checkpoints(store).find((c) => c.kind === 'prompt')!;
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', prompt.id], { store }).status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'doomed.txt'), 'utf8'), 'delete me\n');
  });

  it('turns itself off above maxScanFiles, and says so where the user looks', () => {
    const { ws, store } = workspace(false);
    fs.mkdirSync(store, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(store, 'config.json'), JSON.stringify({ maxScanFiles: 3 }));
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('p');
    s.bash('rm doomed.txt', () => fs.rmSync(path.join(ws, 'doomed.txt')));
    assert.deepEqual(snaps(store), [], 'nothing captured');
    const start = checkpoints(store).find((c) => c.kind === 'session-start')!;
    assert.match(start.label, /shell capture off: more than 3 files \(maxScanFiles\)/);
    const status = JSON.parse(fs.readFileSync(path.join(store, 'capture.json'), 'utf8')).sessions[s.session];
    assert.equal(status.state, 'off');
    assert.match(status.message, /raise "maxScanFiles" in .*config\.json/);
    assert.match(fs.readFileSync(path.join(store, 'errors.log'), 'utf8'), /Shell capture is off for this session/);
  });

  it('keeps the store out of the scan when it lives inside the workspace', () => {
    const { ws } = workspace(false);
    const store = path.join(ws, '.agent-rewind');
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('p');
    s.bash('touch x', () => put(ws, 'x', ''));
    assert.deepEqual([...new Set(snaps(store).map((r) => path.relative(ws, r.path)))], ['x']);
  });
});
