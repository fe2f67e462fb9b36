// `agent-rewind conversation show|fork` as a process: exact JSON shapes, exit codes,
// one-sentence errors, nothing written on a refused cut, lineage recorded in the store.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox, tempDir } from '../helpers/tmp';

const FIX = path.resolve(__dirname, '../fixtures/transcripts');
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function place(name: string, session: string): { dir: string; file: string } {
  const dir = tempDir('ar-conv-');
  const file = path.join(dir, `${session}.jsonl`);
  fs.copyFileSync(path.join(FIX, name), file);
  return { dir, file };
}
const REAL = () => place('real-2.1.332-two-prompts.jsonl', 'e1e7006b-3f22-4b47-a20b-3938f3f558ab');
const sha = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const tree = (dir: string) => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out.push(path.relative(dir, p));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
};

test('show --json: exactly { session, prompts: [{ uuid, text, time, tools: [{ id, name, summary, effect }] }] }', () => {
  const { file } = REAL();
  const r = cliJson(['conversation', 'show', '--transcript', file]);
  assert.deepEqual(Object.keys(r), ['session', 'prompts']);
  assert.equal(r.session, 'e1e7006b-3f22-4b47-a20b-3938f3f558ab');
  assert.equal(r.prompts.length, 2);
  for (const p of r.prompts) {
    assert.deepEqual(Object.keys(p), ['uuid', 'text', 'time', 'tools']);
    assert.match(p.time, ISO);
    for (const t of p.tools) assert.deepEqual(Object.keys(t), ['id', 'name', 'summary', 'effect']);
  }
  assert.deepEqual(
    r.prompts[1].tools.map((t: { name: string; summary: string; effect: string }) => [t.name, t.summary, t.effect]),
    [
      ['Edit', '/home/user/project/todo.txt', 'rewindable'],
      ['Bash', 'git push origin main', 'irreversible'],
    ],
  );
  assert.match(r.prompts[0].tools[0].id, /^toolu_/);
});

test('show without --json prints a readable list; effect overrides from the store apply', () => {
  const { file } = REAL();
  const r = cli(['conversation', 'show', '--transcript', file]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /: 2 prompts\n/);
  assert.match(r.stdout, /git push origin main/);
  const { store } = sandbox();
  cli(['checkpoint'], { store });
  fs.writeFileSync(path.join(store, 'config.json'), JSON.stringify({ effects: [{ command: '^git push', effect: 'none' }] }));
  const j = cliJson(['conversation', 'show', '--transcript', file], { store });
  assert.equal(j.prompts[1].tools[1].effect, 'none');
});

test('fork --json: exactly { session, transcript, parent, resume }; new file beside the parent; lineage recorded', () => {
  const { dir, file } = REAL();
  const { store } = sandbox();
  const hash = sha(file);
  const shown = cliJson(['conversation', 'show', '--transcript', file]);
  const cut = shown.prompts[1];
  const r = cliJson(['conversation', 'fork', '--transcript', file, '--before', cut.uuid], { store });
  assert.deepEqual(Object.keys(r), ['session', 'transcript', 'parent', 'resume']);
  assert.match(r.session, UUID_V4);
  assert.equal(r.transcript, path.join(dir, `${r.session}.jsonl`));
  assert.equal(r.parent, shown.session);
  assert.equal(r.resume, `claude --resume ${r.session}`);
  assert.equal(fs.statSync(r.transcript).mode & 0o777, 0o600);
  assert.equal(sha(file), hash);
  const forkShown = cliJson(['conversation', 'show', '--transcript', r.transcript]);
  assert.equal(forkShown.session, r.session);
  assert.deepEqual(forkShown.prompts, shown.prompts.slice(0, 1));
  const lineage = fs
    .readFileSync(path.join(store, 'lineage.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lineage.length, 1);
  const l = lineage[0];
  assert.deepEqual(
    {
      t: l.t,
      parentSession: l.parentSession,
      parentTranscript: l.parentTranscript,
      session: l.session,
      transcript: l.transcript,
      cutUuid: l.cutUuid,
      cutText: l.cutText,
      cwd: l.cwd,
    },
    {
      t: 'fork',
      parentSession: shown.session,
      parentTranscript: file,
      session: r.session,
      transcript: r.transcript,
      cutUuid: cut.uuid,
      cutText: cut.text,
      cwd: '/home/user/project',
    },
  );
  assert.equal(typeof l.time, 'number');
  assert.match(l.cutPromptId, UUID_V4);
});

test('refused cuts exit 4 with one sentence on stderr and write nothing — not in the project folder, not in the store', () => {
  const { dir, file } = REAL();
  const { root, store } = sandbox();
  cli(['checkpoint'], { store });
  const shown = cliJson(['conversation', 'show', '--transcript', file]);
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const assistant = lines.find((l) => l.type === 'assistant').uuid;
  const toolResult = lines.find(
    (l) => l.type === 'user' && Array.isArray(l.message.content) && l.message.content[0].type === 'tool_result',
  ).uuid;
  const attachment = lines.find((l) => l.type === 'attachment').uuid;
  const before = { project: tree(dir), store: tree(root), hash: sha(file) };
  for (const uuid of [shown.prompts[0].uuid, assistant, toolResult, attachment, 'no-such-uuid']) {
    const r = cli(['conversation', 'fork', '--transcript', file, '--before', uuid, '--json'], { store });
    assert.equal(r.status, 4, `${uuid}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^[^\n]+\.\n$/, 'one plain sentence');
    assert.deepEqual({ project: tree(dir), store: tree(root), hash: sha(file) }, before);
  }
  assert.match(
    cli(['conversation', 'fork', '--transcript', file, '--before', shown.prompts[0].uuid], { store }).stderr,
    /nothing to resume/,
  );
});

test('usage and missing files: exit 2 and exit 1, one sentence each', () => {
  const { file } = REAL();
  const cases: [string[], number, RegExp][] = [
    [['conversation', 'fork', '--transcript', file], 2, /Missing --before/],
    [['conversation', 'show'], 2, /Missing --transcript <path> or --session <id>/],
    [['conversation', 'show', '--transcript', file, '--session', 'x'], 2, /either --transcript or --session/],
    [['conversation', 'rewind'], 2, /Unknown conversation command/],
    [['conversation', 'show', '--transcript', '/nonexistent/x.jsonl'], 1, /No transcript at \/nonexistent\/x\.jsonl/],
  ];
  for (const [args, code, msg] of cases) {
    const r = cli(args);
    assert.equal(r.status, code, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, msg);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
});

test('a fork without a store still works and says the resumed agent will not be re-grounded', () => {
  const { file } = REAL();
  const shown = cliJson(['conversation', 'show', '--transcript', file]);
  const r = cli(['conversation', 'fork', '--transcript', file, '--before', shown.prompts[1].uuid, '--json']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /no store given/);
  assert.ok(fs.existsSync(JSON.parse(r.stdout).transcript));
});

test('agents without a transcript: show and fork our own session log, recorded by the real hook path', () => {
  const { ws, store } = sandbox();
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('Create a.txt');
  s.write('a.txt', 'one\n');
  s.prompt('Push it');
  s.bash('git push origin main');
  s.prompt('Edit a.txt');
  s.edit('a.txt', 'one', 'two');
  const shown = cliJson(['conversation', 'show', '--session', s.session], { store });
  assert.deepEqual(Object.keys(shown), ['session', 'prompts']);
  assert.equal(shown.session, s.session);
  assert.deepEqual(
    shown.prompts.map((p: { text: string }) => p.text),
    ['Create a.txt', 'Push it', 'Edit a.txt'],
  );
  assert.deepEqual(
    shown.prompts[1].tools.map((t: Record<string, string>) => [Object.keys(t).join(','), t.name, t.summary, t.effect]),
    [['id,name,summary,effect', 'Bash', 'git push origin main', 'irreversible']],
  );
  // The prompt ids are the prompt checkpoints' ids: the file timeline and the conversation agree.
  const cps = cliJson(['checkpoints'], { store }).filter((c: { kind: string }) => c.kind === 'prompt');
  assert.deepEqual(
    shown.prompts.map((p: { uuid: string }) => p.uuid),
    cps.map((c: { id: string }) => c.id),
  );

  const sessions = path.join(store, 'sessions');
  const listing = fs.readdirSync(sessions);
  const refused = cli(['conversation', 'fork', '--session', s.session, '--before', shown.prompts[0].uuid], { store });
  assert.equal(refused.status, 4);
  assert.deepEqual(fs.readdirSync(sessions), listing);
  assert.ok(!fs.existsSync(path.join(store, 'lineage.jsonl')));

  const f = cliJson(['conversation', 'fork', '--session', s.session, '--before', shown.prompts[2].uuid], { store });
  assert.deepEqual(Object.keys(f), ['session', 'transcript', 'parent', 'resume']);
  assert.equal(f.parent, s.session);
  assert.equal(f.resume, null, 'the agent cannot resume our log');
  assert.equal(f.transcript, path.join(sessions, `${f.session}.jsonl`));
  const forkShown = cliJson(['conversation', 'show', '--session', f.session], { store });
  assert.deepEqual(forkShown.prompts, shown.prompts.slice(0, 2));
  const lineage = JSON.parse(fs.readFileSync(path.join(store, 'lineage.jsonl'), 'utf8').trim());
  assert.equal(lineage.source, 'session-log');
  assert.equal(lineage.cutCheckpoint, shown.prompts[2].uuid);
  assert.equal(lineage.agent, 'claude');
  assert.equal(cli(['conversation', 'show', '--session', 'nobody'], { store }).status, 1);
});
