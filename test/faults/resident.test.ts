// A resident recorder SIGKILLed at each step of a forwarded hook (AGENT_REWIND_FAULT armed in the
// resident): with the whole payload read, after its claim, after the hook's own parse, with half of its
// append written, after the append; and one stopped before its claim until its hook gave up waiting. Every time the hook exits 0 and silent, the payload is recorded exactly once (by
// the resident or by the hook itself), `verify` passes, and the records equal those of a hook alone.
// Then hooks run one after another (Pre, then Post) while the resident is stopped: busy with another payload, the
// log keeps their order; stopped after its claim of the Pre payload, its hook takes the payload back at 15 s; stopped
// inside its recording of it past that hook's deadline, the log's order is lost (a known limit).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { CLI } from '../helpers/cli';
import { alive, RESIDENT_ON, runningResident, startResident, status, stopAll, stopResident, waitFor } from '../helpers/resident';
import { sandbox } from '../helpers/tmp';
import { assertSound, fs, json, path, stopped } from './world';

after(stopAll);

function hook(store: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [CLI, 'hook', 'claude'], {
    input: JSON.stringify(payload),
    env: { ...process.env, AGENT_REWIND_STORE: store, ...env },
    encoding: 'utf8',
    timeout: 60000,
  });
  assert.equal(r.status, 0, `the hook exits 0: ${r.stderr}`);
  assert.equal(r.stdout + r.stderr, '', 'and prints nothing');
}

// Where it dies, and whether its hook then records by itself (and so starts a new resident): before
// its append, the hook records the payload; once its write-ahead copy exists, the hook finishes that append.
const POINTS: [string, boolean][] = [
  ['resident.received:1', true],
  ['resident.claimed:1', true],
  ['hook.record:1', true],
  ['log.append:1', false],
  ['resident.appended:1', false],
];

/** One Bash call (Pre, the command's effect, Post) and a prompt, the Post hook forwarded to a resident armed to die. */
/** A falling-back hook starts a new resident exactly when the kill came before the resident took the payload. */
async function residentAfterKill(store: string, restarts: boolean): Promise<void> {
  const next = restarts ? await runningResident(store, 'the resident the falling-back hook started') : 0;
  if (next) await stopResident(next); // never pid 0: kill(0) signals our own process group
  assert.equal(restarts || !fs.existsSync(path.join(store, 'resident.starting')), true, 'no new resident was started');
}

/** `stopped`: the resident is stopped (SIGSTOP) at `point` instead, the hook gives up waiting, then the resident goes on. */
async function killedDuringPost(point: string | null, restarts = false, stop = false) {
  const { ws, store } = sandbox();
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a0\n');
  const base = { session_id: 'killed', cwd: ws, permission_mode: 'default' };
  const off = { AGENT_REWIND_RESIDENT: '0' };
  hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, off);
  hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'one' }, off);
  const bash = {
    tool_name: 'Bash',
    tool_use_id: 'toolu_b',
    tool_input: { command: 'sed -i s/a0/a1/ a.txt && echo new > b.txt && rm -f gone' },
  };
  hook(store, { ...base, hook_event_name: 'PreToolUse', ...bash }, off);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a1\n');
  fs.writeFileSync(path.join(ws, 'b.txt'), 'new\n');
  let pid = 0;
  if (point) pid = await startResident(store, { AGENT_REWIND_FAULT: point });
  const giveUp = { ...RESIDENT_ON, AGENT_REWIND_RESIDENT_ACCEPT_MS: '300' };
  hook(store, { ...base, hook_event_name: 'PostToolUse', ...bash, tool_response: {} }, point ? (stop ? giveUp : RESIDENT_ON) : off);
  if (stop) {
    await waitFor(() => stopped(pid), 'the resident to stop with the payload it got too late'); // it may get there after the hook
    process.kill(pid, 'SIGCONT'); // it finds the hook's claim: refuses, records nothing
    await waitFor(() => status(store).resident.running, 'the resident to answer again');
    await stopResident(pid);
  } else if (point) {
    await waitFor(() => !alive(pid), `the resident to die at ${point}`);
    await stopResident(pid); // forget it
    await residentAfterKill(store, restarts);
  }
  hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'two' }, off);
  assertSound(store, `after a resident killed at ${point}`);
  const checkpoints = json<{ id: string; label: string; kind: string }[]>(store, ['checkpoints']);
  const plans = checkpoints.map((c) => {
    const p = json<Record<string, unknown>>(store, ['plan', '--to', c.id]);
    // Two sandboxes: the same relative paths; ids and times differ.
    return JSON.parse(JSON.stringify(p).replaceAll(ws, '<ws>'), (k, v: unknown) =>
      k === 'id' || k === 'time' || k === 'target' ? undefined : v,
    ) as unknown;
  });
  const afters = fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return null; // the torn half line a killed append leaves (verify reports it, readers skip it)
      }
    })
    .filter((l) => l && l.t === 'snap' && l.call === 'toolu_b')
    .map((l) => `${l.phase} ${path.basename(l.path)} ${l.hash === null ? 'none' : 'content'}`)
    .sort();
  return { labels: checkpoints.map((c) => `${c.kind} ${c.label}`), plans, afters, store };
}

describe('a resident recorder killed while it records a forwarded hook', () => {
  for (const [point, restarts] of POINTS)
    it(`${point}: the payload is recorded once, as a hook alone records it`, async () => {
      const alone = await killedDuringPost(null);
      const killed = await killedDuringPost(point, restarts);
      assert.deepEqual(killed.labels, alone.labels, 'the same checkpoints');
      assert.deepEqual(killed.afters, alone.afters, "the Bash call's snapshots, once each");
      assert.deepEqual(killed.plans, alone.plans, 'the same plans');
      assert.equal(status(killed.store).resident.running, false);
      const pending = path.join(killed.store, 'resident-pending');
      assert.deepEqual(fs.existsSync(pending) ? fs.readdirSync(pending) : [], [], 'no write-ahead copy is left');
    });

  it('stopped with the whole payload until its hook gave up waiting: the hook claims and records it, the resident, let go on, does not', async () => {
    const alone = await killedDuringPost(null);
    const late = await killedDuringPost('resident.received:1:stop', false, true);
    assert.deepEqual(late.labels, alone.labels, 'the same checkpoints');
    assert.deepEqual(late.afters, alone.afters, "the Bash call's snapshots, once each");
    assert.deepEqual(late.plans, alone.plans, 'the same plans');
    const pending = path.join(late.store, 'resident-pending');
    const claims = fs.readdirSync(pending);
    assert.equal(claims.length, 1, "the hook's own claim stays (a resident sweeps it a minute later)");
    assert.equal(fs.readFileSync(path.join(pending, claims[0]!), 'utf8'), '', 'and holds no text');
  });
});

/** A hook run without waiting for it: its exit code and output once it ends. */
function hookAsync(store: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'hook', 'claude'], { env: { ...process.env, AGENT_REWIND_STORE: store, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.stdin.end(JSON.stringify(payload));
    child.on('close', (code) => resolve(`exit ${code}${out ? `: ${out}` : ''}`));
  });
}

/** Where each of `marks` stands in the log (line numbers, one per line that contains it). */
function linesOf(store: string, marks: string[]): Record<string, number[]> {
  const lines = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8').split('\n');
  return Object.fromEntries(marks.map((m) => [m, lines.flatMap((l, i) => (l.includes(m) ? [i] : []))]));
}

/** A session with a prompt recorded (no resident) and one Write call to come, in a fresh sandbox. */
function writeCall() {
  const { ws, store } = sandbox();
  const file = path.join(ws, 'w.txt');
  fs.writeFileSync(file, 'w0\n');
  const base = { session_id: 'seq', cwd: ws, permission_mode: 'default' };
  const off = { AGENT_REWIND_RESIDENT: '0' };
  hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, off);
  hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'one' }, off);
  const write = { tool_name: 'Write', tool_use_id: 'toolu_seq', tool_input: { file_path: file, content: 'w1\n' } };
  return {
    store,
    pre: (env: NodeJS.ProcessEnv) => hook(store, { ...base, hook_event_name: 'PreToolUse', ...write }, env),
    post: (env: NodeJS.ProcessEnv) => {
      fs.writeFileSync(file, 'w1\n');
      hook(store, { ...base, hook_event_name: 'PostToolUse', ...write, tool_response: {} }, env);
    },
    base,
  };
}

const PRE = '"phase":"before"';
const POST = '"phase":"after"';
/** A hook that gets no answer claims its payload after 300 ms and records it itself. */
const GIVE_UP = { ...RESIDENT_ON, AGENT_REWIND_RESIDENT_ACCEPT_MS: '300' };

// Hook after hook, as an agent runs them: the Post hook starts only once the Pre hook has exited.
describe('sequential hooks while the resident is busy: the log keeps the order they ran in, but for one limit', () => {
  it('busy recording another payload: each hook records its own before it exits, so Pre stands before Post, the busy one after both', async () => {
    const call = writeCall();
    const pid = await startResident(call.store, { AGENT_REWIND_FAULT: 'resident.claimed:1:stop' });
    const busy = hookAsync(
      call.store,
      { ...call.base, session_id: 'other', hook_event_name: 'UserPromptSubmit', prompt: 'busy-other-session' },
      RESIDENT_ON,
    );
    await waitFor(() => stopped(pid), "the resident to stop with the other session's payload claimed");
    call.pre(GIVE_UP);
    call.post(GIVE_UP);
    process.kill(pid, 'SIGCONT');
    assert.equal(await busy, 'exit 0', "the busy payload's hook gets its D, silent");
    await stopResident(pid);
    const at = linesOf(call.store, [PRE, POST, 'busy-other-session']);
    assert.deepEqual([at[PRE]!.length, at[POST]!.length, at['busy-other-session']!.length], [1, 1, 1], 'each recorded once');
    assert.ok(at[PRE]![0]! < at[POST]![0]!, 'Pre before Post');
    assert.ok(at[POST]![0]! < at['busy-other-session']![0]!, 'the resident was busy all along: its payload came last');
    assertSound(call.store, 'after a busy resident');
  });

  it('a resident stopped after its claim, before it started recording: the Pre hook takes its payload back and records it before it exits', async () => {
    // At 15 s of its life the Pre hook makes `<id>.go` first: the payload is its own again (residentWire.ts), so it is in
    // the log, with the content before the write, before the hook exits. The resident, let go on, records nothing.
    const call = writeCall();
    const pid = await startResident(call.store, { AGENT_REWIND_FAULT: 'resident.claimed:1:stop' });
    call.pre(RESIDENT_ON);
    assert.equal(stopped(pid), true, 'the resident took the Pre payload and is stopped with it');
    assert.equal(linesOf(call.store, [PRE])[PRE]!.length, 1, 'the Pre hook exited with its payload in the log');
    call.post(GIVE_UP);
    process.kill(pid, 'SIGCONT');
    await waitFor(() => status(call.store).resident.running, 'the resident to answer again');
    assert.equal(status(call.store).resident.served, 0, 'the resident, let go on, recorded nothing');
    await stopResident(pid);
    const at = linesOf(call.store, [PRE, POST]);
    assert.deepEqual([at[PRE]!.length, at[POST]!.length], [1, 1], 'each recorded once');
    assert.ok(at[PRE]![0]! < at[POST]![0]!, 'Pre before Post');
    const lines = fs.readFileSync(path.join(call.store, 'files.jsonl'), 'utf8').split('\n');
    const hashAt = (i: number) => (JSON.parse(lines[i]!) as { hash: string | null }).hash;
    assert.notEqual(hashAt(at[PRE]![0]!), hashAt(at[POST]![0]!), "Pre's snapshot holds the content before the write");
    assertSound(call.store, 'after a resident that lost its claim to the hook');
  });

  it("known limit: a resident stopped while it records the Pre payload, past that hook's deadline, appends it after Post's lines", async () => {
    // Once the resident has started recording (`<id>.go` is its own), the hook cannot take the payload back: it waits
    // for D until its own deadline (~19.5 s after it started), then exits; the Post hook records itself meanwhile.
    const call = writeCall();
    const pid = await startResident(call.store, { AGENT_REWIND_FAULT: 'hook.record:1:stop' });
    call.pre(RESIDENT_ON);
    assert.equal(stopped(pid), true, 'the resident is stopped inside its recording of the Pre payload');
    assert.deepEqual(linesOf(call.store, [PRE])[PRE], [], 'the Pre hook exited with its payload not in the log');
    call.post(GIVE_UP);
    process.kill(pid, 'SIGCONT');
    await waitFor(() => linesOf(call.store, [PRE])[PRE]!.length === 1, 'the resident to append the Pre payload');
    await stopResident(pid);
    const at = linesOf(call.store, [PRE, POST]);
    assert.equal(at[POST]!.length, 1, 'Post recorded once');
    assert.ok(at[POST]![0]! < at[PRE]![0]!, 'Post stands before Pre in the log: the order the hooks ran in is lost');
  });
});
