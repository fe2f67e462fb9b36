// The resident recorder through the real built CLI: the same random sequences of agent work recorded
// with it and without it give the same checkpoints, plans and log lines (ids and times aside); it
// starts on demand, is alone per store, exits when idle, gives way to a newer bundle, and a hook
// whose resident is gone or does not answer records by itself. Every resident started here is stopped here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI } from '../helpers/cli';
import {
  adopt,
  alive,
  lockOf,
  RESIDENT_ON,
  runningResident,
  startResident,
  status,
  stopAll,
  stopResident,
  waitFor,
  hookWith,
} from '../helpers/resident';
import { sandbox, tempDir } from '../helpers/tmp';

after(stopAll);

const OFF: NodeJS.ProcessEnv = { AGENT_REWIND_RESIDENT: '0' };

const hook = hookWith;

function cliJson(store: string, args: string[]): any {
  const r = spawnSync(process.execPath, [CLI, ...args, '--json', '--store', store], {
    env: { ...process.env, ...OFF },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

type Step = { kind: 'prompt'; text: string } | { kind: 'write'; file: string; text: string } | { kind: 'bash'; command: string; ops: Op[] };
type Op = (ws: string) => void;

/** A random sequence of agent work: prompts, Write calls, shell commands doing file operations of every kind. */
function sequence(seed: number, steps: number, big: boolean): Step[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const names = ['a.txt', 'b.txt', 'src/c.ts', 'src/deep/d.md', 'e.sh'];
  const out: Step[] = [{ kind: 'prompt', text: 'start' }];
  for (let i = 0; i < steps; i++) {
    const r = rand();
    if (r < 0.2) out.push({ kind: 'prompt', text: `prompt ${i}` });
    else if (r < 0.45) out.push({ kind: 'write', file: pick(names), text: `write ${i}\n`.repeat(1 + Math.floor(rand() * 5)) });
    else {
      const ops: Op[] = [];
      const n = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < n; k++) {
        const f = pick(names);
        const tag = `${i}-${k}`;
        switch (pick(['create', 'modify', 'delete', 'rename', 'mode', 'symlink', 'nested'] as const)) {
          case 'create':
            ops.push((ws) => write(ws, `new-${tag}.txt`, `created ${tag}\n`));
            break;
          case 'modify':
            ops.push((ws) => write(ws, f, `modified ${tag}\n`));
            break;
          case 'delete':
            ops.push((ws) => fs.rmSync(path.join(ws, f), { force: true }));
            break;
          case 'rename':
            ops.push((ws) => {
              if (fs.existsSync(path.join(ws, f))) fs.renameSync(path.join(ws, f), path.join(ws, `renamed-${tag}.txt`));
            });
            break;
          case 'mode':
            ops.push((ws) => {
              if (fs.existsSync(path.join(ws, f))) fs.chmodSync(path.join(ws, f), 0o755);
            });
            break;
          case 'symlink':
            ops.push((ws) => fs.symlinkSync(f, path.join(ws, `link-${tag}`)));
            break;
          case 'nested':
            // Folders made and removed within one command, and one that stays.
            ops.push((ws) => {
              write(ws, `tmp-${tag}/x/y/z.txt`, 'gone\n');
              fs.rmSync(path.join(ws, `tmp-${tag}`), { recursive: true });
              write(ws, `kept-${tag}/x/y/z.txt`, `kept ${tag}\n`);
            });
            break;
        }
      }
      out.push({ kind: 'bash', command: `step ${i}`, ops });
    }
  }
  if (big)
    out.push({
      kind: 'bash',
      command: 'generate 10,001 files',
      ops: [(ws) => Array.from({ length: 10001 }, (_, j) => write(ws, `gen/${j % 100}/f${j}.txt`, `g${j % 7}\n`))],
    });
  out.push({ kind: 'prompt', text: 'end' });
  return out;
}

function write(ws: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
}

/**
 * Plays a sequence as Claude Code would, the tool's own effect between its Pre and Post hooks.
 * `afterFirst` runs after the SessionStart hook. Returns the number of hooks.
 */
async function play(ws: string, store: string, steps: Step[], env: NodeJS.ProcessEnv, afterFirst = async () => {}): Promise<number> {
  const base = { session_id: 'diff-session', cwd: ws, permission_mode: 'default' };
  let hooks = 0;
  const send = (p: Record<string, unknown>) => {
    hooks++;
    hook(store, { ...base, ...p }, env);
  };
  send({ hook_event_name: 'SessionStart', source: 'startup' });
  await afterFirst();
  steps.forEach((s, i) => {
    const id = `toolu_${i}`;
    if (s.kind === 'prompt') send({ hook_event_name: 'UserPromptSubmit', prompt: s.text });
    else if (s.kind === 'write') {
      const input = { file_path: path.join(ws, s.file), content: s.text };
      send({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: id, tool_input: input });
      write(ws, s.file, s.text);
      send({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_use_id: id, tool_input: input, tool_response: {} });
    } else {
      const input = { command: s.command };
      send({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: id, tool_input: input });
      for (const op of s.ops) op(ws);
      send({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: id, tool_input: input, tool_response: {} });
    }
  });
  send({ hook_event_name: 'Stop' });
  return hooks;
}

const VARYING = new Set(['id', 'time', 'mtime', 'target', 'created']);
/** JSON with what differs between two recordings of the same work (ids, times, mtimes) taken out. */
function normal(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normal);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (VARYING.has(k) ? [] : [[k, normal(x)]])));
  return v;
}

/** What a recording says: the checkpoints, the plan to each, the log's lines. */
function recorded(store: string) {
  const checkpoints = cliJson(store, ['checkpoints']) as { id: string }[];
  const plans = checkpoints.map((c) => cliJson(store, ['plan', '--to', c.id]));
  const lines = fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { checkpoints: normal(checkpoints), plans: normal(plans), lines: normal(lines) };
}

/** Runs the sequence twice in one workspace folder (emptied between): without a resident, then with one. */
async function differential(seed: number, steps: number, big = false) {
  const { root, ws } = sandbox();
  const initial = () => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.mkdirSync(ws);
    for (const f of ['a.txt', 'b.txt', 'src/c.ts', 'src/deep/d.md', 'e.sh']) write(ws, f, `initial ${f}\n`);
    fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
  };
  const seq = sequence(seed, steps, big);
  initial();
  const alone = path.join(root, 'store-alone');
  await play(ws, alone, seq, OFF);
  const without = recorded(alone);

  initial();
  const withStore = path.join(root, 'store-resident');
  // The first hook finds no resident: it records by itself and starts one, which records the rest.
  let pid = 0;
  const hooks = await play(ws, withStore, seq, RESIDENT_ON, async () => {
    pid = await runningResident(withStore, 'the resident the first hook started');
  });
  const served = status(withStore).resident.served;
  const got = recorded(withStore);
  await stopResident(pid);

  assert.equal(served, hooks - 1, 'the resident recorded every hook after the first');
  assert.deepEqual(got.checkpoints, without.checkpoints, 'checkpoints --json');
  assert.deepEqual(got.plans, without.plans, 'plan --json to every checkpoint');
  assert.deepEqual(got.lines, without.lines, 'files.jsonl, line by line');
}

describe('the resident records exactly what the hook alone records', () => {
  for (const seed of [1, 2]) it(`random sequence ${seed}: same checkpoints, plans and log lines`, () => differential(seed, 20));
  it('a command that makes 10,001 files among the rest', () => differential(7, 8, true));
});

describe('the resident process', () => {
  it('starts on demand, answers status, and hooks go through it without loading the recording code', async () => {
    const { ws, store } = sandbox();
    const base = { session_id: 's', cwd: ws, permission_mode: 'default' };
    hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, RESIDENT_ON);
    const pid = await runningResident(store, 'the resident the first hook started');
    const s = status(store);
    assert.equal(s.resident.pid, pid);
    assert.deepEqual(s.resident.roots, [ws]);
    assert.equal(s.counts.checkpoints, 1);
    // A forwarding hook never opens dist/hook.js: every file the process opens through fs is listed.
    const opened = path.join(tempDir(), 'opened.txt');
    const preload = path.join(path.dirname(opened), 'preload.cjs');
    fs.writeFileSync(
      preload,
      `const fs = require('fs'); const seen = []; const open = fs.openSync; const read = fs.readFileSync;
       fs.openSync = (p, ...a) => (seen.push(String(p)), open(p, ...a));
       fs.readFileSync = (p, ...a) => (typeof p !== 'number' && seen.push(String(p)), read(p, ...a));
       process.on('exit', () => {
         fs.writeFileSync(${JSON.stringify(opened)}, seen.join('\\n'));
         fs.writeFileSync(${JSON.stringify(opened)} + '.modules', process.moduleLoadList.join('\\n'));
       });`,
    );
    const r = spawnSync(process.execPath, ['--require', preload, CLI, 'hook', 'claude'], {
      input: JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'through a request file' }),
      env: { ...process.env, AGENT_REWIND_STORE: store, ...RESIDENT_ON },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const files = fs.readFileSync(opened, 'utf8').split('\n');
    assert.ok(
      files.some((f) => f.endsWith('resident.lock')),
      'the hook read which resident runs (the list is real)',
    );
    assert.ok(!files.some((f) => /hook\.js|commands\.js/.test(f)), `the forwarding hook loads no recording code: ${files.join(', ')}`);
    // Nor node's stream machinery (a socket or a stream costs a hook more than all its own work: residentWire.ts):
    // its stdin, a socket here as node gives, is made non-blocking through libuv's pipe handle and read by polling.
    const modules = fs.readFileSync(opened + '.modules', 'utf8').split('\n');
    assert.ok(modules.includes('NativeModule fs'), 'the list of loaded modules is real');
    const streamy = modules.filter((m) => /^NativeModule (net|stream|internal\/streams\/readable)$/.test(m));
    assert.deepEqual(streamy, [], 'the forwarding hook loads neither node:net nor streams');
    assert.equal(status(store).resident.served, 1);
    assert.equal(status(store).counts.checkpoints, 2);
    await stopResident(pid);
    assert.equal(lockOf(store), null, 'a stopped resident releases its lock');
    assert.equal(status(store).resident.running, false);
  });

  it('is alone per store: a second one exits at once and the first goes on', async () => {
    const { ws, store } = sandbox();
    hook(store, { session_id: 's', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
    const first = await startResident(store);
    const second = spawnSync(process.execPath, [CLI, 'resident', '--store', store], {
      env: { ...process.env, ...RESIDENT_ON },
      timeout: 30000,
    });
    assert.equal(second.status, 0, 'the second resident ends by itself');
    assert.ok(alive(first));
    assert.equal(status(store).resident.pid, first);
    await stopResident(first);
  });

  it('exits when idle, removing its lock', async () => {
    const { ws, store } = sandbox();
    hook(store, { session_id: 's', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
    const pid = await startResident(store, { AGENT_REWIND_RESIDENT_IDLE_S: '1' });
    await waitFor(() => !alive(pid), 'the idle resident to exit');
    assert.equal(lockOf(store), null);
    assert.equal(status(store).resident.running, false);
  });

  it('a resident killed hard leaves its lock: the next hook records by itself and starts a new one', async () => {
    const { ws, store } = sandbox();
    const base = { session_id: 's', cwd: ws };
    hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
    const old = await startResident(store);
    await stopResident(old, true);
    assert.equal(lockOf(store)?.pid, old, 'the dead resident left its lock');
    hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'after the crash' }, RESIDENT_ON);
    assert.equal(status(store).counts.checkpoints, 2, 'recorded by the hook itself');
    const fresh = await runningResident(store, 'the resident the hook started');
    assert.notEqual(fresh, old);
    hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'through the new one' }, RESIDENT_ON);
    assert.equal(status(store).resident.served, 1);
    assert.equal(status(store).counts.checkpoints, 3);
    await stopResident(fresh);
  });

  it('a resident that does not answer (stopped): the hook records by itself, and the resident drops the payload', async () => {
    const { ws, store } = sandbox();
    const base = { session_id: 's', cwd: ws };
    hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
    const pid = await startResident(store);
    process.kill(pid, 'SIGSTOP');
    try {
      hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'while stopped' }, { AGENT_REWIND_RESIDENT: '1' });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    assert.equal(status(store).resident.served, 0, 'the resident never said go to it');
    const labels = cliJson(store, ['checkpoints']).map((c: { label: string }) => c.label);
    assert.deepEqual(
      labels.filter((l: string) => l === 'while stopped'),
      ['while stopped'],
      'recorded once',
    );
    await stopResident(pid);
  });

  it('a resident of an older build (its lock names no request files) is not waited for: the hook records at once', () => {
    const { ws, store } = sandbox();
    const base = { session_id: 's', cwd: ws };
    hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
    // This process stands for it: alive, holding the lock as a resident of wire 2 wrote it.
    fs.writeFileSync(path.join(store, 'resident.lock'), JSON.stringify({ pid: process.pid, op: 'resident', time: Date.now() }));
    const r = spawnSync(process.execPath, [CLI, 'hook', 'claude'], {
      input: JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'beside an old resident' }),
      env: { ...process.env, AGENT_REWIND_STORE: store, AGENT_REWIND_RESIDENT: '1', AGENT_REWIND_RESIDENT_ACCEPT_MS: '600000' },
      encoding: 'utf8',
      timeout: 60000,
    });
    assert.equal(r.status, 0, `the hook ended by itself, not waiting 10 minutes for an answer: ${r.signal ?? ''} ${r.stderr}`);
    assert.deepEqual(
      cliJson(store, ['checkpoints'])
        .map((c: { label: string }) => c.label)
        .slice(1),
      ['beside an old resident'],
    );
    assert.equal(fs.existsSync(path.join(store, 'resident-pending')), false, 'no request was put');
    fs.rmSync(path.join(store, 'resident.lock'));
  });

  it('gives way to a hook from a newer bundle; ignores one from an older bundle', async () => {
    const { ws, store } = sandbox();
    const base = { session_id: 's', cwd: ws };
    hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
    // Two copies of the built CLI: the resident runs from `a`; `b` is rebuilt (its hook.js newer) after it started.
    const copy = (name: string) => {
      const d = path.join(tempDir(), name);
      fs.mkdirSync(d);
      for (const f of ['cli.js', 'hook.js', 'commands.js']) fs.copyFileSync(path.join(path.dirname(CLI), f), path.join(d, f));
      return d;
    };
    const a = copy('a');
    const b = copy('b');
    const past = new Date(Date.now() - 3600_000);
    fs.utimesSync(path.join(b, 'hook.js'), past, past); // older than a's
    const old = await startResident(store, {}, path.join(a, 'cli.js'));
    hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'from an older bundle' }, RESIDENT_ON, path.join(b, 'cli.js'));
    assert.ok(alive(old), 'an older bundle does not replace the resident');
    assert.equal(status(store).resident.served, 0, 'it recorded by itself');
    const future = new Date(Date.now() + 3600_000);
    fs.utimesSync(path.join(b, 'hook.js'), future, future); // now b is the newer build
    hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'from a newer bundle' }, RESIDENT_ON, path.join(b, 'cli.js'));
    await waitFor(() => !alive(old), 'the old resident to give way');
    const fresh = await runningResident(store, 'the resident of the newer bundle');
    adopt(fresh);
    assert.notEqual(fresh, old);
    const labels = cliJson(store, ['checkpoints']).map((c: { label: string }) => c.label);
    assert.deepEqual(labels.slice(1), ['from an older bundle', 'from a newer bundle'], 'each recorded once');
    await stopResident(fresh);
  });
});
