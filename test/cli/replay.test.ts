// Done-when scenarios of the core issue, through real hook processes and the real CLI.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox, snapshotTree } from '../helpers/tmp';

interface Cp {
  id: string;
  kind: string;
  label: string;
  files: number;
  edited: number;
  toRewind: number;
  session: string;
  time: string;
  agent: string;
}

describe('a replayed Claude Code session', () => {
  const { ws, store } = sandbox();
  fs.writeFileSync(path.join(ws, 'existing.ts'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(ws, 'untouched.md'), '# readme\n');
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('Add a greeting module');
  const atP1 = snapshotTree(ws);
  s.write('greet.ts', 'export const hi = "hi";\n');
  s.edit('existing.ts', 'a = 1', 'a = 2');
  s.prompt('Now wire it up');
  const atP2 = snapshotTree(ws);
  s.edit('greet.ts', '"hi"', '"hello"');
  s.bash('npm test');
  s.write('src/lib/deep/util.ts', 'export {};\n');
  const atEnd = snapshotTree(ws);
  const cps = cliJson<Cp[]>(['checkpoints'], { store });
  const p1 = cps.find((c) => c.label === 'Add a greeting module')!;
  const p2 = cps.find((c) => c.label === 'Now wire it up')!;

  it('lists checkpoints oldest first with the contract fields', () => {
    assert.deepEqual(
      cps.map((c) => c.kind),
      ['session-start', 'prompt', 'prompt'],
    );
    for (const c of cps) {
      assert.deepEqual(Object.keys(c).sort(), ['agent', 'edited', 'files', 'id', 'kind', 'label', 'session', 'time', 'toRewind']);
      assert.equal(c.agent, 'claude');
      assert.equal(c.session, s.session);
      assert.ok(!Number.isNaN(Date.parse(c.time)));
    }
    assert.equal(p1.files, 2);
    assert.equal(p2.files, 2);
    assert.equal(p2.edited, 2);
    assert.equal(p2.toRewind, 2, 'what plan --to p2 lists (below)');
  });

  it('plans the rewind to prompt 2 without touching anything', () => {
    const before = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8');
    const plan = cliJson(['plan', '--to', p2.id], { store });
    assert.equal(plan.target, p2.id);
    assert.deepEqual(
      plan.files.map((f: any) => [path.relative(ws, f.path), f.action, f.insertions, f.deletions]),
      [
        ['greet.ts', 'restore', 1, 1],
        ['src/lib/deep/util.ts', 'delete', 0, 1],
      ],
    );
    assert.deepEqual(plan.blocked, []);
    assert.deepEqual(plan.warnings, []);
    assert.deepEqual(plan.notUndone, [], 'npm test is local');
    assert.deepEqual(snapshotTree(ws), atEnd);
    assert.equal(fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8'), before);
  });

  it('rewinds to prompt 2, then prompt 1, byte-identical to those moments; the rewind checkpoint undoes the last rewind', () => {
    const r2 = cliJson(['rewind', '--to', p2.id], { store });
    assert.equal(r2.status, 'done');
    assert.deepEqual(snapshotTree(ws), atP2);
    const r1 = cliJson(['rewind', '--to', p1.id], { store });
    assert.equal(r1.status, 'done');
    assert.ok(r1.files.every((f: any) => f.ok));
    assert.deepEqual(snapshotTree(ws), atP1);
    const undo = cliJson(['rewind', '--to', r1.checkpoint], { store });
    assert.equal(undo.status, 'done');
    assert.deepEqual(snapshotTree(ws), atP2);
    assert.equal(cli(['verify'], { store }).status, 0);
  });
});

describe('the safety check from the command line', () => {
  it('refuses with exit 3 and the three ways out when the user changed a file; --force proceeds and loses nothing', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.prompt('write it');
    s.write('notes.txt', 'agent text\n');
    const target = cliJson<Cp[]>(['checkpoints'], { store })[0]!.id;
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'my own text\n');
    const log = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8');
    const r = cli(['rewind', '--to', target], { store });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /notes\.txt/);
    // Ways out that work: saving or committing is never offered as one (it does not lift the refusal).
    assert.doesNotMatch(r.stderr, /^\s*\d\. Save or commit/m);
    assert.match(r.stderr, /Keep your version aside: copy those files somewhere outside the workspace/);
    assert.match(r.stderr, new RegExp(`agent-rewind rewind --to ${target} --force`));
    assert.match(r.stderr, /prints the command that undoes it/);
    assert.match(r.stderr, new RegExp(`agent-rewind plan --to ${target}`));
    assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'my own text\n', 'nothing written');
    assert.equal(fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8'), log, 'nothing recorded');
    const plan = cliJson(['plan', '--to', target], { store });
    assert.deepEqual(plan.blocked, [{ path: path.join(ws, 'notes.txt'), reason: 'modified-outside' }]);
    const forced = cliJson(['rewind', '--to', target, '--force'], { store });
    assert.equal(forced.status, 'done');
    assert.equal(forced.undo, `agent-rewind rewind --to ${forced.checkpoint}`, 'the undo command the refusal promised');
    assert.equal(fs.existsSync(path.join(ws, 'notes.txt')), false);
    cliJson(['rewind', '--to', forced.checkpoint], { store });
    assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'my own text\n', 'the user text comes back');
  });

  it('only warns when the mtime changed but the content did not', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.prompt('write it');
    s.write('a.txt', 'x\n');
    const target = cliJson<Cp[]>(['checkpoints'], { store })[0]!.id;
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(ws, 'a.txt'), later, later);
    const plan = cliJson(['plan', '--to', target], { store });
    assert.deepEqual(plan.warnings, [{ path: path.join(ws, 'a.txt'), reason: 'touched' }]);
    assert.equal(cli(['rewind', '--to', target], { store }).status, 0);
  });
});

describe('odd content and names', () => {
  it('restores binary files and names with spaces and non-ASCII characters byte-exact', () => {
    const { ws, store } = sandbox();
    const names = ['with space.txt', 'ünïcødé ✓.md', '日本語/ファイル.txt', 'quote\'s "and" $dollar.bin'];
    const bin = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256));
    for (const n of names) {
      fs.mkdirSync(path.dirname(path.join(ws, n)), { recursive: true });
      fs.writeFileSync(path.join(ws, n), n.endsWith('.bin') ? bin : `original ${n}\n`);
    }
    const s = new ClaudeSession(store, ws);
    s.prompt('change them all');
    const at = snapshotTree(ws);
    for (const n of names) s.write(n, n.endsWith('.bin') ? Buffer.from([0, 1, 2]) : 'rewritten\n');
    const target = cliJson<Cp[]>(['checkpoints'], { store })[0]!.id;
    const plan = cliJson(['plan', '--to', target], { store });
    assert.equal(plan.files.length, 4);
    assert.ok(plan.files.find((f: any) => f.path.endsWith('.bin')).binary);
    assert.equal(cliJson(['rewind', '--to', target], { store }).status, 'done');
    assert.deepEqual(snapshotTree(ws), at);
  });
});

describe('bad hook input', () => {
  it('exits 0, prints nothing and records nothing for malformed, empty or unknown payloads', () => {
    const { ws, store } = sandbox();
    const inputs = [
      '',
      'garbage',
      '{"hook_event_name":"PreToolUse"}',
      '[1,2]',
      JSON.stringify({
        session_id: 's',
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: 'relative/path.ts' },
        cwd: ws,
      }),
      JSON.stringify({ session_id: 's', hook_event_name: 'SomeFutureEvent' }),
    ];
    for (const input of inputs) {
      const r = cli(['hook', 'claude'], { store, input });
      assert.equal(r.status, 0);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, '');
    }
    const r = cli(['hook', 'nosuchagent'], { store, input: '{}' });
    assert.equal(r.status, 0);
    assert.equal(fs.existsSync(path.join(store, 'files.jsonl')), false, 'nothing recorded');
    const errors = fs.readFileSync(path.join(store, 'errors.log'), 'utf8').trim().split('\n');
    assert.equal(errors.length, 6, 'each bad payload is logged (the unknown event is not bad input)');
    assert.match(errors.join('\n'), /not an absolute path/);
  });

  it('exits 0 silently without any store configured', () => {
    const r = cli(['hook', 'claude'], { input: '{"x":1}' });
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
  });
});

describe('verify', () => {
  it('passes a sound store and fails on a tampered blob', () => {
    const { ws, store } = sandbox();
    const s = new ClaudeSession(store, ws);
    s.prompt('p');
    s.write('a.txt', 'content\n');
    assert.equal(cliJson(['verify'], { store }).ok, true);
    const objects = path.join(store, 'objects');
    const fan = fs.readdirSync(objects).find((d) => d.length === 2)!;
    const blob = path.join(objects, fan, fs.readdirSync(path.join(objects, fan))[0]!);
    fs.chmodSync(blob, 0o600);
    fs.writeFileSync(blob, 'tampered');
    const r = cli(['verify', '--json'], { store });
    assert.equal(r.status, 1);
    assert.equal(JSON.parse(r.stdout).ok, false);
  });
});

describe('usage and errors', () => {
  it('uses the contract exit codes and says what to do next', () => {
    const { store } = sandbox();
    const s = new ClaudeSession(store, path.dirname(store));
    s.prompt('p');
    const noTo = cli(['plan'], { store });
    assert.equal(noTo.status, 2);
    assert.match(noTo.stderr, /--to/);
    const unknown = cli(['rewind', '--to', 'doesnotexist'], { store });
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /agent-rewind checkpoints/);
    assert.equal(cli(['frobnicate'], { store }).status, 2);
    const noStore = cli(['checkpoints']);
    assert.equal(noStore.status, 2);
    assert.match(noStore.stderr, /AGENT_REWIND_STORE/);
  });
});
