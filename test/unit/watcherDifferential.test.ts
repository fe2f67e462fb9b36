// Differential proof for the file watcher (resident/watcher.ts): the same random sequences of file
// operations, recorded twice — once with the watcher narrowing shell capture and the boundary
// observation, once with today's full scans — must give identical records and identical plans.
// Seeded; the seed is in every failure message (AR_SEED=<n> replays one).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { scanOptionsIn } from '../helpers/scanOptions';
import { claudeToolKind } from '../../src/agents/claude/toolKind';
import { makePlan } from '../../src/core/rewind/plan';
import { baseline } from '../../src/core/scan/baseline';
import { rescan } from '../../src/core/scan/rescan';
import type { ScanState } from '../../src/core/scan/types';
import { Store } from '../../src/core/store';
import { checkpoints } from '../../src/core/timeline/timeline';
import type { ChangeSource } from '../../src/recording/changeSource';
import { watchedLooks } from '../../src/recording/observe';
import { record } from '../../src/recording/recorder';
import { includeUncovered, watchedScans } from '../../src/core/capture/narrowing';
import { DirWatcher } from '../../src/resident/watcher';
import { tempDir } from '../helpers/tmp';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

interface Side {
  ws: string;
  store: Store;
  source?: ChangeSource;
}

/**
 * `ignoredTracked`: tracked files inside ignored folders (committed build output, vendored code let in by
 * `git add -f`), and a nested .gitignore whose negation lets a file in again.
 */
function side(withGit: boolean, watched: boolean, ignoredTracked = false): Side {
  const root = tempDir('ar-wdiff-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'src', 'lib'), { recursive: true });
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(ws, 'src', i % 2 ? 'lib' : '', `f${i}.txt`), `file ${i}\n`);
  fs.mkdirSync(path.join(ws, 'node_modules', 'pkg'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'node_modules', 'pkg', 'index.js'), 'x');
  fs.writeFileSync(
    path.join(ws, '.gitignore'),
    ignoredTracked ? 'node_modules/\nbuild/\nvendor/*\n!vendor/keep/\n' : 'node_modules/\nbuild/\n',
  );
  const forced = ['build/out.txt', 'build/sub/deep.txt', 'vendor/lib/v.txt'];
  if (ignoredTracked) {
    for (const f of [...forced, 'build/junk.txt', 'vendor/keep/k.txt', 'vendor/keep/a.log', 'vendor/keep/keep.log']) {
      fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
      fs.writeFileSync(path.join(ws, f), `${f}\n`);
    }
    fs.writeFileSync(path.join(ws, 'vendor', 'keep', '.gitignore'), '*.log\n!keep.log\n');
  }
  if (withGit) {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: ws, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    if (ignoredTracked) git('add', '-f', ...forced);
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  }
  const store = Store.open(path.join(root, 'store'), { create: true });
  return { ws, store, ...(watched ? { source: new DirWatcher(path.join(root, 'cookies'), (m) => store.logError(m)) } : {}) };
}

/** Files and folders under `ws` (relative), not in node_modules or .git. */
function listTree(ws: string): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(ws, rel), { withFileTypes: true })) {
      if (e.name === '.git' || e.name === 'node_modules' || e.name === '.gitignore') continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        dirs.push(r);
        walk(r);
      } else files.push(r);
    }
  };
  walk('');
  return { files: files.sort(), dirs: dirs.sort() };
}

type Op = (ws: string) => void;

/** One random operation, decided from the tree of one side (both sides hold the same tree). */
function randomOp(r: () => number, ws: string, n: number): { name: string; op: Op } {
  const { files, dirs } = listTree(ws);
  const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(r() * xs.length)] : undefined);
  const dir = pick(['', ...dirs]) ?? '';
  const at = (w: string, rel: string) => path.join(w, ...rel.split('/'));
  const file = pick(files.filter((f) => !fs.lstatSync(at(ws, f)).isSymbolicLink()));
  const kinds = ['create', 'modify', 'delete', 'rename', 'chmod', 'symlink', 'nested', 'flash', 'rmdir', 'mvdir', 'same'];
  const k = kinds[Math.floor(r() * kinds.length)]!;
  const name = `${k}#${n}`;
  const content = `content ${n} ${Math.floor(r() * 1e6)}\n`;
  const rel = (d: string, f: string) => (d ? `${d}/${f}` : f);
  switch (k) {
    case 'create':
      return { name, op: (w) => fs.writeFileSync(at(w, rel(dir, `n${n}.txt`)), content) };
    case 'modify':
      return { name, op: (w) => file && fs.appendFileSync(at(w, file), content) };
    case 'same': // rewritten with the same bytes: no change to record
      return { name, op: (w) => file && fs.writeFileSync(at(w, file), fs.readFileSync(at(w, file))) };
    case 'delete':
      return { name, op: (w) => file && fs.rmSync(at(w, file)) };
    case 'rename':
      return { name, op: (w) => file && fs.renameSync(at(w, file), at(w, rel(dir, `r${n}.txt`))) };
    case 'chmod':
      return { name, op: (w) => file && fs.chmodSync(at(w, file), fs.statSync(at(w, file)).mode & 0o100 ? 0o644 : 0o755) };
    case 'symlink':
      return { name, op: (w) => fs.symlinkSync(file ? path.basename(file) : 'nowhere', at(w, rel(dir, `l${n}`))) };
    case 'nested':
      return {
        name,
        op: (w) => {
          fs.mkdirSync(at(w, rel(dir, `d${n}/e/f`)), { recursive: true });
          fs.writeFileSync(at(w, rel(dir, `d${n}/e/f/deep.txt`)), content);
          fs.writeFileSync(at(w, rel(dir, `d${n}/top.txt`)), content);
        },
      };
    case 'flash': // nested folders created and removed within one command
      return {
        name,
        op: (w) => {
          fs.mkdirSync(at(w, rel(dir, `t${n}/u/v`)), { recursive: true });
          fs.writeFileSync(at(w, rel(dir, `t${n}/u/v/tmp.txt`)), content);
          fs.rmSync(at(w, rel(dir, `t${n}`)), { recursive: true });
        },
      };
    case 'rmdir': {
      const d = pick(dirs.filter((x) => x !== 'src'));
      return { name, op: (w) => d && fs.rmSync(at(w, d), { recursive: true }) };
    }
    default: {
      const d = pick(dirs);
      return { name, op: (w) => d && !`${dir}/`.startsWith(`${d}/`) && fs.renameSync(at(w, d), at(w, rel(dir, `m${n}`))) };
    }
  }
}

/** Records without what differs between two runs by nature: times, ids, the workspace's own path. */
function normalized(s: Side): unknown[] {
  const text = JSON.stringify(s.store.read().records).split(s.ws).join('<ws>');
  return (JSON.parse(text) as Record<string, unknown>[]).map((r) => {
    const { time: _t, mtime: _m, id: _i, ...rest } = r;
    return rest;
  });
}

function plans(s: Side): unknown[] {
  return checkpoints(s.store.read().records).map((c) => {
    const text = JSON.stringify(makePlan(s.store, c.id)).split(s.ws).join('<ws>');
    return JSON.parse(text, (k, v: unknown) =>
      k === 'time' || k === 'since' || k === 'mtime' || k === 'id' || k === 'checkpoint' || k === 'target' ? undefined : v,
    );
  });
}

async function run(seed: number, withGit: boolean, steps: number, ignoredTracked = false): Promise<void> {
  const r = rng(seed);
  const a = side(withGit, true, ignoredTracked);
  const b = side(withGit, false, ignoredTracked);
  await a.source!.watch([a.ws]);
  const say = `seed ${seed}${withGit ? ' (git)' : ''}; replay with AR_SEED=${seed}`;
  let callN = 0;
  const both = async (fn: (s: Side) => void) => {
    for (const s of [a, b]) {
      if (s.source) await s.source.settle(); // what the resident does before it records
      fn(s);
    }
  };
  const ev = (s: Side) => ({ agent: 'claude', session: 's1', cwd: s.ws });
  await both((s) => record(s.store, { ...ev(s), type: 'session_start', source: 'startup' }, s.source ? { changes: s.source } : {}));
  const trail: string[] = [];
  for (let step = 0; step < steps; step++) {
    const roll = r();
    if (roll < 0.15) {
      trail.push('prompt');
      await both((s) => record(s.store, { ...ev(s), type: 'prompt', text: `p${step}` }, s.source ? { changes: s.source } : {}));
      continue;
    }
    // Each operation is decided from the tree as the previous one left it, then done on both sides.
    const count = 1 + Math.floor(r() * 3);
    const apply = () => {
      const names: string[] = [];
      for (let i = 0; i < count; i++) {
        const o = randomOp(r, a.ws, step * 10 + i);
        names.push(o.name);
        for (const s of [a, b]) o.op(s.ws);
      }
      return names.join(' ');
    };
    if (roll < 0.3) {
      // The user's own edits between calls: recorded by the next boundary only.
      trail.push(`user ${apply()}`);
      continue;
    }
    const call = `call${++callN}`;
    const e = (s: Side) => ({
      ...ev(s),
      tool: 'Bash',
      kind: claudeToolKind('Bash', { command: 'sh run.sh' }),
      input: { command: 'sh run.sh' },
      paths: [],
      shell: true,
      callId: call,
    });
    await both((s) => record(s.store, { ...e(s), type: 'before_tool' }, s.source ? { changes: s.source } : {}));
    trail.push(`bash ${apply()}`);
    await both((s) => record(s.store, { ...e(s), type: 'after_tool', ok: true }, s.source ? { changes: s.source } : {}));
  }
  await both((s) => record(s.store, { ...ev(s), type: 'stop' }, s.source ? { changes: s.source } : {}));
  await a.source!.close();
  assert.deepEqual(listTree(a.ws), listTree(b.ws), `the two workspaces differ: the test itself is wrong (${say})`);
  if (process.env.AR_DEBUG) {
    fs.writeFileSync(`/tmp/wd-${seed}${withGit ? 'g' : ''}-a.json`, JSON.stringify(normalized(a), null, 1));
    fs.writeFileSync(`/tmp/wd-${seed}${withGit ? 'g' : ''}-b.json`, JSON.stringify(normalized(b), null, 1));
  }
  assert.deepEqual(normalized(a), normalized(b), `records differ with the watcher: ${say}\n${trail.join('\n')}`);
  assert.deepEqual(plans(a), plans(b), `plans differ with the watcher: ${say}`);
}

/** What a state says of every file and folder (everything a later record is made of). */
function stateView(st: ScanState): unknown {
  const files: Record<string, unknown> = {};
  for (const [rel, e] of st.files) files[rel] = [e.hash ?? e.git ?? null, e.size, e.mode & 0o111, e.flags & 1];
  // With git, today's scan lists no folders of its own: it keeps a moved empty folder it never
  // sees gone, where the narrowed scan (which lists the changed folders) drops it. Files only there.
  return st.git ? { files } : { files, dirs: [...st.dirs].map(([d]) => d).sort() };
}

/** One scan side: a workspace and its state; `source` narrows its scans as shell capture does. */
function scanSide(withGit: boolean, watched: boolean, ignoredTracked = false) {
  const s = side(withGit, watched, ignoredTracked);
  const o = scanOptionsIn(path.join(path.dirname(s.ws), 'scanstore'), 100000);
  return { ...s, o, state: null as ScanState | null, token: s.source?.token(s.ws) };
}

/**
 * `ignoredTracked`: the tree has tracked files in ignored folders; the watcher is handed the folders the
 * scan enters that it does not cover after each scan, as shell capture does (`include`).
 */
async function scanRun(
  seed: number,
  withGit: boolean,
  steps: number,
  ignoredTracked = false,
): Promise<{ narrowed: number; alone: number }> {
  const r = rng(seed);
  const a = scanSide(withGit, true, ignoredTracked);
  const b = scanSide(withGit, false, ignoredTracked);
  await a.source!.watch([a.ws]);
  const say = `seed ${seed}${withGit ? ' (git)' : ''}${ignoredTracked ? ' (ignored tracked)' : ''}; replay with AR_SEED=${seed}`;
  let narrowed = 0;
  let alone = 0;
  const scanBoth = async (label: string) => {
    const out: unknown[] = [];
    for (const s of [a, b]) {
      await s.source?.settle();
      const paths = s.source && s.token ? s.source.changedSince(s.ws, s.token) : undefined;
      s.token = s.source?.token(s.ws);
      if (!s.state) {
        s.state = baseline(s.ws, 's', { ...s.o, budgetMs: 1e9 }).state;
        if (ignoredTracked) includeUncovered(s.source, s.state);
        out.push([]);
        continue;
      }
      if (process.env.AR_DEBUG && s.source) console.log(label, paths ? 'vouched' : 'no', s.source.stats());
      const res = rescan(s.state, { ...s.o, ...(paths ? { changed: { paths, covers: (d: string) => s.source!.covers(s.ws, d) } } : {}) });
      if (res.narrowed) narrowed++;
      if (res.alone?.length) alone++;
      if (ignoredTracked) includeUncovered(s.source, s.state);
      else if (process.env.AR_DEBUG && s.source && paths) console.log('not narrowed', label);
      out.push(
        res.changes.map((c) => [
          c.path,
          c.before?.hash ?? c.before?.git ?? null,
          c.after?.hash ?? null,
          c.after ? c.after.mode & 0o111 : null,
        ]),
      );
    }
    assert.deepEqual(out[0], out[1], `changes differ with the watcher after ${label}: ${say}`);
    assert.deepEqual(stateView(a.state!), stateView(b.state!), `states differ with the watcher after ${label}: ${say}`);
  };
  await scanBoth('the baseline');
  for (let step = 0; step < steps; step++) {
    const names: string[] = [];
    for (let i = 0, n = 1 + Math.floor(r() * 3); i < n; i++) {
      const o = randomOp(r, a.ws, step * 10 + i);
      names.push(o.name);
      for (const s of [a, b]) o.op(s.ws);
    }
    await scanBoth(`step ${step}: ${names.join(' ')}`);
  }
  await a.source!.close();
  return { narrowed, alone };
}

describe('file watcher: the same scan results with and without it (no racy window)', () => {
  const seeds = process.env.AR_SEED ? [Number(process.env.AR_SEED)] : [Date.now() % 100000, 3, 4];
  for (const seed of seeds)
    for (const withGit of [false, true])
      it(`random operations, seed ${seed}${withGit ? ', in a git repository' : ''}`, { timeout: 120000 }, async () => {
        const { narrowed } = await scanRun(seed, withGit, 60);
        assert.ok(narrowed > 30, `only ${narrowed} of 60 scans were narrowed (seed ${seed})`);
      });
});

describe('file watcher: identical records with and without it', () => {
  const seeds = process.env.AR_SEED ? [Number(process.env.AR_SEED)] : [Date.now() % 100000, 1, 2];
  for (const seed of seeds)
    for (const withGit of [false, true])
      it(
        `random operations, seed ${seed}${withGit ? ', in a git repository' : ''}`,
        {
          timeout: 120000,
        },
        async () => {
          const before = { ...watchedScans };
          const looks = { ...watchedLooks };
          await run(seed, withGit, 40);
          assert.ok(watchedScans.narrowed > before.narrowed, `the watcher narrowed no scan (seed ${seed})`);
          assert.ok(watchedLooks.narrowed > looks.narrowed, `the watcher narrowed no boundary look (seed ${seed})`);
        },
      );

  it(
    'a command that changes more than 10,000 files: the watcher gives way to the scan, the same changes',
    { timeout: 120000 },
    async () => {
      const a = scanSide(false, true);
      const b = scanSide(false, false);
      await a.source!.watch([a.ws]);
      for (const s of [a, b]) {
        s.state = baseline(s.ws, 's', { ...s.o, budgetMs: 1e9 }).state;
        s.token = s.source?.token(s.ws);
      }
      const results: unknown[] = [];
      for (const s of [a, b]) {
        // Half into a folder watched already (an event each, more than the kernel's queue can hold
        // in one go), half into new folders (found by walking them when their watch is added).
        for (let f = 0; f < 5050; f++) fs.writeFileSync(path.join(s.ws, 'src', 'lib', `g${f}.txt`), `${f}\n`);
        for (let d = 0; d < 50; d++) {
          fs.mkdirSync(path.join(s.ws, 'gen', `d${d}`), { recursive: true });
          for (let f = 0; f < 101; f++) fs.writeFileSync(path.join(s.ws, 'gen', `d${d}`, `g${f}.txt`), `${d}/${f}\n`);
        }
        await s.source?.settle();
        const paths = s.source && s.token ? s.source.changedSince(s.ws, s.token) : undefined;
        // Undefined for the unwatched side by construction; for the watched side, the point of this case.
        assert.equal(paths, undefined, 'too many events at once: the watcher must not vouch');
        const r = rescan(s.state!, s.o);
        results.push(r.changes.map((c) => [c.path, c.after?.hash ?? null]));
      }
      await a.source!.close();
      assert.equal((results[0] as unknown[]).length, 10100);
      assert.deepEqual(results[0], results[1]);
      assert.deepEqual(stateView(a.state!), stateView(b.state!));
    },
  );
});

describe('file watcher: tracked files inside ignored folders, watched too', () => {
  const seeds = process.env.AR_SEED ? [Number(process.env.AR_SEED)] : [Date.now() % 100000, 5];
  for (const seed of seeds) {
    it(`random operations, seed ${seed}: the same scans, narrowed`, { timeout: 120000 }, async () => {
      const { narrowed } = await scanRun(seed, true, 60, true);
      assert.ok(narrowed > 30, `only ${narrowed} of 60 scans were narrowed (seed ${seed})`);
    });
    it(`random operations, seed ${seed}: identical records, shell scans narrowed`, { timeout: 120000 }, async () => {
      const before = { ...watchedScans };
      await run(seed, true, 40, true);
      assert.ok(watchedScans.narrowed > before.narrowed, `the watcher narrowed no scan (seed ${seed})`);
    });
  }

  it('the ignored folders holding tracked files are scanned alone until the watcher is handed them, then narrowed like the rest', async () => {
    const a = scanSide(true, true, true);
    await a.source!.watch([a.ws]);
    a.state = baseline(a.ws, 's', { ...a.o, budgetMs: 1e9 }).state;
    // Before the watcher is handed them, the ignored folders holding tracked files are scanned alone, the rest narrowed.
    const scan = async (edit: () => void) => {
      const token = a.source!.token(a.ws)!;
      edit();
      await a.source!.settle();
      const paths = a.source!.changedSince(a.ws, token)!;
      return rescan(a.state!, { ...a.o, changed: { paths, covers: (d: string) => a.source!.covers(a.ws, d) } });
    };
    const first = await scan(() => fs.writeFileSync(path.join(a.ws, 'build', 'out.txt'), 'changed\n'));
    assert.equal(first.narrowed, true);
    assert.deepEqual([...first.alone!].sort(), ['build', 'build/sub', 'vendor/lib'], '`vendor` itself is not ignored: watched');
    assert.deepEqual(
      first.changes.map((c) => c.path),
      ['build/out.txt'],
    );
    includeUncovered(a.source, a.state);
    const second = await scan(() => fs.writeFileSync(path.join(a.ws, 'vendor', 'lib', 'v.txt'), 'changed\n'));
    const third = await scan(() => fs.writeFileSync(path.join(a.ws, 'build', 'sub', 'deep.txt'), 'changed\n'));
    await a.source!.close();
    assert.deepEqual(second.alone, [], 'the watcher covers them now');
    assert.deepEqual(
      second.changes.map((c) => c.path),
      ['vendor/lib/v.txt'],
    );
    assert.deepEqual(third.alone, []);
    assert.deepEqual(
      third.changes.map((c) => c.path),
      ['build/sub/deep.txt'],
    );
  });
});
