// The file watcher's effect (resident/watcher.ts), whole processes as an agent runs them, ratios
// within each round (bench/lib.mjs `rounds`): a Bash call that changes one file, cold (each hook
// scans by itself) and warm (a resident whose watcher names the changed paths), against an Edit
// call, two bare `node -e 0` and `git status`, on realistic trees of 10,000 and 100,000 files and on
// a clone of this repository; and the prompt hook at 10,000 recorded paths against one with none.
//   BENCH_WATCH_SIZES=10000,100000 (default) — which generated trees.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bashCall, COLD, hook, recordedWrite } from './hooks.mjs';
import { recordedWorld } from './observe.mjs';
import { startResident, status } from './resident.mjs';
import { fmt, makeRealisticWorkspace, rm, rounds, timeSpawn, tmp } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../dist/cli.js');
const N = Number(process.env.BENCH_RUNS || 25);
const WARM = { AGENT_REWIND_RESIDENT: '1' }; // the resident watches by default

/**
 * The rows measure what they say only if every Bash call was captured: capture is on for the session
 * and the changed file has an "after" snapshot from the shell for each of the `calls` rounds.
 */
function assertCaptured(store, file, calls) {
  const state = JSON.parse(fs.readFileSync(path.join(store, 'capture.json'), 'utf8')).sessions?.bench?.state;
  if (state !== 'on') throw new Error(`shell capture is "${state}" in ${path.basename(store)}: its Bash rows would measure no capture`);
  const after = fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"origin":"shell"'))
    .map((l) => JSON.parse(l))
    .filter((r) => r.path === file && r.phase === 'after' && r.tool === 'Bash').length;
  if (after < calls) throw new Error(`${path.basename(store)} captured ${after} of ${calls} Bash calls' change to ${file}`);
}

function gitInit(ws) {
  spawnSync('git', ['init', '-q'], { cwd: ws });
  spawnSync('git', ['add', '-A'], { cwd: ws });
  spawnSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init'], { cwd: ws });
}

/** One tree: Bash call cold and warm, Edit call warm, against bare node and git status. */
async function treeRows(root, label, ws, target) {
  fs.writeFileSync(path.join(ws, 'bench-target.ts'), 'x'.repeat(10 * 1024));
  const cold = path.join(root, `store-cold-${label}`);
  const warm = path.join(root, `store-warm-${label}`);
  const start = { session_id: 'bench', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' };
  // Shell capture stops above maxScanFiles (50,000 by default): the 100k tree has 70,000 files that are not
  // ignored, and a row about a Bash call's capture must capture. The limit is raised above every tree here.
  for (const store of [cold, warm]) {
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, 'config.json'), JSON.stringify({ maxScanFiles: 1_000_000 }));
  }
  hook(cold, start, COLD);
  hook(warm, start, COLD);
  const pid = await startResident(warm, WARM);
  try {
    hook(warm, { session_id: 'bench', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'warm up' }, WARM);
    const r = rounds(
      {
        bare: () => timeSpawn(process.execPath, ['-e', '0']),
        gitStatus: () => timeSpawn('git', ['status', '--porcelain'], { cwd: ws }),
        editWarm: (i) => recordedWrite(ws, warm, i, 'warm_', WARM),
        bashCold: (i) => bashCall(ws, cold, target, `cold${i}`, COLD, `echo >> ${target}`),
        bashWarm: (i) => bashCall(ws, warm, target, `warm${i}`, WARM, `echo >> ${target}`),
      },
      N,
    );
    for (const store of [cold, warm]) assertCaptured(store, path.join(ws, target), N);
    const ratio = (fn) => r.median(fn).toFixed(2);
    const m = r.medians;
    const st = status(warm);
    return {
      m,
      r,
      rows: [
        { name: `${label}: bare node -e 0 / git status`, ms: m.bare, vs: `git status ${fmt(m.gitStatus)}` },
        { name: `${label}: Edit call, warm`, ms: m.editWarm, vs: `${ratio((v) => v.editWarm / (2 * v.bare))}× two bare node` },
        {
          name: `${label}: Bash call (1 file), cold`,
          ms: m.bashCold,
          vs: `${ratio((v) => v.bashCold / v.editWarm)}× warm Edit, ${ratio((v) => v.bashCold / (2 * v.bare))}× two bare node, ${ratio((v) => v.bashCold / v.gitStatus)}× git status`,
        },
        {
          name: `${label}: Bash call (1 file), warm`,
          ms: m.bashWarm,
          vs: `${ratio((v) => v.bashWarm / v.editWarm)}× warm Edit (target ≤ 1.2), ${ratio((v) => v.bashWarm / (2 * v.bare))}× two bare node, ${ratio((v) => v.bashWarm / v.gitStatus)}× git status; ${st.watches} watches, ${st.served} served`,
        },
      ],
    };
  } finally {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
}

async function promptRows(root) {
  const none = recordedWorld(root, 0);
  const k10 = recordedWorld(root, 10000);
  const pids = [await startResident(none.store, WARM), await startResident(k10.store, WARM)];
  try {
    const prompt = (w, i, env) =>
      hook(w.store, { session_id: 'bench', cwd: w.ws, hook_event_name: 'UserPromptSubmit', prompt: `p${i}` }, env);
    prompt(k10, -1, WARM); // the resident's first look (whole); the rounds' are narrowed
    const r = rounds(
      {
        bare: () => timeSpawn(process.execPath, ['-e', '0']),
        noneWarm: (i) => prompt(none, i, WARM),
        k10Warm: (i) => prompt(k10, i, WARM),
        k10Cold: (i) => prompt(k10, i, COLD),
      },
      N,
    );
    const ratio = (fn) => r.median(fn).toFixed(2);
    return [
      { name: 'prompt hook, nothing recorded, warm', ms: r.medians.noneWarm, vs: `${ratio((v) => v.noneWarm / v.bare)}× bare node` },
      {
        name: 'prompt hook, 10,000 recorded paths, cold',
        ms: r.medians.k10Cold,
        vs: `${ratio((v) => v.k10Cold / v.noneWarm)}× warm with none`,
      },
      {
        name: 'prompt hook, 10,000 recorded paths, warm',
        ms: r.medians.k10Warm,
        vs: `${ratio((v) => v.k10Warm / v.noneWarm)}× warm with none (target ≤ 1.1)`,
      },
    ];
  } finally {
    for (const pid of pids)
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* gone */
      }
  }
}

export async function runWatcherBench() {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first.');
  const root = tmp('ar-bench-watch-');
  const out = [];
  const warmBash = {};
  try {
    const sizes = (process.env.BENCH_WATCH_SIZES || '10000,100000').split(',').map(Number);
    for (const n of sizes) {
      const ws = path.join(root, `ws${n}`);
      const tree = makeRealisticWorkspace(ws, n);
      gitInit(ws);
      const t = await treeRows(root, `${n / 1000}k files`, ws, tree.changeable[0]);
      warmBash[n] = t.m.bashWarm;
      out.push(...t.rows);
    }
    if (warmBash[10000] && warmBash[100000])
      out.push({
        name: 'warm Bash call, 100k / 10k',
        ms: NaN,
        vs: `${(warmBash[100000] / warmBash[10000]).toFixed(2)}× (target ≤ 1.1; medians of separate rounds)`,
      });
    const self = path.join(root, 'self');
    spawnSync('git', ['clone', '-q', '--depth', '1', `file://${path.resolve(HERE, '..')}`, self]);
    out.push(...(await treeRows(root, 'this repository', self, 'README.md')).rows);
    const promptRoot = path.join(root, 'prompt');
    fs.mkdirSync(promptRoot);
    out.push(...(await promptRows(promptRoot)));
    return { title: `File watcher (cold: each hook scans; warm: the resident's watcher narrows; runs ${N})`, rows: out };
  } catch (e) {
    console.error(e); // before the clean-up, which can fail on its own (a git process still writing)
    throw e;
  } finally {
    try {
      rm(root);
    } catch (e) {
      console.error(`could not remove ${root}: ${e.message}`);
    }
  }
}
