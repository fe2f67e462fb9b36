// Files-only re-grounding from real hook processes: a session recorded through `agent-rewind hook
// claude`, its files rewound with the CLI (as VS Code would, between two prompts), and the next
// UserPromptSubmit — or SessionStart of a resume — prints the additionalContext naming the reverted
// files, once per rewind per session. Every other event stays silent.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

let n = 0;

/** A hook event whose output we want to see (ClaudeSession.hook insists on silence). */
function hook(s: ClaudeSession, payload: Record<string, unknown>): { status: number; stdout: string; stderr: string } {
  return cli(['hook', 'claude'], {
    store: s.store,
    input: JSON.stringify({ session_id: s.session, transcript_path: s.transcript, cwd: s.cwd, permission_mode: 'default', ...payload }),
  });
}
const prompt = (s: ClaudeSession, text: string) => hook(s, { hook_event_name: 'UserPromptSubmit', prompt: text, prompt_id: `fr-${n++}` });
const start = (s: ClaudeSession, source: string) => hook(s, { hook_event_name: 'SessionStart', source });

function contextOf(r: { status: number; stdout: string; stderr: string }, event: string): string {
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.ok(r.stdout.endsWith('\n'));
  const j = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(j), ['hookSpecificOutput']);
  assert.deepEqual(j.hookSpecificOutput, { hookEventName: event, additionalContext: j.hookSpecificOutput.additionalContext });
  return j.hookSpecificOutput.additionalContext as string;
}

function prompts(store: string, session: string): { id: string; label: string }[] {
  return records(store).filter((r) => r.t === 'checkpoint' && r.kind === 'prompt' && r.session === session) as {
    id: string;
    label: string;
  }[];
}
function records(store: string): Record<string, any>[] {
  return fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
function lineage(store: string): Record<string, any>[] {
  const f = path.join(store, 'lineage.jsonl');
  return fs.existsSync(f)
    ? fs
        .readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
}

/** Turn 1 creates a.txt; turn 2 edits it, creates notes.txt and pushes. */
function recorded() {
  const { ws, store } = sandbox();
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('Create a.txt');
  s.write('a.txt', 'one\n');
  s.prompt('Change a.txt, write notes and push');
  s.edit('a.txt', 'one', 'two');
  s.write('notes.txt', 'pushed\n');
  s.bash('git push origin main');
  return { ws, store, s, p: prompts(store, s.session) };
}

test('live session: the first prompt after a files-only rewind is told which files were reverted and to what — once', () => {
  const { ws, store, s, p } = recorded();
  const rw = cliJson(['rewind', '--to', p[1]!.id], { store });
  assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\n');
  assert.ok(!fs.existsSync(path.join(ws, 'notes.txt')));

  const text = contextOf(prompt(s, 'Go on'), 'UserPromptSubmit');
  assert.match(text, /^\[Agent Rewind\] Files were rewound outside this conversation/);
  assert.ok(text.includes(`- ${path.join(ws, 'a.txt')} (now as it was before the prompt "Change a.txt, write notes and push")`), text);
  assert.ok(
    text.includes(`- ${path.join(ws, 'notes.txt')} (deleted: it did not exist before the prompt "Change a.txt, write notes and push")`),
    text,
  );
  assert.match(text, /Re-read these files/);
  assert.match(text, /not undone by the rewind[^\n]*\n- Bash: git push origin main \(irreversible\)/);
  // The prompt itself was recorded as usual.
  assert.equal(prompts(store, s.session).at(-1)!.label, 'Go on');
  assert.deepEqual(
    lineage(store).map((l) => [l.t, l.session, l.rewinds, l.event]),
    [['regrounded', s.session, [rw.checkpoint], 'UserPromptSubmit']],
  );

  // Said once: the next prompt, a resume, every tool event are silent again.
  s.prompt('And now?');
  s.start('resume');
  s.write('b.txt', 'b\n');
  assert.equal(lineage(store).length, 1);
});

test("resume: a rewind between two runs is told at SessionStart, and the run's prompt stays silent", () => {
  const { ws, store, s, p } = recorded();
  cliJson(['rewind', '--to', p[0]!.id], { store });
  const text = contextOf(start(s, 'resume'), 'SessionStart');
  assert.ok(text.includes(`- ${path.join(ws, 'a.txt')} (deleted: it did not exist before the prompt "Create a.txt")`), text);
  assert.ok(text.includes(`- ${path.join(ws, 'notes.txt')} (deleted`), text);
  s.prompt('Carry on'); // throws on any output
  assert.equal(lineage(store).at(-1)!.event, 'SessionStart');
});

test("each new rewind is told once; a rewind and its undo, a new or cleared session, another session's files: nothing", () => {
  const { ws, store, s, p } = recorded();
  // Undone before the next prompt: the disk is as the conversation left it.
  const rw = cliJson(['rewind', '--to', p[1]!.id], { store });
  cliJson(['rewind', '--to', rw.checkpoint], { store });
  s.prompt('Next');
  assert.deepEqual(lineage(store), []);

  // startup and clear begin an empty conversation.
  cliJson(['rewind', '--to', p[1]!.id], { store });
  const fresh = new ClaudeSession(store, ws);
  fresh.start('startup');
  fresh.start('clear');
  fresh.prompt('Hello'); // it never changed a.txt or notes.txt
  assert.deepEqual(lineage(store), []);

  // The first session hears about that rewind at its next prompt, then about a later one.
  assert.match(contextOf(prompt(s, 'Again'), 'UserPromptSubmit'), /a\.txt/);
  s.write('c.txt', 'c\n');
  const p3 = prompts(store, s.session).at(-1)!;
  cliJson(['rewind', '--to', p3.id], { store });
  const later = contextOf(prompt(s, 'Once more'), 'UserPromptSubmit');
  assert.ok(later.includes(`- ${path.join(ws, 'c.txt')} (deleted: it did not exist before the prompt "Again")`), later);
  assert.ok(!later.includes('a.txt'), 'a.txt was told already and has not changed since');
  assert.equal(lineage(store).length, 2);
  const errors = path.join(store, 'errors.log');
  assert.equal(fs.existsSync(errors) ? fs.readFileSync(errors, 'utf8').trim() : '', '', 'nothing went wrong on the way');
});

test('a forked session: at its start it gets the fork re-grounding; a later files-only rewind is told at its next prompt', () => {
  const { ws, store, s, p } = recorded();
  // A session-log fork before prompt 2 (no transcript needed), resumed under its own id.
  const f = cliJson(['conversation', 'fork', '--session', s.session, '--before', p[1]!.id], { store });
  const fs1 = new ClaudeSession(store, ws, f.session);
  const first = contextOf(start(fs1, 'resume'), 'SessionStart');
  assert.match(first, /This conversation was rewound: it is a fork/);
  fs1.prompt('Do it differently');
  // The fork remembers turn 1 (a.txt = "one"); rewinding to before prompt 1 deletes it.
  cliJson(['rewind', '--to', p[0]!.id], { store });
  const text = contextOf(prompt(fs1, 'Now what?'), 'UserPromptSubmit');
  assert.ok(text.includes(`- ${path.join(ws, 'a.txt')} (deleted: it did not exist before the prompt "Create a.txt")`), text);
  assert.ok(!text.includes('notes.txt'), 'notes.txt came from the discarded turn: the fork never knew it');
  assert.deepEqual(
    lineage(store).map((l) => [l.t, l.session, l.event ?? null]),
    [
      ['fork', f.session, null],
      ['regrounded', f.session, null],
      ['regrounded', f.session, 'UserPromptSubmit'],
    ],
  );
});

test('resume after a rewind to prompt 3: only the actions after prompt 3 are named, not those of an earlier rewind undone since', () => {
  const { ws, store } = sandbox();
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('Write a.txt');
  s.write('a.txt', 'one\n');
  s.prompt('Commit it and push to origin');
  s.bash('git commit -q -m a');
  s.bash('git push -q origin main');
  s.prompt('Push to the mirror, then change a.txt');
  s.bash('git push -q mirror main');
  s.edit('a.txt', 'one', 'two');
  const [, p2, p3] = prompts(store, s.session);
  // A look at prompt 2 first, taken back, then the rewind the user meant.
  const look = cliJson(['rewind', '--to', p2!.id], { store });
  cliJson(['rewind', '--to', look.checkpoint], { store });
  cliJson(['rewind', '--to', p3!.id], { store });
  assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\n');

  const text = contextOf(start(s, 'resume'), 'SessionStart');
  assert.ok(text.includes(`- ${path.join(ws, 'a.txt')} (now as it was before the prompt "Push to the mirror, then change a.txt")`), text);
  assert.match(text, /not undone by the rewind[^\n]*\n- Bash: git push -q mirror main \(irreversible\)$/);
  assert.doesNotMatch(text, /git commit|origin/);
});
