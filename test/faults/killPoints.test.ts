// A rewind SIGKILLed at every step it has (AGENT_REWIND_FAULT=<point>:<n> makes the real CLI
// process kill itself exactly there). After each kill: the next command finishes what it can,
// `verify` passes, every file holds either the old or the new bytes, and both "undo that rewind"
// and "rewind again" work without --force, byte-exact.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandbox } from '../helpers/tmp';
import { agentWorld, assertBetween, assertSound, assertTree, fs, json, ok, path, rewindCheckpoints, run, tree } from './world';

// Every point a rewind passes, in order; `rewind.tmp` and `rewind.write` at the first, a middle
// and the last file; `log.append` for the pre-rewind lines (1st append) and the rewind snapshots
// (2nd). (What a rewind overwrites is already stored — the agent's `after` — so it writes no blob;
// `blob.write` is killed in the hook tests.)
const FILES = 40;
const POINTS = [
  'lock.acquired:1',
  'rewind.planned:1',
  'rewind.presnaps:1',
  'log.append:1',
  'rewind.checkpoint:1',
  'rewind.journal:1',
  'rewind.tmp:1',
  'rewind.write:1',
  'rewind.tmp:20',
  'rewind.write:20',
  'rewind.write:LAST',
  'rewind.written:1',
  'log.append:2',
  'rewind.recorded:1',
];

describe('a rewind killed at each of its steps', () => {
  for (const point of POINTS) {
    it(`${point}: recovered, sound, undo and rewind again work without --force`, () => {
      const w = agentWorld(FILES, 4242);
      const plan = JSON.parse(ok(run(w.store, ['plan', '--to', w.start, '--json']), 'plan').stdout);
      const n = plan.files.length;
      assert.ok(n > 30, `the plan writes many files (${n})`);
      const fault = point.replace('LAST', String(n));
      const before = rewindCheckpoints(w.store).length;

      const killed = run(w.store, ['rewind', '--to', w.start], { fault });
      assert.equal(killed.signal, 'SIGKILL', `the rewind must die at ${fault} (it exited ${killed.status}: ${killed.stderr})`);

      // The next command notices and finishes the interrupted rewind; the store is sound.
      const { stderr } = assertSound(w.store, point);
      const split = assertBetween(w.ws, w.after, w.before, point);
      const created = rewindCheckpoints(w.store).slice(before);
      assert.ok(created.length <= 1);
      // Files were written: then the rewind checkpoint exists and the recovery is reported.
      assert.ok(
        split.inB === 0 || (created.length === 1 && /Finished an interrupted rewind .*\d+ file\(s\) had been written/.test(stderr)),
        `${split.inB} file(s) written, ${created.length} rewind checkpoint(s); stderr: ${stderr}`,
      );

      if (created.length === 1) {
        // Undo the interrupted rewind: back to exactly what was there before it.
        ok(run(w.store, ['rewind', '--to', created[0]!]), `${point}: undo`);
        assertTree(w.ws, w.after, `${point}: undo restores every byte`);
      } else assertTree(w.ws, w.after, `${point}: nothing was written`);

      // Rewind again, then undo that: each byte-exact, no --force needed.
      ok(run(w.store, ['rewind', '--to', w.start]), `${point}: rewind again`);
      assertTree(w.ws, w.before, `${point}: rewind again restores the checkpoint`);
      const last = rewindCheckpoints(w.store).at(-1)!;
      ok(run(w.store, ['rewind', '--to', last]), `${point}: undo the second rewind`);
      assertTree(w.ws, w.after, 'state');
      assertSound(w.store, `${point}, at the end`);
    });
  }

  it('a recovery killed before it removed the journal is finished by the next command, once', () => {
    const w = agentWorld(FILES, 77);
    const killed = run(w.store, ['rewind', '--to', w.start], { fault: 'rewind.write:10' });
    assert.equal(killed.signal, 'SIGKILL');
    const rec = run(w.store, ['checkpoints'], { fault: 'recover.recorded:1' });
    assert.equal(rec.signal, 'SIGKILL', 'the recovery dies after recording, journal still there');
    const second = assertSound(w.store, 'after the killed recovery');
    assert.match(second.stderr, /Finished an interrupted rewind/);
    assert.doesNotMatch(assertSound(w.store, 'third command').stderr, /interrupted/, 'reported once, then gone');
    assertBetween(w.ws, w.after, w.before, 'after recovery');
    ok(run(w.store, ['rewind', '--to', rewindCheckpoints(w.store).at(-1)!]), 'undo');
    assertTree(w.ws, w.after, 'state');
  });

  it('an undo killed half-way is itself recovered and undone: the chain never loses a byte', () => {
    const w = agentWorld(FILES, 99);
    ok(run(w.store, ['rewind', '--to', w.start]), 'rewind');
    const r1 = rewindCheckpoints(w.store).at(-1)!;
    const killed = run(w.store, ['rewind', '--to', r1], { fault: 'rewind.write:15' });
    assert.equal(killed.signal, 'SIGKILL');
    assertSound(w.store, 'after the killed undo');
    assertBetween(w.ws, w.before, w.after, 'half undone');
    const r2 = rewindCheckpoints(w.store).at(-1)!;
    assert.notEqual(r2, r1);
    ok(run(w.store, ['rewind', '--to', r2]), 'undo the half undo');
    assertTree(w.ws, w.before, 'state');
    ok(run(w.store, ['rewind', '--to', r1]), 'undo the first rewind, whole this time');
    assertTree(w.ws, w.after, 'state');
  });
});

/** A Claude Code session in a fresh workspace holding `files`, started and at its first prompt ("one"); `hook` arms a fault point. */
function sessionAtPromptOne(session: string, files: Record<string, string>) {
  const { ws, store } = sandbox();
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(ws, name), text);
  const hook = (p: Record<string, unknown>, fault?: string) =>
    run(store, ['hook', 'claude'], {
      input: JSON.stringify({ session_id: session, cwd: ws, permission_mode: 'default', ...p }),
      ...(fault ? { fault } : {}),
    });
  ok(hook({ hook_event_name: 'SessionStart', source: 'startup' }), 'start');
  ok(hook({ hook_event_name: 'UserPromptSubmit', prompt: 'one' }), 'prompt one');
  return { ws, store, hook, one: tree(ws) };
}

describe('a PostToolUse hook killed before it recorded anything', () => {
  it('the next prompt records what the call did (file tool and shell command): the checkpoints stay exact', () => {
    const { ws, store, hook, one } = sessionAtPromptOne('orphans', { 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    // A Write whose PostToolUse dies before recording; a Bash command whose PostToolUse dies too.
    const write = { tool_name: 'Write', tool_use_id: 'toolu_w', tool_input: { file_path: path.join(ws, 'a.txt'), content: 'a1\n' } };
    ok(hook({ hook_event_name: 'PreToolUse', ...write }), 'write pre');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a1\n');
    assert.equal(hook({ hook_event_name: 'PostToolUse', ...write, tool_response: {} }, 'hook.record:1').signal, 'SIGKILL');
    const bash = { tool_name: 'Bash', tool_use_id: 'toolu_b', tool_input: { command: 'sed -i s/b0/b1/ b.txt && touch c.txt' } };
    ok(hook({ hook_event_name: 'PreToolUse', ...bash }), 'bash pre');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b1\n');
    fs.writeFileSync(path.join(ws, 'c.txt'), '');
    assert.equal(hook({ hook_event_name: 'PostToolUse', ...bash, tool_response: {} }, 'hook.record:1').signal, 'SIGKILL');
    ok(hook({ hook_event_name: 'UserPromptSubmit', prompt: 'two' }), 'prompt two');
    const two = tree(ws);
    const list = json<{ id: string; label: string }[]>(store, ['checkpoints']);
    const at = (label: string) => list.find((c) => c.label === label)!.id;
    // The agent edits on: a rewind to "two" must bring back the killed calls' results, not what was before them.
    ok(hook({ hook_event_name: 'PreToolUse', ...write, tool_use_id: 'toolu_w2' }), 'write 2 pre');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a2\n');
    ok(hook({ hook_event_name: 'PostToolUse', ...write, tool_use_id: 'toolu_w2', tool_response: {} }), 'write 2 post');
    ok(run(store, ['rewind', '--to', at('two')]), 'rewind to two');
    assertTree(ws, two, 'the results of the calls whose PostToolUse died are the state at "two"');
    ok(run(store, ['rewind', '--to', at('one')]), 'rewind to one');
    assertTree(ws, one, 'and the shell command is rewound like any other: attributed to its call');
    const attributed = fs
      .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((l) => l.t === 'snap' && l.phase === 'after' && (l.call === 'toolu_w' || l.call === 'toolu_b'))
      .map((l) => `${l.call} ${path.basename(l.path)}`)
      .sort();
    assert.deepEqual(attributed, ['toolu_b b.txt', 'toolu_b c.txt', 'toolu_w a.txt']);
  });
});

// A shell command's PostToolUse hook scans, stores the changed content, appends the snapshots and then
// saves the session's scan state. Killed in that append (a torn line) or just after it, before the state
// is saved, the state still holds what the disk was before the command: the next turn boundary captures
// the command's changes as its own (the call stays pending), so a checkpoint is never left without them —
// and writes only what the log lacks, so a whole append is not written twice.
describe('a shell PostToolUse killed in or after its append, before its scan state is saved', () => {
  for (const point of ['log.append:1', 'shell.appended:1']) {
    it(`${point}: the next prompt has the command's changes, attributed to it; rewinds are exact`, () => {
      const { ws, store, hook, one } = sessionAtPromptOne('torn', { 'b.txt': 'b0\n' });
      const bash = { tool_name: 'Bash', tool_use_id: 'toolu_b', tool_input: { command: 'sed -i s/b0/b1/ b.txt && echo c > c.txt' } };
      ok(hook({ hook_event_name: 'PreToolUse', ...bash }), 'bash pre');
      fs.writeFileSync(path.join(ws, 'b.txt'), 'b1\n');
      fs.writeFileSync(path.join(ws, 'c.txt'), 'c\n');
      assert.equal(hook({ hook_event_name: 'PostToolUse', ...bash, tool_response: {} }, point).signal, 'SIGKILL');
      ok(hook({ hook_event_name: 'UserPromptSubmit', prompt: 'two' }), 'prompt two');
      const two = tree(ws);
      assertSound(store, point);
      const list = json<{ id: string; label: string }[]>(store, ['checkpoints']);
      const at = (label: string) => list.find((c) => c.label === label)!.id;
      const snaps = fs
        .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{') && l.endsWith('}'))
        .map((l) => JSON.parse(l))
        .filter((l) => l.t === 'snap' && l.call === 'toolu_b')
        .map((l) => `${l.phase} ${path.basename(l.path)}`)
        .sort();
      assert.deepEqual(snaps, ['after b.txt', 'after c.txt', 'before b.txt', 'before c.txt'], "the command's snapshots, once each");
      ok(run(store, ['rewind', '--to', at('one')]), 'rewind to one');
      assertTree(ws, one, 'the shell command is rewound');
      ok(run(store, ['rewind', '--to', at('two')]), 'rewind to two');
      assertTree(ws, two, 'and brought back');
    });
  }
});
