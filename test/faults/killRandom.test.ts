// Random kills: real `agent-rewind` processes SIGKILLed at random moments, hundreds of times.
//  - rewinds (of a few dozen and of a few hundred files), killed anywhere from process start to
//    the end; after each: the store verifies, every file holds one state's bytes, the killed
//    rewind can be undone and redone without --force, byte-exact;
//  - hooks (prompts, Write, Bash with shell capture), a few at a time, killed at random moments or
//    at their own fault points (half a blob, half a line); after each batch the store verifies
//    (a torn line is a warning, never a damaged blob), and afterwards recording and shell capture
//    still work and a rewind is exact.
// The seed is printed (FAULTS_SEED reruns the same kills); the counts and the time are printed.
// FAULTS_REWIND_KILLS and FAULTS_HOOK_KILLS change how many.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  agentWorld,
  assertBetween,
  assertSound,
  assertTree,
  fs,
  json,
  ok,
  path,
  prng,
  rewindCheckpoints,
  run,
  runAsync,
  runKilledAt,
  SEED,
  type Tree,
  tree,
} from './world';

const REWIND_KILLS = Number(process.env.FAULTS_REWIND_KILLS || 120);
const HOOK_KILLS = Number(process.env.FAULTS_HOOK_KILLS || 300);

/** The store is sound, and any warning is of what readers skip (torn lines, temp files, an unfinished rewind). */
function soundMidway(store: string, what: string): void {
  const { report } = assertSound(store, what);
  const other = report.warnings.filter((w: string) => !/not valid JSON|temporary blob|unfinished rewind/.test(w));
  assert.deepEqual(other, [], 'only torn lines and temp files, which readers skip');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

describe(`random kills (seed ${SEED})`, () => {
  it(`${REWIND_KILLS} rewinds killed at random moments: sound, no byte lost, undo and redo work every time`, async () => {
    const rand = prng(SEED);
    const t0 = Date.now();
    let kills = 0;
    let partial = 0;
    let iterations = 0;
    const sizes = new Map<number, number>();
    // Worlds are replaced now and then so the timeline stays the size a real one has.
    const PER_WORLD = 12;
    for (let round = 0; iterations < REWIND_KILLS; round++) {
      const files = round % 3 === 2 ? 300 : 60; // every third world: a rewind of a few hundred files
      const w = agentWorld(files, SEED + round);
      let cur: Tree = w.after;
      let other: Tree = w.before;
      let target = w.start;
      // How long a whole rewind takes here, both ways: kills land in [0, 1.2 × that].
      const d1 = ok(run(w.store, ['rewind', '--to', target]), 'timing rewind').ms;
      const back = rewindCheckpoints(w.store).at(-1)!;
      const d2 = ok(run(w.store, ['rewind', '--to', back]), 'timing undo').ms;
      assertTree(w.ws, w.after, 'timing round trip');
      const span = Math.max(d1, d2) * 1.2;
      // Most kills land after start-up (where the work is); a fifth anywhere, start-up included.
      const startup = median([0, 1, 2].map(() => ok(run(w.store, ['--version']), 'start-up').ms));
      const when = () => (rand() < 0.2 ? rand() * span : startup + rand() * Math.max(span - startup, 1));
      for (let k = 0; k < PER_WORLD && iterations < REWIND_KILLS; k++, iterations++) {
        const what = `seed ${SEED}, world ${round} (${files} files), kill ${k}`;
        const known = rewindCheckpoints(w.store).length;
        const r = await runKilledAt(w.store, ['rewind', '--to', target], when());
        if (r.signal === 'SIGKILL') kills++;
        else ok(r, `${what}: an unkilled rewind`);
        sizes.set(files, (sizes.get(files) ?? 0) + 1);

        assertSound(w.store, what); // runs the recovery of the killed rewind first
        const split = assertBetween(w.ws, cur, other, what);
        if (split.inA > 0 && split.inB > 0) partial++;
        const created = rewindCheckpoints(w.store).slice(known);
        assert.ok(created.length <= 1, what);
        // Undo: exactly as before the killed rewind. Then redo it whole. No --force either time.
        if (created.length === 1) ok(run(w.store, ['rewind', '--to', created[0]!]), `${what}: undo`);
        assertTree(w.ws, cur, `${what}: after undo`);
        ok(run(w.store, ['rewind', '--to', target]), `${what}: rewind again`);
        assertTree(w.ws, other, `${what}: after rewinding again`);
        // Next kill goes the other way: back to where we were, through this rewind's checkpoint.
        target = rewindCheckpoints(w.store).at(-1)!;
        [cur, other] = [other, cur];
      }
      assertSound(w.store, `world ${round} at the end`);
    }
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(
      `  rewind kills: ${iterations} iterations (${[...sizes].map(([f, n]) => `${n} × ${f} files`).join(', ')}), ${kills} killed mid-run, ` +
        `${partial} left files half rewound; 0 verify failures, 0 lost bytes, undo + redo ok after every one; ${secs}s`,
    );
    assert.ok(kills >= iterations * 0.5, `most runs must actually be killed (${kills} of ${iterations})`);
    assert.ok(partial > 0, 'some kills must land between file writes');
  });

  it(`${HOOK_KILLS} hooks killed at random moments and fault points: sound store, recording and capture still work`, async () => {
    const rand = prng(SEED ^ 0x5eed);
    const t0 = Date.now();
    const w = agentWorld(30, SEED);
    const session = 'hook-kill-session';
    const base = { session_id: session, cwd: w.ws, transcript_path: path.join(w.ws, '..', 't.jsonl'), permission_mode: 'default' };
    const hookInput = (p: Record<string, unknown>) => JSON.stringify({ ...base, ...p });
    ok(run(w.store, ['hook', 'claude'], { input: hookInput({ hook_event_name: 'SessionStart', source: 'startup' }) }), 'session start');
    // A typical hook's duration, for the kill window.
    const typical = median(
      Array.from(
        { length: 5 },
        (_, i) =>
          ok(run(w.store, ['hook', 'claude'], { input: hookInput({ hook_event_name: 'UserPromptSubmit', prompt: `warm ${i}` }) }), 'warm')
            .ms,
      ),
    );
    const FAULTS = ['blob.write:1', 'log.append:1', 'hook.record:1', 'log.append:2', 'lock.acquired:1'];
    let kills = 0;
    let faultKills = 0;
    let seq = 0;
    let spawned = 0;
    const hooks = (i: number): string[] => {
      // One tool call's hooks, or a prompt. Files changed between Pre and Post, as the tool would.
      const id = `toolu_hk${seq++}`;
      const file = path.join(w.ws, `agent-${i % 17}.txt`);
      switch (i % 4) {
        case 0:
          return [hookInput({ hook_event_name: 'UserPromptSubmit', prompt: `prompt ${i} ${'x'.repeat(i % 300)}` })];
        case 1:
        case 2: {
          const input = { file_path: file, content: `v${i}\n`.repeat(1 + (i % 500)) };
          return [
            hookInput({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: id, tool_input: input }),
            hookInput({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_use_id: id, tool_input: input, tool_response: {} }),
          ];
        }
        default: {
          const input = { command: `echo ${i} > shell-${i % 5}.txt && sed -i s/a/b/ agent-1.txt` };
          return [
            hookInput({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: id, tool_input: input }),
            hookInput({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: id, tool_input: input, tool_response: {} }),
          ];
        }
      }
    };
    let i = 0;
    while (kills < HOOK_KILLS) {
      // A batch of four tool calls at once (an agent runs parallel calls), each hook maybe killed.
      const batch: Promise<unknown>[] = [];
      for (let b = 0; b < 4; b++, i++) {
        const inputs = hooks(i);
        const fileEffect =
          i % 4 === 1 || i % 4 === 2
            ? () => fs.writeFileSync(path.join(w.ws, `agent-${i % 17}.txt`), `v${i}\n`.repeat(1 + (i % 500)))
            : i % 4 === 3
              ? () => fs.writeFileSync(path.join(w.ws, `shell-${i % 5}.txt`), `${i}\n`)
              : () => {};
        batch.push(
          (async () => {
            for (const [n, input] of inputs.entries()) {
              if (n === 1) fileEffect();
              spawned++;
              // One of three: armed at a fault point, killed at a random moment, or left alone.
              const r = rand();
              const how = r < 0.3 ? 'fault' : r < 0.85 ? 'timer' : 'alone';
              const res =
                how === 'fault'
                  ? await runAsync(w.store, ['hook', 'claude'], { input, fault: FAULTS[Math.floor(rand() * FAULTS.length)]! })
                  : how === 'timer'
                    ? await runKilledAt(w.store, ['hook', 'claude'], rand() * typical * 1.3, input)
                    : await runAsync(w.store, ['hook', 'claude'], { input });
              const killed = how !== 'alone' && res.signal === 'SIGKILL';
              assert.ok(
                killed || (res.status === 0 && res.stdout === ''),
                `a hook that was not killed (${how}) exits 0, silent: ${res.stderr}`,
              );
              if (killed) kills++;
              if (killed && how === 'fault') faultKills++;
            }
          })(),
        );
      }
      await Promise.all(batch);
      // Every tenth batch: the store is sound midway (and after the last one, below).
      if (i % 40 === 0) soundMidway(w.store, `after ${kills} hook kills (seed ${SEED})`);
    }
    const { report } = assertSound(w.store, `after all hook kills (seed ${SEED})`);
    const torn = report.warnings.filter((x: string) => /not valid JSON/.test(x)).length;
    json(w.store, ['checkpoints']); // readers skip the torn lines

    // Recording, shell capture and rewinds still work after all of that. The file the last command
    // deletes may have been last written by a call whose hooks were all killed: the prompt's
    // boundary observation records what is on disk, so the checkpoint is exact all the same.
    ok(
      run(w.store, ['hook', 'claude'], { input: hookInput({ hook_event_name: 'UserPromptSubmit', prompt: 'after the kills' }) }),
      'prompt',
    );
    const mark = json<{ id: string; label: string }[]>(w.store, ['checkpoints']).at(-1)!;
    assert.equal(mark.label, 'after the kills');
    const atMark = tree(w.ws);
    const id = `toolu_final`;
    const cmd = { command: 'printf new > made-by-shell.txt && rm agent-3.txt' };
    ok(
      run(w.store, ['hook', 'claude'], {
        input: hookInput({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: id, tool_input: cmd }),
      }),
      'bash pre',
    );
    fs.writeFileSync(path.join(w.ws, 'made-by-shell.txt'), 'new');
    fs.rmSync(path.join(w.ws, 'agent-3.txt'), { force: true });
    ok(
      run(w.store, ['hook', 'claude'], {
        input: hookInput({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: id, tool_input: cmd, tool_response: {} }),
      }),
      'bash post',
    );
    ok(run(w.store, ['rewind', '--to', mark.id]), 'rewind after the kills');
    assertTree(w.ws, atMark, 'a shell command after all the kills is captured and rewound exactly');
    assertSound(w.store, 'at the end');
    console.log(
      `  hook kills: ${spawned} hook processes, ${kills} killed (${faultKills} at fault points: half a blob, half a line, before recording), ` +
        `${torn} torn line(s) skipped and reported, 0 damaged blobs; ${((Date.now() - t0) / 1000).toFixed(1)}s`,
    );
  });
});
