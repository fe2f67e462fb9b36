// Error paths a new user meets first, through the real CLI: filters that match nothing, a relative
// --path, a damaged store.json. Each says what is wrong and what to do, with the right exit code.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

function session() {
  const { ws, store } = sandbox();
  const s = new ClaudeSession(store, ws, 'sess-alpha-1234');
  s.start();
  s.prompt('write two files');
  s.write('src/app.ts', 'export const a = 1;\n');
  s.write('notes.md', '# notes\n');
  const target = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!.id;
  return { ws, store, s, target };
}

describe('--path and --session filters', () => {
  const { ws, store, target } = session();

  it('takes a --path relative to the current folder', () => {
    const plan = cliJson(['plan', '--to', target, '--path', 'src/app.ts'], { store, cwd: ws });
    assert.deepEqual(
      plan.files.map((f: any) => f.path),
      [path.join(ws, 'src/app.ts')],
    );
    const sub = cliJson(['plan', '--to', target, '--path', 'app.ts'], { store, cwd: path.join(ws, 'src') });
    assert.deepEqual(
      sub.files.map((f: any) => f.path),
      [path.join(ws, 'src/app.ts')],
    );
  });

  it('a --path that matches nothing recorded is an error naming it and the close matches (exit 1), never "Nothing to rewind"', () => {
    const before = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8');
    for (const cmd of ['plan', 'rewind']) {
      const r = cli([cmd, '--to', target, '--path', 'app.ts'], { store, cwd: ws });
      assert.equal(r.status, 1, `${cmd}: ${r.stderr}`);
      assert.doesNotMatch(r.stdout + r.stderr, /Nothing to rewind/);
      assert.match(r.stderr, new RegExp(`Nothing is recorded for the file ${path.join(ws, 'app.ts')}`));
      assert.match(r.stderr, new RegExp(`did you mean "${path.join(ws, 'src/app.ts')}"`));
    }
    assert.equal(fs.readFileSync(path.join(ws, 'src/app.ts'), 'utf8'), 'export const a = 1;\n', 'nothing written');
    assert.equal(fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8'), before, 'nothing recorded');
  });

  it('a --session that matches nothing is an error listing close session ids (exit 1)', () => {
    const r = cli(['rewind', '--to', target, '--session', 'sess-alpha-1243'], { store });
    assert.equal(r.status, 1, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /Nothing to rewind/);
    assert.match(r.stderr, /Nothing is recorded for the session "sess-alpha-1243".*did you mean "sess-alpha-1234"/);
    const far = cli(['plan', '--to', target, '--session', 'zzz'], { store });
    assert.equal(far.status, 1);
    assert.match(far.stderr, /session "zzz".*agent-rewind checkpoints/);
    assert.equal(cli(['plan', '--to', target, '--session', 'sess-alpha-1234'], { store }).status, 0);
  });
});

describe('a damaged store.json', () => {
  for (const [what, content] of [
    ['truncated', '{"format": 1, "created": 17'],
    ['not JSON', 'PK\u0003\u0004 not json at all'],
    ['empty', ''],
  ] as const) {
    it(`(${what}) the CLI names the file, what is wrong and what to do, in one sentence, exit 1; verify works once it is moved aside`, () => {
      const { store } = session();
      const meta = path.join(store, 'store.json');
      fs.writeFileSync(meta, content);
      for (const args of [['checkpoints'], ['plan', '--to', 'x'], ['verify']]) {
        const r = cli(args, { store });
        assert.equal(r.status, 1, `${args[0]}: ${r.stderr}`);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.match(r.stderr, new RegExp(`^${meta.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(`));
        assert.match(r.stderr, /move it aside .* then run `agent-rewind verify`/);
        assert.doesNotMatch(r.stderr, /JSON\.parse|Unexpected token|Unexpected end|SyntaxError/);
      }
      fs.renameSync(meta, meta + '.damaged');
      const v = cli(['verify'], { store });
      assert.equal(v.status, 0, v.stderr);
      assert.equal(cliJson(['checkpoints'], { store }).length, 2, 'the timeline reads without store.json');
    });
  }

  it('the hook exits 0, prints nothing, and appends a line naming store.json to errors.log every time', () => {
    const { store, ws } = session();
    fs.writeFileSync(path.join(store, 'store.json'), '{"format": 1, "roo');
    const errors = path.join(store, 'errors.log');
    const linesBefore = fs.existsSync(errors) ? fs.readFileSync(errors, 'utf8').split('\n').filter(Boolean).length : 0;
    const payload = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', cwd: ws, prompt: 'hi', transcript_path: '' });
    for (let i = 0; i < 2; i++) {
      const r = cli(['hook', 'claude'], { store, input: payload });
      assert.equal(r.status, 0);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, '');
    }
    const lines = fs.readFileSync(errors, 'utf8').split('\n').filter(Boolean).slice(linesBefore);
    assert.equal(lines.length, 2, 'one trace per hook');
    for (const l of lines) assert.match(JSON.parse(l).message, /store\.json is damaged/);
  });
});
