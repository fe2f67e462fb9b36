// A resident recorder SIGKILLed at each step of a forwarded hook (AGENT_REWIND_FAULT armed in the
// resident): with the whole payload read, after its claim, after the hook's own parse, with half of its
// append written, after the append; and one stopped before its claim until its hook gave up waiting. Every time the hook exits 0 and silent, the payload is recorded exactly once (by
// the resident or by the hook itself), `verify` passes, and the records equal those of a hook alone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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
