// What will not be undone, through the real hook path (one hook process per event): `plan --json`
// lists the push and the MCP send as irreversible, the commit as compensatable with the HEAD
// recorded before it, never a read-only tool; before-tool checkpoints make "just before the push"
// a reachable state whose plan does not list the earlier commit.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox, tempDir } from '../helpers/tmp';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();

function repo() {
  const { ws, store } = sandbox();
  git(ws, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(ws, 'README.md'), '# app\n');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  const remote = path.join(tempDir('ar-remote-'), 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  git(ws, 'remote', 'add', 'origin', remote);
  return { ws, store };
}

describe('effects through the hook path', () => {
  it('lists the push and the MCP send as irreversible and the commit as compensatable with the recorded HEAD', () => {
    const { ws, store } = repo();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('fix it and ship it');
    s.tool('Read', { file_path: path.join(ws, 'README.md') });
    s.tool('Grep', { pattern: 'app' });
    s.write('src/fix.ts', 'export const fixed = true;\n');
    const headBefore = git(ws, 'rev-parse', 'HEAD');
    s.bash('git add -A && git commit -m "fix: it; really"', () => {
      git(ws, 'add', '-A');
      git(ws, 'commit', '-qm', 'fix: it; really');
    });
    assert.notEqual(git(ws, 'rev-parse', 'HEAD'), headBefore);
    s.bash('git push origin main', () => void git(ws, 'push', '-q', 'origin', 'main'));
    s.tool('mcp__mail__send_message', { to: 'dana@example.com', subject: 'shipped' });
    s.tool('WebFetch', { url: 'https://example.com/status' });

    const cps = cliJson<{ id: string; kind: string; label: string }[]>(['checkpoints'], { store });
    const prompt = cps.find((c) => c.kind === 'prompt')!;
    const plan = cliJson<{ notUndone: { tool: string; summary: string; effect: string; severity: string; compensation?: string }[] }>(
      ['plan', '--to', prompt.id],
      { store },
    );
    assert.deepEqual(
      plan.notUndone.map((n) => [n.tool, n.effect, n.severity]),
      [
        ['Bash', 'compensatable', 'high'],
        ['Bash', 'irreversible', 'high'],
        ['mcp__mail__send_message', 'irreversible', 'high'],
      ],
    );
    const commit = plan.notUndone[0]!;
    assert.equal(commit.summary, 'git add -A && git commit -m "fix: it; really"');
    assert.equal(commit.compensation, `git -C ${ws} reset --soft ${headBefore}`);
    assert.ok(
      !plan.notUndone.some((n) => ['Read', 'Grep', 'WebFetch', 'Write'].includes(n.tool)),
      'read-only tools and file edits are never listed',
    );

    // Checkpoints before each listed call, labelled `<tool>: <summary>`.
    const before = cps.filter((c) => c.kind === 'before-tool').map((c) => c.label);
    assert.deepEqual(before, [
      'Bash: git add -A && git commit -m "fix: it; really"',
      'Bash: git push origin main',
      'mcp__mail__send_message: mail send_message {"to":"dana@example.com","subject":"shipped"}',
    ]);

    // "Just before the push": the commit is not in its discarded span.
    const push = cps.find((c) => c.label === 'Bash: git push origin main')!;
    const p2 = cliJson<{ notUndone: { summary: string }[]; files: unknown[] }>(['plan', '--to', push.id], { store });
    assert.deepEqual(
      p2.notUndone.map((n) => n.summary),
      ['git push origin main', 'mail send_message {"to":"dana@example.com","subject":"shipped"}'],
    );
    assert.deepEqual(p2.files, [], 'nothing on disk changed after that point');
    const r = cli(['rewind', '--to', push.id, '--json'], { store });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, 'nothing');

    // Rewinding the whole prompt removes the agent's file but, honestly, lists what it cannot undo.
    const full = cliJson<{ status: string; notUndone: unknown[] }>(['rewind', '--to', prompt.id], { store });
    assert.equal(full.status, 'done');
    assert.equal(full.notUndone.length, 3);
    assert.equal(fs.existsSync(path.join(ws, 'src/fix.ts')), false);
  });

  it('the text plan says what will not be undone first, with the compensation', () => {
    const { ws, store } = repo();
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('commit');
    const head = git(ws, 'rev-parse', 'HEAD');
    s.bash('cd . && git commit --allow-empty -m empty', () => void git(ws, 'commit', '-q', '--allow-empty', '-m', 'empty'));
    s.bash('npm run deploy');
    const prompt = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!;
    const text = cli(['plan', '--to', prompt.id], { store }).stdout;
    assert.match(text, /Will NOT be undone \(2\)/);
    assert.ok(text.includes(`compensation: git -C ${ws} reset --soft ${head}`), text);
    assert.match(text, /irreversible \(unknown command\): Bash: npm run deploy/);
  });

  it('uses overrides from config.json', () => {
    const { ws, store } = repo();
    const s = new ClaudeSession(store, ws);
    s.start(); // creates the store
    fs.writeFileSync(
      path.join(store, 'config.json'),
      JSON.stringify({
        effects: [
          { tool: 'mcp__notes__*', effect: 'none' },
          { command: '^npm run deploy', effect: 'irreversible', compensation: 'npm run rollback' },
        ],
      }),
    );
    s.prompt('go');
    s.tool('mcp__notes__append', { text: 'x' });
    s.bash('npm run deploy');
    const cps = cliJson<{ id: string; kind: string; label: string }[]>(['checkpoints'], { store });
    const plan = cliJson<{ notUndone: { tool: string; severity: string; compensation?: string }[] }>(
      ['plan', '--to', cps.find((c) => c.kind === 'prompt')!.id],
      { store },
    );
    assert.deepEqual(plan.notUndone, [
      {
        tool: 'Bash',
        summary: 'npm run deploy',
        effect: 'irreversible',
        severity: 'high',
        compensation: 'npm run rollback',
        session: s.session,
        time: (plan.notUndone[0] as unknown as { time: string }).time,
      },
    ]);
    assert.ok(!cps.some((c) => c.label.startsWith('mcp__notes__append')), 'no checkpoint before a call configured as none');
  });
});
