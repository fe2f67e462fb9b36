// The resident recorder's effect, whole processes as an agent runs them, ratios within each round
// (bench/lib.mjs `rounds`): the forwarding hook's floor (an event the recorder ignores, through a
// resident) against bare `node -e 0`; an Edit call (PreToolUse + PostToolUse) and a prompt hook,
// cold (every hook records by itself) and warm (a resident records them), against two and one bare
// node processes and `git status`, on a realistic 10,000-file tree.
//   BENCH_BASELINE_CLI=<another build's dist/cli.js> (e.g. a checkout of main, built): its cold Edit call and
//   prompt hook are measured in the same rounds, so "cold never slower" is a ratio of one run.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLD, hook, hookFromPipe, recordedWrite } from './hooks.mjs';
import { fmt, makeRealisticWorkspace, rm, rounds, timeSpawn, tmp } from './lib.mjs';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const N = Number(process.env.BENCH_RUNS || 25);
const WARM = { AGENT_REWIND_RESIDENT: '1' };
const BASELINE = process.env.BENCH_BASELINE_CLI ? path.resolve(process.env.BENCH_BASELINE_CLI) : undefined;

export function status(store) {
  const r = spawnSync(process.execPath, [CLI, 'status', '--json', '--store', store], { encoding: 'utf8' });
  try {
    return JSON.parse(r.stdout).resident ?? { running: false };
  } catch {
    return { running: false }; // no answer yet (a resident still setting up its watches on a big tree)
  }
}

/**
 * Starts the store's resident and waits (by asking it) until it answers. `env`: the resident's own
 * (AGENT_REWIND_WATCH=1 gives it its watcher: a hook's environment does not).
 */
export async function startResident(store, env = {}) {
  const child = spawn(process.execPath, [CLI, 'resident', '--store', store], {
    env: { ...process.env, ...WARM, ...env },
    stdio: 'ignore',
    detached: true,
  });
  child.unref();
  // On a 100,000-file tree the resident sets up a watch per folder before it answers: give it two minutes.
  const by = Date.now() + 120000;
  while (!status(store).running && Date.now() < by) await new Promise((r) => setTimeout(r, 50));
  if (!status(store).running) throw new Error('the resident did not start within 2 minutes');
  return child.pid;
}

export async function runResidentBench() {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first.');
  const root = tmp('ar-bench-resident-');
  const out = [];
  let pid = 0;
  try {
    const ws = path.join(root, 'ws');
    makeRealisticWorkspace(ws, 10000);
    fs.writeFileSync(path.join(ws, 'bench-target.ts'), 'x'.repeat(10 * 1024));
    spawnSync('git', ['init', '-q'], { cwd: ws });
    spawnSync('git', ['add', '-A'], { cwd: ws });
    spawnSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init'], { cwd: ws });
    const cold = path.join(root, 'store-cold');
    const warm = path.join(root, 'store-warm');
    const start = { session_id: 'bench', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' };
    hook(cold, start, COLD);
    hook(warm, start, COLD);
    const base = path.join(root, 'store-baseline');
    if (BASELINE) hook(base, start, COLD, BASELINE);
    pid = await startResident(warm);
    const prompt = (i) => ({ session_id: 'bench', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: `prompt ${i}` });
    const ignored = { session_id: 'bench', cwd: ws, hook_event_name: 'Notification', message: 'hi' };
    const fifo = path.join(root, 'stdin.fifo');
    spawnSync('mkfifo', [fifo]);
    const r = rounds(
      {
        bare: () => timeSpawn(process.execPath, ['-e', '0']),
        gitStatus: () => timeSpawn('git', ['status', '--porcelain'], { cwd: ws }),
        floorWarm: () => hook(warm, ignored, WARM),
        floorWarmPipe: () => hookFromPipe(fifo, warm, ignored, WARM),
        editCold: (i) => recordedWrite(ws, cold, i, 'cold_', COLD),
        editWarm: (i) => recordedWrite(ws, warm, i, 'warm_', WARM),
        promptCold: (i) => hook(cold, prompt(i), COLD),
        promptWarm: (i) => hook(warm, prompt(i), WARM),
        ...(BASELINE
          ? {
              editBaseline: (i) => recordedWrite(ws, base, i, 'base_', COLD, BASELINE),
              promptBaseline: (i) => hook(base, prompt(i), COLD, BASELINE),
            }
          : {}),
      },
      N,
    );
    const served = status(warm).served;
    if (served < 5 * N)
      throw new Error(`the resident served ${served} hooks: the warm rows (5 hooks a round) measured the hooks' fallback`);
    const m = r.medians;
    const ratio = (fn) => r.median(fn).toFixed(2);
    out.push({ name: 'bare node -e 0', ms: m.bare, vs: '' });
    out.push({ name: 'git status --porcelain (10k-file tree)', ms: m.gitStatus, vs: '' });
    out.push({
      name: 'forwarding hook floor (ignored event, warm, stdin a socket as node gives)',
      ms: m.floorWarm,
      vs: `${ratio((v) => v.floorWarm / v.bare)}× bare node; target ≤ 1.10×`,
    });
    out.push({
      name: 'forwarding hook floor (ignored event, warm, stdin a pipe as a shell gives)',
      ms: m.floorWarmPipe,
      vs: `${ratio((v) => v.floorWarmPipe / v.bare)}× bare node; target ≤ 1.10×`,
    });
    for (const [name, key, against] of [
      ['Edit call (Pre+Post), cold', 'editCold', 2],
      ['Edit call (Pre+Post), warm', 'editWarm', 2],
      ['prompt hook, cold', 'promptCold', 1],
      ['prompt hook, warm', 'promptWarm', 1],
    ])
      out.push({
        name: `${name}, 10k-file tree`,
        ms: m[key],
        vs: `${ratio((v) => v[key] / (against * v.bare))}× ${against === 2 ? 'two bare node' : 'bare node'}, ${ratio((v) => v[key] / v.gitStatus)}× git status`,
      });
    if (BASELINE)
      out.push({
        name: 'cold against the baseline build, 10k-file tree',
        ms: NaN,
        vs: `Edit call ${ratio((v) => v.editCold / v.editBaseline)}× (baseline ${fmt(m.editBaseline)}), prompt hook ${ratio((v) => v.promptCold / v.promptBaseline)}× (baseline ${fmt(m.promptBaseline)}); BENCH_BASELINE_CLI`,
      });
    out.push({
      name: 'warm / cold',
      ms: NaN,
      vs: `Edit call ${ratio((v) => v.editWarm / v.editCold)}×, prompt hook ${ratio((v) => v.promptWarm / v.promptCold)}× (${served} hooks served by the resident; runs ${N}; ${fmt(m.bare)} bare)`,
    });
    return { title: 'Resident recorder (cold: every hook records by itself; warm: a resident records)', rows: out };
  } finally {
    if (pid) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
    rm(root);
  }
}
