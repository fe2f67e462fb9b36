// What an agent wrote reaches the terminal as text, never as control: a prompt with an escape
// sequence (retitle, clear the screen) and a file name with a newline and a fake plan line are shown
// escaped by every text output of the CLI; `--json` stays as it was.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

const PROMPT = 'please \x1b]0;pwned\x07\x1b[2J fix it \u009b31m';
const NAME = 'evil\n  restore  +0 -0  passwd';
const FIXTURE = path.resolve(__dirname, '../fixtures/transcripts/real-2.1.332-two-prompts.jsonl');

/** Every control character a terminal acts on, but the line ends the output itself makes. */
// eslint-disable-next-line no-control-regex -- what the test looks for
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function assertInert(what: string, text: string): void {
  const at = text.search(RAW_CONTROL);
  assert.equal(at, -1, `${what}: a raw control character at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 20), at + 20))}`);
  assert.ok(!/^\s*restore\s+\+0 -0\s+passwd/m.test(text), `${what}: the file name passes for a plan line:\n${text}`);
}

function recorded() {
  const { ws, store } = sandbox();
  fs.writeFileSync(path.join(ws, NAME), 'before\n');
  const s = new ClaudeSession(store, ws, `sess-\x1b[2J`);
  s.start();
  s.prompt(PROMPT);
  s.write(NAME, 'after\n');
  const transcript = path.join(path.dirname(store), 'evil.jsonl');
  const lines = fs
    .readFileSync(FIXTURE, 'utf8')
    .replace('Create notes.txt and todo.txt, then list the folder', JSON.stringify(PROMPT).slice(1, -1));
  fs.writeFileSync(transcript, lines);
  return { ws, store, transcript };
}

test('no text output of the CLI sends a control character from a prompt, a label, a session or a file name', () => {
  const { ws, store, transcript } = recorded();
  const cps = cliJson<{ id: string; kind: string; label: string }[]>(['checkpoints'], { store });
  const prompt = cps.find((c) => c.kind === 'prompt')!;
  assert.equal(prompt.label, PROMPT, '--json keeps the prompt as it was');
  cli(['checkpoint', '--label', 'mine \x1b[31mred'], { store });
  const runs: [string, string[]][] = [
    ['checkpoints', ['checkpoints']],
    ['attempts', ['attempts']],
    ['plan', ['plan', '--to', prompt.id]],
    ['diff', ['diff', prompt.id, 'now']],
    ['status', ['status']],
    ['storage', ['storage']],
    ['conversation show', ['conversation', 'show', '--transcript', transcript]],
    ['rewind', ['rewind', '--to', prompt.id]],
  ];
  const outputs = new Map<string, string>();
  for (const [what, args] of runs) {
    const r = cli(args, { store });
    outputs.set(what, r.stdout);
    assert.equal(r.status, 0, `${what}: ${r.stderr}`);
    assertInert(what, r.stdout);
    assertInert(`${what} (stderr)`, r.stderr);
  }
  const plan = outputs.get('plan')!;
  assert.ok(plan.includes(JSON.stringify(path.join(ws, NAME))), `the name is quoted as git quotes it:\n${plan}`);
  assert.ok(outputs.get('rewind')!.includes(JSON.stringify(path.join(ws, NAME))), 'rewind names it the same way');
  assert.ok(outputs.get('checkpoints')!.includes('\\033]0;pwned\\a\\033[2J'), 'the escape sequence is shown, escaped');
  // An error that names a path, and --json as it was.
  const missing = cli(['plan', '--to', prompt.id, '--path', path.join(ws, 'x\x1b[2J\ny')], { store });
  assert.equal(missing.status, 1);
  assertInert('an error naming a path', missing.stderr.replace(/\n$/, ''));
  assert.ok(!missing.stderr.replace(/\n$/, '').includes('\n'), 'one line');
  const files = cliJson<{ files: { path: string }[] }>(['plan', '--to', cliJson<{ id: string }[]>(['checkpoints'], { store }).at(-1)!.id], {
    store,
  }).files;
  assert.deepEqual(
    files.map((f) => f.path),
    [path.join(ws, NAME)],
    '--json gives the name as it is',
  );
});
