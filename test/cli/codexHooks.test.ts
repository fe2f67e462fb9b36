// The captured Codex CLI 0.171.0 session (test/fixtures/agents/codex/real-0.171.0) replayed through real
// `agent-rewind hook codex` processes in a real workspace, then `conversation show|fork` on its rollout through
// the CLI: every payload accepted (errors.log empty, hooks silent), checkpoints of agent codex per prompt, the
// apply_patch files snapshotted; a fork before prompt 2 recorded in the store, before prompt 1 refused (exit 4).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'agents', 'codex', 'real-0.171.0');

test('the real Codex session, replayed through agent-rewind hook codex, records every prompt and patch', () => {
  const root = tempDir('ar-codex-cli-');
  const ws = path.join(root, 'ws');
  const store = path.join(root, 'store');
  const home = path.join(root, 'codex-home');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'notes'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'app.js'), "console.log('hello');\n");
  fs.writeFileSync(path.join(ws, 'src', 'old.js'), '// unused\n');
  fs.writeFileSync(path.join(ws, 'notes', 'todo.txt'), '- write tests\n');
  fs.writeFileSync(path.join(ws, 'README.md'), '# Demo\n');
  const lines = fs
    .readFileSync(path.join(FIXTURE, 'hooks.jsonl'), 'utf8')
    .split('\n')
    // Model-request events are ignored by the adapter (the unit test checks that): not replayed, to stay quick.
    .filter((l) => l.trim() && !/"event":"(Pre|Post)ModelRequest"/.test(l));
  for (const l of lines) {
    const payload = JSON.stringify((JSON.parse(l) as { payload: unknown }).payload)
      .replaceAll('/WORKSPACE', ws)
      .replaceAll('/CODEX_HOME', home);
    const r = cli(['hook', 'codex'], { store, input: payload });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '', 'a hook prints nothing unless it re-grounds');
  }
  assert.equal(fs.existsSync(path.join(store, 'errors.log')), false, 'errors.log stays empty');
  const cps = cliJson<{ kind: string; agent: string; label: string; files: number }[]>(['checkpoints'], { store });
  const prompts = cps.filter((c) => c.kind === 'prompt');
  assert.deepEqual(
    prompts.map((c) => c.label),
    [
      'Add a greeting helper, use it, drop the old module, move the todo list to docs, bump the port, commit and push',
      'Also mention the greeting in the README',
    ],
  );
  assert.ok(cps.every((c) => c.agent === 'codex' || c.kind === 'rewind'));
  // The two patches before the first shell call snapshot src/greet.js, src/app.js, src/old.js, notes/todo.txt, docs/todo.md.
  assert.ok(prompts[0]!.files >= 5, `prompt 1 recorded ${prompts[0]!.files} file(s)`);
  const log = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8');
  for (const f of ['src/app.js', 'src/old.js', 'src/greet.js', 'notes/todo.txt', 'docs/todo.md'])
    assert.ok(log.includes(JSON.stringify(path.join(ws, f))), `${f} snapshotted`);
  // The push is a before-tool checkpoint (irreversible).
  assert.ok(cps.some((c) => c.kind === 'before-tool' && /git push/.test(c.label)));
});

test('conversation show|fork on a Codex rollout through the CLI; a cut before the first prompt exits 4', () => {
  const root = tempDir('ar-codex-conv-');
  const store = path.join(root, 'store');
  const parent = path.join(
    root,
    'codex-home',
    'sessions',
    '2026',
    '12',
    '03',
    'rollout-2026-12-03T17-48-52-01a23d05-fbd8-71f3-968f-5b0b26d117c9.jsonl',
  );
  fs.mkdirSync(path.dirname(parent), { recursive: true });
  fs.copyFileSync(path.join(FIXTURE, 'rollout.jsonl'), parent);
  const shown = cliJson<{ session: string; prompts: { uuid: string; text: string; tools: { name: string; effect: string }[] }[] }>([
    'conversation',
    'show',
    '--transcript',
    parent,
  ]);
  assert.equal(shown.session, '01a23d05-fbd8-71f3-968f-5b0b26d117c9');
  assert.equal(shown.prompts.length, 2);
  assert.ok(shown.prompts[0]!.tools.some((t) => t.name === 'Bash' && t.effect === 'irreversible'));
  const refused = cli(['conversation', 'fork', '--transcript', parent, '--before', shown.prompts[0]!.uuid], { store });
  assert.equal(refused.status, 4);
  const fork = cliJson<{ session: string; transcript: string; parent: string; resume: string }>(
    ['conversation', 'fork', '--transcript', parent, '--before', shown.prompts[1]!.uuid],
    { store },
  );
  assert.equal(fork.parent, shown.session);
  assert.equal(fork.resume, `codex resume ${fork.session}`);
  assert.ok(fork.transcript.startsWith(path.join(root, 'codex-home', 'sessions') + path.sep));
  const lineage = fs.readFileSync(path.join(store, 'lineage.jsonl'), 'utf8');
  assert.match(lineage, new RegExp(`"agent":"codex".*"session":"${fork.session}"`));
});
