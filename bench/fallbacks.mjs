// The resident's watcher on trees shaped like real repositories (resident/watcher.ts, core/scan/narrow.ts):
// tracked files inside ignored folders (committed build output, vendored code, fixtures: 8 files in 4
// ignored folders, as a real formatter's repository has them) and a nested .gitignore with a negation.
// Whole processes as an agent runs them, ratios within each round (bench/lib.mjs `rounds`): a Bash call
// changing a file elsewhere, and one changing a tracked file in an ignored folder, against an Edit call,
// warm (the resident) and cold (each hook scans); the watcher's fallback counts from `status --json`; a
// SessionStart on a root the resident watches against a prompt hook. The warm store keeps the product's
// default settings (maxScanFiles 50,000): at 100k files shell capture must be on with the resident.
//   BENCH_IGNORED_SIZES=27000,100000 (default) — which generated trees.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bashCall, COLD, hook, recordedWrite } from './hooks.mjs';
import { startResident, status } from './resident.mjs';
import { makeRealisticWorkspace, rm, rounds, timeSpawn, tmp } from './lib.mjs';

const N = Number(process.env.BENCH_RUNS || 25);
const WARM = { AGENT_REWIND_RESIDENT: '1' };

/** Tracked files in ignored folders: the paths (relative) forced into git. */
const FORCED = [
  'build/out/index.js',
  'build/out/index.d.ts',
  'dist/vendor/lib.js',
  'dist/vendor/lib.min.js',
  'tests/fixtures/ignored/a.txt',
  'tests/fixtures/ignored/b.txt',
  'vendor/lib/v.js',
  'vendor/lib/v.d.ts',
];

function addIgnoredTracked(ws) {
  fs.appendFileSync(path.join(ws, '.gitignore'), 'build/\ndist/\ntests/fixtures/ignored/\nvendor/*\n!vendor/keep/\n');
  const put = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };
  for (const f of FORCED) put(f, `// ${f}\n`);
  for (let i = 0; i < 200; i++) put(`build/out/chunk${i}.js`, `// ignored output ${i}\n`); // ignored, never tracked
  put('vendor/keep/.gitignore', '*.log\n!important.log\n');
  put('vendor/keep/important.log', 'kept\n');
  put('vendor/keep/noise.log', 'ignored\n');
  const git = (...a) => spawnSync('git', a, { cwd: ws });
  git('init', '-q');
  git('add', '-A');
  git('add', '-f', ...FORCED);
  git('-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init');
  const tracked = spawnSync('git', ['ls-files', '-ci', '--exclude-standard'], { cwd: ws, encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  if (tracked.length !== FORCED.length) throw new Error(`expected ${FORCED.length} tracked ignored files, git lists ${tracked.length}`);
}

/** Every Bash call of the rounds (and warm-ups) captured: capture on, an `after` per call for each target. */
function assertCaptured(store, ws, targets, calls) {
  const state = JSON.parse(fs.readFileSync(path.join(store, 'capture.json'), 'utf8')).sessions?.bench?.state;
  if (state !== 'on') throw new Error(`shell capture is "${state}" in ${path.basename(store)}: its Bash rows would measure no capture`);
  const lines = fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"origin":"shell"'));
  for (const t of targets) {
    const file = path.join(ws, t);
    const n = lines.map((l) => JSON.parse(l)).filter((r) => r.path === file && r.phase === 'after' && r.tool === 'Bash').length;
    if (n < calls) throw new Error(`${path.basename(store)} captured ${n} of ${calls} Bash calls' change to ${t}`);
  }
}

function fallbackWords(f) {
  if (!f) return 'no fallbacks reported';
  const reasons = Object.entries(f.byReason)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `whole-tree ${f.total}${reasons ? ` (${reasons})` : ''}, partial ${f.partial}, folders scanned alone ${f.wholeFolders.length}`;
}

async function treeRows(root, n) {
  const label = `${Math.round(n / 1000)}k files, 8 tracked in 4 ignored folders`;
  const ws = path.join(root, `ws${n}`);
  const tree = makeRealisticWorkspace(ws, n);
  addIgnoredTracked(ws);
  fs.writeFileSync(path.join(ws, 'bench-target.ts'), 'x'.repeat(10 * 1024));
  const elsewhere = tree.changeable[0];
  const ignored = 'build/out/index.js';
  const cold = path.join(root, `store-cold-${n}`);
  const warm = path.join(root, `store-warm-${n}`);
  // The cold store's limit is raised (a Bash row must capture); the warm one keeps the defaults.
  fs.mkdirSync(cold, { recursive: true });
  fs.writeFileSync(path.join(cold, 'config.json'), JSON.stringify({ maxScanFiles: 1_000_000 }));
  const start = (source) => ({ session_id: 'bench', cwd: ws, hook_event_name: 'SessionStart', source });
  hook(cold, start('startup'), COLD);
  hook(warm, { session_id: 'other', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'makes the store' }, COLD);
  const pid = await startResident(warm, WARM);
  try {
    const t0 = process.hrtime.bigint();
    hook(warm, start('startup'), WARM); // the resident takes the baseline (with its limit) and watches the ignored folders holding tracked files
    const firstStartMs = Number(process.hrtime.bigint() - t0) / 1e6;
    hook(warm, { session_id: 'bench', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'warm up' }, WARM);
    const prompt = (i) => hook(warm, { session_id: 'bench', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: `p${i}` }, WARM);
    const r = rounds(
      {
        bare: () => timeSpawn(process.execPath, ['-e', '0']),
        editWarm: (i) => recordedWrite(ws, warm, i, 'warm_', WARM),
        promptWarm: (i) => prompt(i),
        resumeWarm: () => hook(warm, start('resume'), WARM),
        bashElsewhereWarm: (i) => bashCall(ws, warm, elsewhere, `we${i}`, WARM, `echo >> ${elsewhere}`),
        bashIgnoredWarm: (i) => bashCall(ws, warm, ignored, `wi${i}`, WARM, `echo >> ${ignored}`),
        bashIgnoredCold: (i) => bashCall(ws, cold, ignored, `ci${i}`, COLD, `echo >> ${ignored}`),
      },
      N,
    );
    assertCaptured(warm, ws, [elsewhere, ignored], N);
    assertCaptured(cold, ws, [ignored], N);
    const st = status(warm);
    const ratio = (fn) => r.median(fn).toFixed(2);
    const m = r.medians;
    return [
      { name: `${label}: Edit call, warm`, ms: m.editWarm, vs: `${ratio((v) => v.editWarm / (2 * v.bare))}× two bare node` },
      {
        name: `${label}: Bash (file elsewhere), warm`,
        ms: m.bashElsewhereWarm,
        vs: `${ratio((v) => v.bashElsewhereWarm / v.editWarm)}× warm Edit`,
      },
      {
        name: `${label}: Bash (tracked file in ignored folder), warm`,
        ms: m.bashIgnoredWarm,
        vs: `${ratio((v) => v.bashIgnoredWarm / v.editWarm)}× warm Edit`,
      },
      {
        name: `${label}: Bash (tracked file in ignored folder), cold`,
        ms: m.bashIgnoredCold,
        vs: `${ratio((v) => v.bashIgnoredCold / v.editWarm)}× warm Edit, ${ratio((v) => v.bashIgnoredCold / v.bashIgnoredWarm)}× warm`,
      },
      { name: `${label}: first SessionStart, resident`, ms: firstStartMs, vs: 'one run: the baseline walk' },
      {
        name: `${label}: SessionStart (resume), warm`,
        ms: m.resumeWarm,
        vs: `${ratio((v) => v.resumeWarm / v.promptWarm)}× warm prompt hook (${m.promptWarm.toFixed(1)} ms)`,
      },
      {
        name: `${label}: watcher fallbacks`,
        ms: NaN,
        vs: `${fallbackWords(st.fallbacks)}; ${st.watches} watches, ${st.served} served`,
      },
    ];
  } finally {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
}

export async function runFallbacksBench() {
  const root = tmp('ar-bench-fallbacks-');
  const out = [];
  try {
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    for (const n of (process.env.BENCH_IGNORED_SIZES || '27000,100000').split(',').map(Number)) out.push(...(await treeRows(root, n)));
    out.push({
      name: 'load average at start / end',
      ms: NaN,
      vs: `${load} / ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    });
    return { title: `Watcher fallbacks on tracked files in ignored folders (warm: the resident, default settings; runs ${N})`, rows: out };
  } catch (e) {
    console.error(e);
    throw e;
  } finally {
    try {
      rm(root);
    } catch (e) {
      console.error(`could not remove ${root}: ${e.message}`);
    }
  }
}
