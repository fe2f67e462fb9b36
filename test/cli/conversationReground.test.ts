// Re-grounding from a real hook process: a session is recorded through `agent-rewind hook claude`,
// its transcript forked with the CLI, and the fork's SessionStart (source resume, session_id = the
// fork's id, as the real CLI sends it) prints the additionalContext once — and only then.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

interface Prompt {
  id: string;
  label: string;
  promptId?: string;
}

/** The prompt checkpoints the hooks recorded for a session. */
function promptCheckpoints(store: string, session: string): Prompt[] {
  return fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.t === 'checkpoint' && r.kind === 'prompt' && r.session === session);
}

/** A transcript for the recorded prompts, shaped like Claude Code's (promptId on each prompt line, unless told not to). */
function writeTranscript(s: ClaudeSession, prompts: Prompt[], withPromptIds = true): string[] {
  const lines: string[] = [];
  const uuids: string[] = [];
  let parent: string | null = null;
  prompts.forEach((p, i) => {
    const u = `00000000-0000-4000-8000-${String(i * 2 + 1).padStart(12, '0')}`;
    const a = `00000000-0000-4000-8000-${String(i * 2 + 2).padStart(12, '0')}`;
    const common = {
      isSidechain: false,
      cwd: s.cwd,
      sessionId: s.session,
      version: '2.1.332',
      timestamp: new Date(1_800_000_000_000 + i * 1000).toISOString(),
    };
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        type: 'user',
        uuid: u,
        ...(withPromptIds && p.promptId ? { promptId: p.promptId } : {}),
        message: { role: 'user', content: p.label },
        ...common,
      }),
    );
    lines.push(
      JSON.stringify({
        parentUuid: u,
        type: 'assistant',
        uuid: a,
        message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
        ...common,
      }),
    );
    parent = a;
    uuids.push(u);
  });
  fs.writeFileSync(s.transcript, lines.join('\n') + '\n');
  return uuids;
}

function sessionStart(store: string, s: ClaudeSession, session: string, transcript: string, source = 'resume') {
  return cli(['hook', 'claude'], {
    store,
    input: JSON.stringify({
      session_id: session,
      transcript_path: transcript,
      cwd: s.cwd,
      hook_event_name: 'SessionStart',
      source,
      seconds_since_last_response: 12,
    }),
  });
}

/** Two turns: the first writes a.txt; the second edits it, creates b.txt and pushes. */
function recorded(): { store: string; ws: string; s: ClaudeSession; cut: string; prompts: Prompt[] } {
  const { ws, store } = sandbox();
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('Create a.txt');
  s.write('a.txt', 'one\n');
  s.prompt('Change a.txt, add b.txt and push');
  s.edit('a.txt', 'one', 'two');
  s.write('b.txt', 'bee\n');
  s.bash('git push origin main');
  const prompts = promptCheckpoints(store, s.session);
  const uuids = writeTranscript(s, prompts);
  return { store, ws, s, cut: uuids[1]!, prompts };
}

function contextOf(stdout: string): string {
  const j = JSON.parse(stdout);
  assert.deepEqual(Object.keys(j), ['hookSpecificOutput']);
  assert.deepEqual(Object.keys(j.hookSpecificOutput), ['hookEventName', 'additionalContext']);
  assert.equal(j.hookSpecificOutput.hookEventName, 'SessionStart');
  return j.hookSpecificOutput.additionalContext as string;
}

test('conversation-only rewind: the resumed fork is told which files still hold the discarded edits, what already ran, and to re-read — once', () => {
  const { store, ws, s, cut } = recorded();
  const f = cliJson(['conversation', 'fork', '--transcript', s.transcript, '--before', cut], { store });
  const r = sessionStart(store, s, f.session, f.transcript);
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  const text = contextOf(r.stdout);
  assert.match(text, new RegExp(`fork of session ${s.session}, cut before the prompt "Change a.txt, add b.txt and push"`));
  assert.match(text, /still hold changes made in the discarded turns/);
  assert.ok(text.includes(`- ${path.join(ws, 'a.txt')}\n`) && text.includes(`- ${path.join(ws, 'b.txt')}\n`), text);
  assert.match(text, /do not run them again[^\n]*\n- Bash: git push origin main \(irreversible\)/);
  assert.match(text, /Re-read any file/);
  assert.doesNotMatch(text, /rewound \(/);

  // Once per forked session: the next start, and every other event, print nothing.
  assert.equal(sessionStart(store, s, f.session, f.transcript).stdout, '');
  const prompt = cli(['hook', 'claude'], {
    store,
    input: JSON.stringify({
      session_id: f.session,
      transcript_path: f.transcript,
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'again',
      prompt_id: 'x',
    }),
  });
  assert.equal(prompt.stdout, '');
  const lineage = fs
    .readFileSync(path.join(store, 'lineage.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lineage.map((l) => l.t),
    ['fork', 'regrounded'],
  );
});

test('both: after the files are rewound to the cut, the fork is told which files were reverted instead', () => {
  const { store, ws, s, cut, prompts } = recorded();
  const f = cliJson(['conversation', 'fork', '--transcript', s.transcript, '--before', cut], { store });
  const rw = cli(['rewind', '--to', prompts[1]!.id, '--json'], { store });
  assert.equal(rw.status, 0, rw.stderr);
  assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\n');
  const text = contextOf(sessionStart(store, s, f.session, f.transcript).stdout);
  assert.match(text, /were rewound/);
  assert.ok(text.includes(`${path.join(ws, 'a.txt')} (restored to how it was before that prompt)`), text);
  assert.ok(text.includes(`${path.join(ws, 'b.txt')} (deleted: it did not exist before that prompt)`), text);
  assert.doesNotMatch(text, /still hold changes/);
  assert.match(text, /git push origin main/, 'the push is not undone by a files rewind');
});

test('without prompt ids in the transcript the cut is found by session, text and order', () => {
  const { ws, store } = sandbox();
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('Try it');
  s.write('x.txt', '1\n');
  s.prompt('Try it');
  s.write('y.txt', '2\n');
  const uuids = writeTranscript(s, promptCheckpoints(store, s.session), false);
  const f = cliJson(['conversation', 'fork', '--transcript', s.transcript, '--before', uuids[1]!], { store });
  const text = contextOf(sessionStart(store, s, f.session, f.transcript).stdout);
  assert.ok(text.includes(path.join(ws, 'y.txt')), 'the second "Try it" is the cut');
  assert.ok(!text.includes(path.join(ws, 'x.txt')), text);
});

test('a session our lineage does not know, and a fork started with another source, print nothing', () => {
  const { store, s, cut } = recorded();
  s.start('resume'); // the helper itself fails on any output
  const f = cliJson(['conversation', 'fork', '--transcript', s.transcript, '--before', cut], { store });
  for (const source of ['startup', 'clear', 'compact']) assert.equal(sessionStart(store, s, f.session, f.transcript, source).stdout, '');
  assert.notEqual(sessionStart(store, s, f.session, f.transcript, 'resume').stdout, '');
});

/** The compat tier's repro: turn 1 edits a.txt (a0→a1); turn 2 edits b.txt (b0→b1) and pushes. */
function repro(): { store: string; ws: string; s: ClaudeSession; cut: string; prompts: Prompt[] } {
  const { ws, store } = sandbox();
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a0\n');
  fs.writeFileSync(path.join(ws, 'b.txt'), 'b0\n');
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('Edit a.txt');
  s.edit('a.txt', 'a0', 'a1');
  s.prompt('Edit b.txt and push');
  s.edit('b.txt', 'b0', 'b1');
  s.bash('git push nowhere main');
  const prompts = promptCheckpoints(store, s.session);
  const uuids = writeTranscript(s, prompts);
  return { store, ws, s, cut: uuids[1]!, prompts };
}

test('bug: files rewound, the rewind undone, then a conversation fork — the fork hears what is on disk (b.txt still edited, the push), as without the rewind', () => {
  const { store, ws, s, cut, prompts } = repro();
  const rw = cliJson(['rewind', '--to', prompts[0]!.id], { store });
  assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a0\n');
  cliJson(['rewind', '--to', rw.checkpoint], { store });
  assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a1\n');
  assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'b1\n');
  const f = cliJson(['conversation', 'fork', '--transcript', s.transcript, '--before', cut], { store });
  const text = contextOf(sessionStart(store, s, f.session, f.transcript).stdout);
  assert.ok(
    text.includes(
      `still hold changes made in the discarded turns (newer than this conversation remembers):\n- ${path.join(ws, 'b.txt')}\n`,
    ),
    text,
  );
  assert.ok(!text.includes(path.join(ws, 'a.txt')), text);
  assert.doesNotMatch(text, /Files that were rewound|restored/);
  assert.match(text, /Bash: git push nowhere main \(irreversible\)/);

  // Word for word what a store without the rewind and its undo says (paths aside).
  const plain = repro();
  const pf = cliJson(['conversation', 'fork', '--transcript', plain.s.transcript, '--before', plain.cut], { store: plain.store });
  const expected = contextOf(sessionStart(plain.store, plain.s, pf.session, pf.transcript).stdout);
  const neutral = (t: string, w: string, parent: string) => t.split(w).join('<ws>').split(parent).join('<parent>');
  assert.equal(neutral(text, ws, s.session), neutral(expected, plain.ws, plain.s.session));
});
