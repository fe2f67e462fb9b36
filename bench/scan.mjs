// Shell capture's cost, measured as whole hook processes the way an agent runs them, on generated
// (seeded) workspaces of 10,000 files:
//   1. the scan's added cost per shell call: PreToolUse + PostToolUse of a Bash call with capture
//      on, minus the same with capture off — against `git status --porcelain` on the same tree
//      (target: at most 2×);
//   2. the baseline (the SessionStart hook of a new session) against a Cline-style first
//      checkpoint, `git add -A && git commit` into a shadow git dir with the workspace as work
//      tree — in a git repository (target: at least 10× faster) and in a plain folder (target: no
//      slower);
//   3. the store's size after the baseline (and the first shell call, which makes the copies the
//      baseline's time budget left) against the workspace's bytes.
// This machine is noisy, so every comparison is made within rounds: each round runs every variant
// once, back to back, and a ratio is the median of the per-round ratios (medians of each variant
// are printed too). The commands measured are printed first.
//   node bench/scan.mjs      BENCH_FILES (10000), BENCH_RUNS (rounds; default 21), BENCH_BASE_RUNS (default 9)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, makeWorkspace, rm, rounds, timeSpawn, tmp } from './lib.mjs';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const FILES = Number(process.env.BENCH_FILES || 10000);
const N = Number(process.env.BENCH_RUNS || 21);
const BASE_N = Number(process.env.BENCH_BASE_RUNS || Math.max(5, Math.floor(N / 2)));
const GIT_ENV = { ...process.env, GIT_OPTIONAL_LOCKS: '0' };

function hook(store, payload) {
  return timeSpawn(process.execPath, [CLI, 'hook', 'claude'], {
    input: JSON.stringify(payload),
    env: { ...process.env, AGENT_REWIND_STORE: store },
  });
}

function dirBytes(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += dirBytes(p);
    else total += fs.lstatSync(p).size;
  }
  return total;
}

function git(ws, ...args) {
  execFileSync('git', ['-C', ws, '-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { stdio: 'ignore' });
}

const shadowCommand = (ws, gitDir) => {
  const g = `git --git-dir='${gitDir}' --work-tree='${ws}'`;
  return `${g} add -A && ${g} -c user.name=b -c user.email=b@b -c gc.auto=0 -c maintenance.auto=false commit -q -m checkpoint`;
};

function shadowCheckpoint(ws, gitDir) {
  rm(gitDir);
  execFileSync('git', ['init', '-q', '--bare', gitDir]);
  return timeSpawn('sh', ['-c', shadowCommand(ws, gitDir)]);
}

let sessionSeq = 0;
function sessionStart(store, ws) {
  const session = `bench-${process.pid}-${sessionSeq++}`;
  const ms = hook(store, { session_id: session, cwd: ws, hook_event_name: 'SessionStart', source: 'startup' });
  return { ms, session };
}

function shellCall(store, ws, session, i) {
  const p = { session_id: session, cwd: ws, tool_name: 'Bash', tool_use_id: `toolu_b${i}`, tool_input: { command: 'npm test' } };
  const a = hook(store, { ...p, hook_event_name: 'PreToolUse' });
  const b = hook(store, { ...p, hook_event_name: 'PostToolUse', tool_response: {} });
  return a + b;
}

/** A realistic working tree: a few uncommitted edits and untracked files on top of the commit. */
function dirty(ws) {
  const all = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else all.push(p);
    }
  };
  walk(ws);
  all.sort();
  for (let i = 0; i < 20; i++) fs.appendFileSync(all[(i * 487) % all.length], `// uncommitted edit ${i}\n`);
  for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(ws, `untracked-${i}.ts`), `export const u${i} = ${i};\n`.repeat(20));
}

const x = (r) => `${r.toFixed(2)}×`;

export function runScanBench({ log = console.log } = {}) {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first.');
  const root = tmp('ar-bench-scan-');
  const rows = [];
  try {
    // A git repository of FILES files, committed, with some uncommitted work.
    const repo = path.join(root, 'repo');
    const { bytes } = makeWorkspace(repo, FILES, 7);
    fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules/\ndist/\n*.log\n');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'init');
    dirty(repo);
    // The same tree as a plain folder.
    const plain = path.join(root, 'plain');
    makeWorkspace(plain, FILES, 7);
    // A real workspace's files are not all seconds old: wait out the racy-timestamp window
    // (files touched within 2 s of a scan are re-read by the next one).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2500);

    const hookCmd = `echo '<payload>' | AGENT_REWIND_STORE=<store> ${path.basename(process.execPath)} dist/cli.js hook claude`;
    log(`Shell capture bench: ${FILES} files, ${N} rounds (baselines: ${BASE_N}); every round runs each command once, back to back.`);
    log(`  shell call  = ${hookCmd}   (PreToolUse, then PostToolUse, of Bash "npm test"; store with capture on / off = maxScanFiles 1)`);
    log(`  git status  = GIT_OPTIONAL_LOCKS=0 git -C <repo> status --porcelain`);
    log(`  baseline    = the SessionStart hook into a new store`);
    log(`  shadow git  = sh -c "${shadowCommand('<workspace>', '<new bare dir>')}"`);

    // 1. Per shell call: capture on vs off, against git status, in the same rounds.
    const on = path.join(root, 'store-on');
    const off = path.join(root, 'store-off');
    fs.mkdirSync(off, { recursive: true });
    fs.writeFileSync(path.join(off, 'config.json'), JSON.stringify({ maxScanFiles: 1 })); // capture off: same hooks, no scan
    const sOn = sessionStart(on, repo).session;
    const sOff = sessionStart(off, repo).session;
    const r1 = rounds(
      {
        on: (i) => shellCall(on, repo, sOn, i),
        off: (i) => shellCall(off, repo, sOff, i),
        status: () => timeSpawn('git', ['-C', repo, 'status', '--porcelain'], { env: GIT_ENV }),
      },
      N,
      3,
    );
    const added = r1.median((v) => v.on - v.off);
    const addedRatio = r1.median((v) => (v.on - v.off) / v.status);
    rows.push({
      name: `Bash call (Pre+Post hooks), ${FILES} files, capture on`,
      ms: r1.medians.on,
      vs: `capture off ${fmt(r1.medians.off)}`,
    });
    rows.push({
      name: 'scan cost added per shell call (2 scans)',
      ms: added,
      vs: `git status --porcelain ${fmt(r1.medians.status)} → ${x(addedRatio)} (target ≤ 2×; per-round ratio, IQR ${r1
        .iqr((v) => (v.on - v.off) / v.status)
        .map((q) => q.toFixed(2))
        .join('–')})`,
    });

    // 2. Baseline vs a shadow-git first checkpoint, in a git repository and in a plain folder.
    const result = {};
    for (const [label, ws] of [
      ['git repository', repo],
      ['plain folder', plain],
    ]) {
      let storeBytes = 0;
      let k = 0;
      const r2 = rounds(
        {
          ours: () => {
            const store = path.join(root, `store-base-${label.replace(/ /g, '-')}-${k++}`);
            const { ms, session } = sessionStart(store, ws);
            // Copies the baseline left for later (its time budget) are made before the first
            // shell command runs: measure the store after that one, as a session has it.
            hook(store, {
              session_id: session,
              cwd: ws,
              hook_event_name: 'PreToolUse',
              tool_name: 'Bash',
              tool_use_id: 'toolu_size',
              tool_input: { command: 'true' },
            });
            storeBytes = dirBytes(store);
            rm(store);
            return ms;
          },
          shadow: () => shadowCheckpoint(ws, path.join(root, 'shadow.git')),
        },
        BASE_N,
        1,
      );
      const shadowBytes = dirBytes(path.join(root, 'shadow.git'));
      const faster = r2.median((v) => v.shadow / v.ours);
      result[label] = { ours: r2.medians.ours, shadow: r2.medians.shadow, faster, storeBytes, shadowBytes };
      rows.push({
        name: `baseline (SessionStart), ${label}, ${FILES} files`,
        ms: r2.medians.ours,
        vs: `ours: a stat table of the tree + a copy of each file git does not hold (in a repository: a copy of git's index, clean files stay in git); shadow git add -A && commit: every file's bytes in its objects + a whole index + a tree; ${fmt(r2.medians.shadow)} → ${faster >= 1 ? `ours ${faster.toFixed(1)}× faster` : `ours ${(1 / faster).toFixed(1)}× SLOWER`} (target ${label === 'git repository' ? '≥ 10×' : '≥ 1×'}; per-round, IQR ${r2
          .iqr((v) => v.shadow / v.ours)
          .map((q) => q.toFixed(1))
          .join('–')})`,
      });
      rows.push({
        name: `store after baseline + 1st shell call, ${label}`,
        ms: NaN,
        vs: `${(storeBytes / 1048576).toFixed(2)} MB = ${((storeBytes / bytes) * 100).toFixed(1)}% of the workspace's ${(bytes / 1048576).toFixed(2)} MB (shadow git: ${(shadowBytes / 1048576).toFixed(2)} MB)`,
      });
    }
    return {
      title: 'Shell capture (scan)',
      rows,
      ratios: {
        scanVsGitStatus: addedRatio,
        baselineVsShadowGit: result['git repository'].faster,
        baselineVsShadowPlain: result['plain folder'].faster,
      },
    };
  } finally {
    rm(root);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = runScanBench();
  console.log(`\n${r.title}`);
  for (const row of r.rows)
    console.log(`  ${row.name.padEnd(58)} ${Number.isNaN(row.ms) ? ''.padStart(10) : fmt(row.ms).padStart(10)}  ${row.vs}`);
  console.log(`  ratios: ${JSON.stringify(Object.fromEntries(Object.entries(r.ratios).map(([k, v]) => [k, Number(v.toFixed(2))])))}`);
}
