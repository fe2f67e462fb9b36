// Processes sharing one store at once, as they do in real use: the agent's hooks keep recording
// while the user rewinds or cleans up. Serialized by the store's locks or refused with a clear
// message — never interleaved into a wrong state, never a lost record.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  agentWorld,
  assertSound,
  assertTree,
  fs,
  json,
  ok,
  path,
  rewindCheckpoints,
  run,
  runAsync,
  type Run,
  stopped,
  tree,
} from './world';
import { sandbox } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function hookPayload(ws: string, session: string, p: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: session,
    cwd: ws,
    transcript_path: path.join(ws, '..', `${session}.jsonl`),
    permission_mode: 'default',
    ...p,
  });
}

/** A Write by the agent through both hooks, the file written in between; returns the Post's result. */
async function agentWrite(store: string, ws: string, session: string, rel: string, content: string, id: string): Promise<Run[]> {
  const file = path.join(ws, rel);
  const input = { file_path: file, content };
  const pre = await runAsync(store, ['hook', 'claude'], {
    input: hookPayload(ws, session, { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: id, tool_input: input }),
  });
  fs.writeFileSync(file, content);
  const post = await runAsync(store, ['hook', 'claude'], {
    input: hookPayload(ws, session, {
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_use_id: id,
      tool_input: input,
      tool_response: {},
    }),
  });
  return [pre, post];
}

interface Line {
  t: string;
  path?: string;
  hash?: string | null;
  phase?: string;
  label?: string;
  kind?: string;
}
function lines(store: string): Line[] {
  return fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

describe('concurrent processes on one store', () => {
  it('hooks keep recording while a rewind of 300 files runs: every record kept, the rewind exact, undo loses nothing', async () => {
    const w = agentWorld(300, 1234);
    // The rewind stops itself after its 100th file (SIGSTOP, store lock held, journal written): the
    // hooks run while it is there, for sure rather than by timing, and it goes on after them.
    let pid = 0;
    const rewinding = runAsync(w.store, ['rewind', '--to', w.start], { fault: 'rewind.write:100:stop', started: (p) => (pid = p) });
    await waitUntil(() => pid !== 0 && stopped(pid), 'the rewind to stop after its 100th file');
    const hooks: Promise<Run | Run[]>[] = [];
    for (let k = 0; k < 16; k++) {
      hooks.push(agentWrite(w.store, w.ws, 'live-agent', `live-${k}.txt`, `written while the rewind ran ${k}\n`, `toolu_live${k}`));
      hooks.push(
        runAsync(w.store, ['hook', 'claude'], {
          input: hookPayload(w.ws, 'live-agent', { hook_event_name: 'UserPromptSubmit', prompt: `live prompt ${k}` }),
        }),
      );
    }
    const results = (await Promise.all(hooks)).flat();
    process.kill(pid, 'SIGCONT');
    for (const r of results) assert.deepEqual([r.status, r.stdout], [0, ''], 'every hook exits 0 and prints nothing');
    ok(await rewinding, 'the rewind');

    const recorded = lines(w.store);
    // The hooks really ran during the rewind: some of their lines sit between its checkpoint and its results.
    const from = recorded.findIndex((l) => l.t === 'checkpoint' && l.kind === 'rewind');
    let to = recorded.length - 1;
    while (to > from && !(recorded[to]!.t === 'snap' && recorded[to]!.phase === 'rewind')) to--;
    const during = recorded
      .slice(from, to)
      .filter((l) => (l.t === 'checkpoint' && l.label?.startsWith('live prompt')) || (l.t === 'snap' && l.path?.includes('live-'))).length;
    assert.ok(during > 0, 'hooks recorded while the rewind was writing');
    for (let k = 0; k < 16; k++) {
      assert.ok(
        recorded.some((l) => l.t === 'checkpoint' && l.label === `live prompt ${k}`),
        `prompt ${k} recorded`,
      );
      const file = path.join(w.ws, `live-${k}.txt`);
      const last = recorded.filter((l) => l.t === 'snap' && l.path === file).at(-1);
      assert.equal(last?.hash, sha(fs.readFileSync(file)), `the agent's write of live-${k}.txt recorded, after the rewind too`);
    }
    const live = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).filter(([k]) => k.startsWith('live-')));
    const liveFiles = live(tree(w.ws));
    assert.equal(Object.keys(liveFiles).length, 16);
    assertTree(w.ws, { ...w.before, ...liveFiles }, 'the rewound files are at the checkpoint; the live writes are there');
    assertSound(w.store, 'after the rewind');

    // Undo: the rewound files come back exactly. Writes recorded after the rewind checkpoint are
    // rewound with it (that is what a rewind to a moment means) — and come back with the undo's undo.
    const r1 = rewindCheckpoints(w.store).at(-1)!;
    ok(run(w.store, ['rewind', '--to', r1]), 'undo');
    const now = tree(w.ws);
    for (const k of Object.keys(w.after)) assert.equal(now[k], w.after[k], `undo restores ${k}`);
    ok(run(w.store, ['rewind', '--to', rewindCheckpoints(w.store).at(-1)!]), "undo's undo");
    assertTree(w.ws, { ...w.before, ...liveFiles }, 'everything is back: nothing was lost on the way');
  });

  it('gc while hooks record: serialized or refused clearly, and no record or blob a hook wrote is lost', async () => {
    const w = agentWorld(40, 555);
    const gcs: Promise<Run>[] = [];
    const hooks: Promise<Run | Run[]>[] = [];
    for (let k = 0; k < 30; k++) {
      hooks.push(agentWrite(w.store, w.ws, 'gc-agent', `during-gc-${k}.txt`, `content ${k} `.repeat(50 + k), `toolu_gc${k}`));
      if (k % 6 === 0)
        hooks.push(
          runAsync(w.store, ['hook', 'claude'], {
            input: hookPayload(w.ws, 'gc-agent', { hook_event_name: 'UserPromptSubmit', prompt: `during gc ${k}` }),
          }),
        );
      if (k % 8 === 2) gcs.push(runAsync(w.store, ['gc', '--keep-days', '0', '--json']));
      // The next write after this one is recorded: the gcs started meanwhile overlap the hooks that follow.
      await hooks.at(-1);
    }
    const hookRuns = (await Promise.all(hooks)).flat();
    for (const r of hookRuns) assert.deepEqual([r.status, r.stdout], [0, ''], 'hooks are never blocked or failed by a gc');
    const gcRuns = await Promise.all(gcs);
    const refusal = /^Another (cleanup|rewind|recording).* is running on this store.*; wait for it to finish and try again\.\n$/;
    for (const g of gcRuns)
      assert.ok(
        g.status === 0 || (g.status === 1 && refusal.test(g.stderr)),
        `a gc runs, or is refused saying why and what to do in one sentence: exit ${g.status}, ${g.stderr}`,
      );
    assert.ok(gcRuns.filter((g) => g.status === 0).length >= 1, 'at least one gc ran');
    ok(await runAsync(w.store, ['gc', '--keep-days', '0']), 'a gc with nothing else running');
    assertSound(w.store, 'after gc and hooks');
    // Every file the hooks wrote: its latest record is what is on disk (the gc kept it, in order).
    const recorded = lines(w.store);
    for (let k = 0; k < 30; k++) {
      const file = path.join(w.ws, `during-gc-${k}.txt`);
      const last = recorded.filter((l) => l.t === 'snap' && l.path === file).at(-1);
      assert.equal(last?.hash, sha(fs.readFileSync(file)), `during-gc-${k}.txt: the last record survived the compaction`);
    }
  });

  it('gc keeps the content a live session still needs for shell capture (untracked files in its baseline)', () => {
    const { ws, store } = sandbox();
    fs.writeFileSync(path.join(ws, 'untracked.txt'), 'original text the user wrote\n');
    const session = 'shell-gc';
    const hook = (p: Record<string, unknown>) =>
      ok(run(store, ['hook', 'claude'], { input: hookPayload(ws, session, p) }), String(p.hook_event_name));
    hook({ hook_event_name: 'SessionStart', source: 'startup' });
    const start = json<{ id: string }[]>(store, ['checkpoints']).at(-1)!.id;
    const original = tree(ws);
    ok(run(store, ['gc', '--keep-days', '1']), 'gc between the baseline and the command');
    const cmd = { command: "sed -i 's/original/changed/' untracked.txt" };
    hook({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'toolu_s1', tool_input: cmd });
    fs.writeFileSync(path.join(ws, 'untracked.txt'), 'changed text the user wrote\n');
    hook({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 'toolu_s1', tool_input: cmd, tool_response: {} });
    ok(run(store, ['rewind', '--to', start]), 'rewind');
    assertTree(ws, original, 'the shell edit is rewound from the content the baseline kept through the gc');
  });

  it('two rewinds at once: one runs, the other is refused with a clear message and writes nothing', async () => {
    const w = agentWorld(200, 31);
    const [a, b] = await Promise.all([runAsync(w.store, ['rewind', '--to', w.start]), runAsync(w.store, ['rewind', '--to', w.start])]);
    // Either one is refused (and records nothing), or they ran one after the other and the second had nothing to do.
    const outcome = (r: Run) =>
      r.status === 0
        ? /Nothing to rewind/.test(r.stdout)
          ? 'nothing'
          : 'ran'
        : r.status === 1 &&
            /^Another rewind is running on this store \(process \d+\); wait for it to finish and try again\.\n$/.test(r.stderr)
          ? 'refused'
          : `exit ${r.status}: ${r.stderr}`;
    assert.ok(
      [
        ['ran', 'refused'],
        ['nothing', 'ran'],
      ].some((want) => JSON.stringify(want) === JSON.stringify([outcome(a), outcome(b)].sort())),
      `one rewinds, the other is refused or finds nothing to do: ${outcome(a)} / ${outcome(b)}`,
    );
    assert.equal(rewindCheckpoints(w.store).length, 1, 'only the rewind that ran recorded a checkpoint');
    assertTree(w.ws, w.before, 'the workspace is exactly at the checkpoint');
    assertSound(w.store, 'after two rewinds at once');
  });
});
