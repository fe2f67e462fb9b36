// A workspace reached through a symlink records exactly what the real folder records, through real hooks:
// a Claude session whose cwd is a symlink to the folder, a Bash call that creates, edits and deletes files
// (made through the link, as the shell in that cwd makes them) and an Edit given the path through the link —
// the checkpoints and the plan equal those of the same session run in the real folder, and a rewind brings
// the deleted file back. Every path is recorded by its real path.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { snapshotTree, tempDir } from '../helpers/tmp';

interface Run {
  real: string;
  store: string;
  checkpoints: Record<string, unknown>[];
  plan: Record<string, unknown>;
  prompt: string;
}

/** The session, in `real` reached as `cwd` (the folder itself, or a symlink to it). */
function run(linked: boolean): Run {
  const parent = tempDir();
  const real = path.join(parent, 'project');
  fs.mkdirSync(real);
  fs.writeFileSync(path.join(real, 'edited.txt'), 'one\n');
  fs.writeFileSync(path.join(real, 'doomed.txt'), 'keep me\n');
  fs.writeFileSync(path.join(real, 'by-edit.txt'), 'alpha\n');
  const cwd = linked ? path.join(parent, 'link') : real;
  if (linked) fs.symlinkSync(real, cwd);
  const store = path.join(parent, 'store');
  const s = new ClaudeSession(store, cwd, 'sess-link');
  s.start();
  s.prompt('change things');
  s.bash('echo new > made.txt && echo two >> edited.txt && rm doomed.txt', () => {
    fs.writeFileSync(path.join(cwd, 'made.txt'), 'new\n');
    fs.appendFileSync(path.join(cwd, 'edited.txt'), 'two\n');
    fs.rmSync(path.join(cwd, 'doomed.txt'));
  });
  s.edit(path.join(cwd, 'by-edit.txt'), 'alpha', 'beta');
  s.hook({ hook_event_name: 'Stop' });
  const checkpoints = cliJson<Record<string, unknown>[]>(['checkpoints'], { store });
  const prompt = checkpoints.find((c) => c.kind === 'prompt')!.id as string;
  const plan = cliJson<Record<string, unknown>>(['plan', '--to', prompt], { store });
  return { real, store, checkpoints, plan, prompt };
}

/** What is the same between two runs: no ids, no times, the folder's path as `<ws>`. */
function same(v: unknown, real: string): unknown {
  return JSON.parse(
    JSON.stringify(v, (k, x) => (k === 'id' || k === 'time' || k === 'target' ? undefined : x))
      .split(real)
      .join('<ws>'),
  );
}

describe('a workspace reached through a symlink', () => {
  it('records, plans and rewinds exactly as the real folder does; the deleted file comes back', () => {
    const direct = run(false);
    const linked = run(true);
    assert.deepEqual(same(linked.checkpoints, linked.real), same(direct.checkpoints, direct.real));
    assert.deepEqual(same(linked.plan, linked.real), same(direct.plan, direct.real));
    const files = (linked.plan.files as { path: string; action: string }[])
      .map((f) => [path.relative(linked.real, f.path), f.action])
      .sort();
    assert.deepEqual(files, [
      ['by-edit.txt', 'restore'],
      ['doomed.txt', 'recreate'],
      ['edited.txt', 'restore'],
      ['made.txt', 'delete'],
    ]);
    // Every snapshot and working folder by its real path (a call's summary and input keep the agent's words).
    const records = fs
      .readFileSync(path.join(linked.store, 'files.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; path?: string; cwd?: string });
    const named = records.flatMap((r) => (r.t === 'snap' ? [r.path!] : r.t === 'checkpoint' ? [r.cwd!] : []));
    assert.ok(named.length > 0 && named.every((p) => p.startsWith(linked.real)), named.join(', '));
    assert.equal(fs.existsSync(path.join(linked.store, 'errors.log')), false, 'nothing to say');

    const r = cli(['rewind', '--to', linked.prompt], { store: linked.store });
    assert.equal(r.status, 0, r.stderr);
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    assert.deepEqual(snapshotTree(linked.real), {
      'by-edit.txt': b64('alpha\n'),
      'doomed.txt': b64('keep me\n'),
      'edited.txt': b64('one\n'),
    });
  });

  it('a --root given through a symlink is kept by its real path', () => {
    const parent = tempDir();
    const real = path.join(parent, 'project');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(parent, 'link'));
    const store = path.join(parent, 'store');
    const r = cli(['hook', 'claude', '--root', path.join(parent, 'link')], {
      store,
      input: JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', session_id: 's', cwd: path.join(parent, 'link') }),
    });
    assert.equal(r.status, 0);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(store, 'store.json'), 'utf8')).roots, [real]);
  });
});
