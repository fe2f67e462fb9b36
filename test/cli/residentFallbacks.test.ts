// The resident's file watcher on trees as real repositories have them, through the real built CLI: tracked
// files inside ignored folders (fixtures, vendored code, committed build output) are watched like the rest,
// so no shell call scans the whole tree for them; what the watcher could not narrow is counted in
// `status --json` (`resident.fallbacks`); and where it vouches, shell capture stays on above maxScanFiles
// (the scanning path's limit). The records are the ones the hook alone writes. Every resident started here
// is stopped here.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI } from '../helpers/cli';
import { hookWith, RESIDENT_ON, startResident, status, stopAll, stopResident } from '../helpers/resident';
import { sandbox } from '../helpers/tmp';

after(stopAll);

const OFF: NodeJS.ProcessEnv = { AGENT_REWIND_RESIDENT: '0' };

const hook = hookWith;

function put(ws: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
}

/** The log's lines without what differs between two recordings of the same work, paths relative to `ws`. */
function lines(store: string, ws: string): unknown[] {
  const text = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8').split(ws).join('<ws>');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { id: _i, time: _t, mtime: _m, target: _g, created: _c, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
}

/** The paths (relative) a Bash call's snapshots name, in log order, once each. */
function shellPaths(store: string, ws: string, call: string): string[] {
  const out: string[] = [];
  for (const l of fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(l) as { t: string; call?: string; path?: string };
    if (r.t === 'snap' && r.call === call && r.path) {
      const rel = path.relative(ws, r.path);
      if (!out.includes(rel)) out.push(rel);
    }
  }
  return out.sort();
}

/**
 * A git repository with tracked files inside ignored folders: `build/` ignored whole, `vendor/*` ignored but
 * `vendor/keep/` let in again, whose own .gitignore ignores `*.log` but `important.log`.
 */
function repository(ws: string): void {
  put(ws, 'a.txt', 'a\n');
  put(ws, 'src/c.ts', 'c\n');
  put(ws, '.gitignore', 'build/\nvendor/*\n!vendor/keep/\n');
  put(ws, 'build/out.txt', 'out\n');
  put(ws, 'build/sub/deep.txt', 'deep\n');
  put(ws, 'build/untracked.txt', 'never tracked\n');
  put(ws, 'vendor/lib/x.js', 'x\n');
  put(ws, 'vendor/keep/.gitignore', '*.log\n!important.log\n');
  put(ws, 'vendor/keep/k.txt', 'k\n');
  put(ws, 'vendor/keep/important.log', 'important\n');
  put(ws, 'vendor/keep/noise.log', 'noise\n');
  const git = (...a: string[]) => execFileSync('git', a, { cwd: ws, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('add', '-f', 'build/out.txt', 'build/sub/deep.txt', 'vendor/lib/x.js');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
}

type Call = [command: string, effect: (ws: string) => void];

const CALLS: Call[] = [
  ['edit a file elsewhere', (ws) => put(ws, 'src/c.ts', 'c changed\n')],
  ['edit the tracked file in the ignored folder', (ws) => put(ws, 'build/out.txt', 'out changed\n')],
  [
    'deeper, and a file the rules ignore',
    (ws) => {
      put(ws, 'build/sub/deep.txt', 'deep changed\n');
      put(ws, 'build/new.txt', 'ignored, untracked\n');
    },
  ],
  ['delete vendored code', (ws) => fs.rmSync(path.join(ws, 'vendor/lib/x.js'))],
  [
    'a log let in by a negation, and one it ignores',
    (ws) => {
      put(ws, 'vendor/keep/important.log', 'important changed\n');
      put(ws, 'vendor/keep/noise.log', 'noise changed\n');
    },
  ],
  [
    'the ignored folder made again',
    (ws) => {
      fs.rmSync(path.join(ws, 'build/sub'), { recursive: true });
      put(ws, 'build/sub/deep.txt', 'deep again\n');
    },
  ],
  ['after that, the tracked file again', (ws) => put(ws, 'build/sub/deep.txt', 'deep once more\n')],
];

/** A session of Bash calls; the store made first (by another session), so a resident can run from the session's start. */
async function play(ws: string, store: string, env: NodeJS.ProcessEnv, calls: Call[], beforeSession = async () => {}): Promise<void> {
  hook(store, { session_id: 'before', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
  await beforeSession();
  const base = { session_id: 'fb-session', cwd: ws, permission_mode: 'default' };
  hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, env);
  hook(store, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'go' }, env);
  calls.forEach(([command, effect], i) => {
    const call = { tool_name: 'Bash', tool_use_id: `toolu_${i}`, tool_input: { command } };
    hook(store, { ...base, ...call, hook_event_name: 'PreToolUse' }, env);
    effect(ws);
    hook(store, { ...base, ...call, hook_event_name: 'PostToolUse', tool_response: {} }, env);
  });
  hook(store, { ...base, hook_event_name: 'Stop' }, env);
}

describe('the resident on tracked files inside ignored folders', () => {
  it('a Bash call elsewhere and one changing a tracked file in an ignored folder are both recorded, with no scan of the whole tree', async () => {
    const { root, ws } = sandbox();
    repository(ws);
    const alone = path.join(root, 'store-alone');
    await play(ws, alone, OFF, CALLS);
    const without = lines(alone, ws);

    fs.rmSync(ws, { recursive: true });
    fs.mkdirSync(ws);
    repository(ws);
    const store = path.join(root, 'store-resident');
    let pid = 0;
    await play(ws, store, RESIDENT_ON, CALLS, async () => {
      pid = await startResident(store);
    });
    const s = status(store).resident;
    const text = spawnSync(process.execPath, [CLI, 'status', '--store', store], { encoding: 'utf8' }).stdout;
    await stopResident(pid);

    assert.equal(s.served, CALLS.length * 2 + 3, 'the resident recorded every hook of the session');
    assert.deepEqual(shellPaths(store, ws, 'toolu_0'), ['src/c.ts']);
    assert.deepEqual(shellPaths(store, ws, 'toolu_1'), ['build/out.txt']);
    assert.deepEqual(shellPaths(store, ws, 'toolu_2'), ['build/sub/deep.txt']);
    assert.deepEqual(shellPaths(store, ws, 'toolu_3'), ['vendor/lib/x.js']);
    assert.deepEqual(shellPaths(store, ws, 'toolu_4'), ['vendor/keep/important.log']);
    assert.deepEqual(shellPaths(store, ws, 'toolu_5'), ['build/sub/deep.txt']);
    assert.deepEqual(shellPaths(store, ws, 'toolu_6'), ['build/sub/deep.txt']);
    assert.deepEqual(lines(store, ws), without, 'files.jsonl is what the hooks alone write, line by line');
    assert.deepEqual(
      s.fallbacks,
      { total: 0, byReason: {}, partial: 0, wholeFolders: [], sessionStarts: { walked: 1, narrowed: 0 } },
      'no scan of the whole tree, no folder left unwatched',
    );
    assert.match(
      text,
      /File watcher: no shell scan of the whole workspace since it started; session starts: 1 walked the tree, 0 narrowed\./,
    );
  });

  it('a session whose state a hook saved: one scan of the whole tree, counted by its reason, then narrowed', async () => {
    const { ws, store } = sandbox();
    repository(ws);
    // The first hook records by itself (no resident yet): the resident holds no state of that session.
    const base = { session_id: 'late', cwd: ws, permission_mode: 'default' };
    hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
    const pid = await startResident(store);
    CALLS.slice(0, 2).forEach(([command, effect], i) => {
      const call = { tool_name: 'Bash', tool_use_id: `toolu_${i}`, tool_input: { command } };
      hook(store, { ...base, ...call, hook_event_name: 'PreToolUse' }, RESIDENT_ON);
      effect(ws);
      hook(store, { ...base, ...call, hook_event_name: 'PostToolUse', tool_response: {} }, RESIDENT_ON);
    });
    const s = status(store).resident;
    const text = spawnSync(process.execPath, [CLI, 'status', '--store', store], { encoding: 'utf8' }).stdout;
    await stopResident(pid);
    assert.deepEqual(shellPaths(store, ws, 'toolu_1'), ['build/out.txt']);
    assert.deepEqual(s.fallbacks, {
      total: 1,
      byReason: { 'state-not-held': 1 },
      partial: 0,
      wholeFolders: [],
      sessionStarts: { walked: 0, narrowed: 0 },
    });
    assert.match(text, /File watcher: 1 shell scan\(s\) of the whole workspace \(state-not-held 1\) since it started;/);
  });
});

describe('a session start on a root the resident watches', () => {
  /** startup, a Bash call, the user's edit, then resume (same session) and clear (a new one), each followed by a Bash call. */
  async function starts(ws: string, store: string, env: NodeJS.ProcessEnv, withResident: boolean): Promise<number> {
    hook(store, { session_id: 'before', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'makes the store' }, OFF);
    const pid = withResident ? await startResident(store) : 0;
    const bash = (session: string, id: string, effect: () => void) => {
      const base = { session_id: session, cwd: ws, permission_mode: 'default' };
      const call = { tool_name: 'Bash', tool_use_id: id, tool_input: { command: id } };
      hook(store, { ...base, ...call, hook_event_name: 'PreToolUse' }, env);
      effect();
      hook(store, { ...base, ...call, hook_event_name: 'PostToolUse', tool_response: {} }, env);
    };
    const start = (session: string, source: string) =>
      hook(store, { session_id: session, cwd: ws, hook_event_name: 'SessionStart', source }, env);
    start('one', 'startup');
    bash('one', 'toolu_a', () => put(ws, 'src/c.ts', 'by the first call\n'));
    put(ws, 'a.txt', "the user's own edit between sessions\n");
    put(ws, 'build/out.txt', "the user's edit of a tracked file in an ignored folder\n");
    start('one', 'resume');
    bash('one', 'toolu_b', () => put(ws, 'src/c.ts', 'after resume\n'));
    put(ws, 'new-by-user.txt', 'made by the user\n');
    start('two', 'clear');
    bash('two', 'toolu_c', () => {
      put(ws, 'build/out.txt', 'after clear\n');
      fs.rmSync(path.join(ws, 'new-by-user.txt'));
    });
    return pid;
  }

  it("resume and clear start from the held state, narrowed: the same records, the user edits between sessions not the calls'", async () => {
    const { root, ws } = sandbox();
    repository(ws);
    const alone = path.join(root, 'store-alone');
    await starts(ws, alone, OFF, false);
    const without = lines(alone, ws);
    fs.rmSync(ws, { recursive: true });
    fs.mkdirSync(ws);
    repository(ws);
    const store = path.join(root, 'store-resident');
    const pid = await starts(ws, store, RESIDENT_ON, true);
    const s = status(store).resident;
    await stopResident(pid);
    assert.deepEqual(shellPaths(store, ws, 'toolu_b'), ['src/c.ts']);
    assert.deepEqual(shellPaths(store, ws, 'toolu_c'), ['build/out.txt', 'new-by-user.txt']);
    assert.deepEqual(lines(store, ws), without, 'files.jsonl is what the hooks alone write, line by line');
    assert.deepEqual(s.fallbacks.sessionStarts, { walked: 1, narrowed: 2 }, 'only the first start walked the tree');
    assert.equal(s.fallbacks.total, 0, 'every shell scan narrowed');
  });
});

describe('shell capture above maxScanFiles where the watcher vouches', () => {
  /** 60 files, with a store whose maxScanFiles is 20 (the scanning path's limit). */
  function big(): { ws: string; store: string } {
    const { ws, store } = sandbox();
    for (let i = 0; i < 60; i++) put(ws, `f/${i % 6}/n${i}.txt`, `${i}\n`);
    fs.mkdirSync(store, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(store, 'config.json'), JSON.stringify({ maxScanFiles: 20 }));
    return { ws, store };
  }
  const bash = (store: string, ws: string, id: string, env: NodeJS.ProcessEnv) => {
    const base = { session_id: 'big', cwd: ws, permission_mode: 'default' };
    const call = { tool_name: 'Bash', tool_use_id: id, tool_input: { command: `touch ${id}` } };
    hook(store, { ...base, ...call, hook_event_name: 'PreToolUse' }, env);
    put(ws, `f/0/${id}.txt`, 'made\n');
    hook(store, { ...base, ...call, hook_event_name: 'PostToolUse', tool_response: {} }, env);
  };
  const captureOf = (store: string) => JSON.parse(fs.readFileSync(path.join(store, 'capture.json'), 'utf8')).sessions.big;

  it('without the resident, capture is off and says so; with it, the next shell call takes it up and records', async () => {
    const { ws, store } = big();
    const base = { session_id: 'big', cwd: ws, permission_mode: 'default' };
    hook(store, { ...base, hook_event_name: 'SessionStart', source: 'startup' }, OFF);
    bash(store, ws, 'hookalone', OFF);
    assert.deepEqual(shellPaths(store, ws, 'hookalone'), [], 'off on the scanning path');
    assert.equal(captureOf(store).state, 'off');
    assert.equal(captureOf(store).limit, 20);
    assert.deepEqual(
      status(store).recording.captureOff.map((c: { session: string; limit: number }) => [c.session, c.limit]),
      [['big', 20]],
      'status says where capture is off',
    );
    const text = spawnSync(process.execPath, [CLI, 'status', '--store', store], {
      encoding: 'utf8',
      env: { ...process.env, ...OFF },
    }).stdout;
    assert.match(text, /Shell capture is off for session big in .* since .*: \d+ files, over maxScanFiles \(20\)/);
    const pid = await startResident(store);
    bash(store, ws, 'resident', RESIDENT_ON);
    const on = captureOf(store);
    const after = status(store);
    await stopResident(pid);
    assert.deepEqual(after.recording.captureOff, [], 'on again: status no longer lists it');
    assert.deepEqual(shellPaths(store, ws, 'resident'), ['f/0/resident.txt']);
    assert.equal(on.state, 'on');
    assert.equal(on.files, 61);
  });

  it('a session that starts with the resident running is on from its start', async () => {
    const { ws, store } = big();
    hook(store, { session_id: 'other', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'makes the store' }, OFF);
    const pid = await startResident(store);
    hook(store, { session_id: 'big', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' }, RESIDENT_ON);
    const atStart = captureOf(store);
    bash(store, ws, 'first', RESIDENT_ON);
    await stopResident(pid);
    assert.equal(atStart.state, 'on');
    assert.deepEqual(shellPaths(store, ws, 'first'), ['f/0/first.txt']);
  });
});
