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
