// The shapes real repositories have, as an agent meets them: the built CLI, one process per hook, the
// resident on, the product's default settings (maxScanFiles 50,000), ratios within each round
// (bench/lib.mjs `rounds`). One generated tree holds every shape at once — the workspace is a linked git
// worktree (its `.git` is a file), with a submodule, a symlinked folder pointing outside the tree and one
// pointing inside it, nested `.gitignore` files with negations, and tracked files in ignored folders —
// at 10,000 files (default), 100,000 and 1,000,000 (BENCH_SHAPES_SIZES). Rows: an Edit call against two
// bare node, a Bash call changing one file (in each shape) against an Edit call, the first Bash call
// after a SessionStart, a prompt hook, SessionStart warm (resume on a root the resident watches) against
// a prompt hook and cold (a root nobody watches: a hook that walks it) against `git status`; the
// resident's fallback counts after each tree (`status --json`), and every Bash call's change checked
// recorded (counted).
//   BENCH_SHAPES_SIZES=10000,100000 (default 10000). Building the tree took 15 s at 10k and 101 s at 100k on a loaded
//   2-core machine: 1000000 is opt-in (a quarter of an hour or more to build, before any row).
//   BENCH_REPO=<a checkout> measures the same rows on a real repository instead (its files are changed by
//   the Bash and Edit rows — appended comments — and put back as they were at the end).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bashCall, COLD, hook, recordedWrite } from './hooks.mjs';
import { startResident, status } from './resident.mjs';
import { makeRealisticWorkspace, median, rm, rounds, timeSpawn, tmp } from './lib.mjs';

const N = Number(process.env.BENCH_RUNS || 25);
const WARM = { AGENT_REWIND_RESIDENT: '1' };
const git = (cwd, ...a) => {
  const r = spawnSync('git', ['-c', 'protocol.file.allow=always', '-c', 'user.name=b', '-c', 'user.email=b@b', ...a], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30, // a real repository's file list is megabytes
  });
  if (r.status !== 0) throw new Error(`git ${a.join(' ')} in ${cwd}: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
};
const put = (file, text) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

/**
 * The generated tree of `n` files with every shape. Returns the workspace and, per shape, the file
 * (relative to the workspace) a Bash call changes and the path (absolute, resolved) where the change lands.
 */
function buildShapes(root, n) {
  const main = path.join(root, `main${n}`);
  const ws = path.join(root, `ws${n}`);
  fs.mkdirSync(main);
  put(path.join(main, 'README.md'), 'main\n');
  git(main, 'init', '-q');
  git(main, 'add', '-A');
  git(main, 'commit', '-qm', 'init');
  git(main, 'worktree', 'add', '-q', ws); // ws/.git is a file naming main/.git/worktrees/…
  const tree = makeRealisticWorkspace(ws, n);
  // Nested rules with negations, and tracked files in ignored folders (forced in).
  fs.appendFileSync(path.join(ws, '.gitignore'), 'build/\ndist/\nvendor/*\n!vendor/keep/\n*.log\n!important.log\n');
  const forced = ['build/out/index.js', 'dist/vendor/lib.js', 'vendor/lib/v.js'];
  for (const f of forced) put(path.join(ws, f), `// ${f}\n`);
  for (let i = 0; i < 100; i++) put(path.join(ws, 'build/out', `chunk${i}.js`), `// ignored output ${i}\n`);
  put(path.join(ws, 'vendor/keep/.gitignore'), 'generated/\n!generated/keep.ts\n*.tmp\n');
  put(path.join(ws, 'vendor/keep/important.log'), 'kept\n');
  put(path.join(ws, 'vendor/keep/noise.log'), 'ignored\n');
  put(path.join(ws, 'vendor/keep/a.ts'), 'export const a = 1;\n');
  put(path.join(ws, 'vendor/keep/x.tmp'), 'ignored\n');
  // A symlinked folder pointing outside the tree, and one pointing inside it.
  const outside = path.join(root, `outside${n}`);
  put(path.join(outside, 'o.ts'), 'export const o = 1;\n');
  fs.symlinkSync(outside, path.join(ws, 'link-out'));
  fs.symlinkSync('src/a0', path.join(ws, 'link-in'));
  git(ws, 'add', '-A');
  git(ws, 'add', '-f', ...forced);
  // A submodule (its own repository: ws/sub/.git is a file).
  const subSrc = path.join(root, `subsrc${n}`);
  for (let i = 0; i < 20; i++) put(path.join(subSrc, 'lib', `s${i}.ts`), `export const s${i} = ${i};\n`);
  git(subSrc, 'init', '-q');
  git(subSrc, 'add', '-A');
  git(subSrc, 'commit', '-qm', 'sub');
  git(ws, 'submodule', 'add', '-q', subSrc, 'sub');
  git(ws, 'commit', '-qm', 'shapes');
  const src = tree.changeable[0];
  const inLink = fs.readdirSync(path.join(ws, 'src/a0'), { recursive: true }).find((f) => f.endsWith('.ts'));
  return {
    ws,
    targets: {
      'a source file': src,
      'a tracked file in an ignored folder': 'build/out/index.js',
      'a re-included file (nested negation)': 'vendor/keep/important.log',
      'a file in the submodule': 'sub/lib/s0.ts',
      'a file through the symlink pointing inside': `link-in/${inLink}`,
    },
    notes: { outside: 'link-out/o.ts' },
  };
}

/** A real checkout: a tracked source file, and a tracked file inside an ignored folder if it has one. */
function repoTargets(ws) {
  const files = git(ws, 'ls-files').split('\n').filter(Boolean);
  const src = files.find((f) => /^(src|packages|lib)\/.*\.(js|ts|mjs)$/.test(f)) ?? files.find((f) => /\.(js|ts)$/.test(f));
  const ignoredTracked = git(ws, 'ls-files', '-ci', '--exclude-standard').split('\n').filter(Boolean)[0];
  return { ws, targets: { 'a source file': src, ...(ignoredTracked ? { 'a tracked file in an ignored folder': ignoredTracked } : {}) } };
}

/** How many Bash calls (by tool_use_id prefix) left an `after` record of the file their change landed in. */
function countRecorded(store, calls) {
  const byCall = new Map();
  for (const l of fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8').split('\n')) {
    if (!l.includes('"phase":"after"') || !l.includes('"origin":"shell"')) continue;
    const r = JSON.parse(l);
    if (!byCall.has(r.call)) byCall.set(r.call, new Set());
    byCall.get(r.call).add(r.path);
  }
  let recorded = 0;
  const missed = [];
  for (const { id, file } of calls) {
    if (byCall.get(id)?.has(file)) recorded++;
    else missed.push(`${id} ${file}`);
  }
  return { recorded, missed };
}

function fallbackWords(f) {
  if (!f) return 'no fallbacks reported';
  const reasons = Object.entries(f.byReason)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const starts = f.sessionStarts ? `; session starts walked ${f.sessionStarts.walked}, narrowed ${f.sessionStarts.narrowed}` : '';
  return `whole-tree ${f.total}${reasons ? ` (${reasons})` : ''}, partial ${f.partial}, folders alone ${f.wholeFolders.length}${f.wholeFolders.length ? ` [${f.wholeFolders.slice(0, 4).join(', ')}]` : ''}${starts}`;
}

const since = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

async function treeRows(root, label, shape, coldRuns) {
  const { ws, targets } = shape;
  const warm = path.join(root, `store-warm-${label.replace(/\W+/g, '_')}`);
  const start = (source, session = 'bench') => ({ session_id: session, cwd: ws, hook_event_name: 'SessionStart', source });
  fs.writeFileSync(path.join(ws, 'bench-target.ts'), 'x'.repeat(10 * 1024));
  // Cold: a SessionStart on a root nobody watches (a hook that walks the tree itself), each on a fresh store.
  const coldMs = [];
  for (let i = 0; i < coldRuns; i++)
    coldMs.push(hook(path.join(root, `store-cold-${label.replace(/\W+/g, '_')}-${i}`), start('startup'), COLD));
  const gitStatus = median([0, 1, 2].map(() => timeSpawn('git', ['status', '--porcelain'], { cwd: ws })));
  hook(warm, { session_id: 'other', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'makes the store' }, COLD);
  const t0 = process.hrtime.bigint();
  const pid = await startResident(warm, WARM);
  const residentUpMs = since(t0);
  try {
    const t1 = process.hrtime.bigint();
    hook(warm, start('startup'), WARM); // the resident's first baseline of this root
    const firstStartMs = since(t1);
    hook(warm, { session_id: 'bench', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'warm up' }, WARM);
    const calls = [];
    const bash = (name, rel, tag) => {
      calls.push({ id: `toolu_bash_${tag}`, file: fs.realpathSync(path.join(ws, rel)) });
      return bashCall(ws, warm, rel, tag, WARM, `echo >> ${rel}`);
    };
    const afterStart = new Map();
    const shapeNames = Object.keys(targets);
    const variants = {
      bare: () => timeSpawn(process.execPath, ['-e', '0']),
      edit: (i) => recordedWrite(ws, warm, i, 'warm_', WARM),
      prompt: (i) => hook(warm, { session_id: 'bench', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: `p${i}` }, WARM),
      // A resume on the watched root, then the first Bash call after it (timed apart, same round).
      resume: (i) => {
        const ms = hook(warm, start('resume'), WARM);
        afterStart.set(i, bash('after start', targets['a source file'], `as${i}`));
        return ms;
      },
    };
    shapeNames.forEach((s, k) => {
      variants[`bash${k}`] = (i) => bash(s, targets[s], `s${k}_${i}`);
    });
    const r = rounds(variants, N);
    const firstBash = [];
    r.values.forEach((v, j) => {
      const b = afterStart.get(j + 2); // rounds' warm-up rounds are 0 and 1
      if (b !== undefined) firstBash.push(b / v.edit);
    });
    const st = status(warm);
    const { recorded, missed } = countRecorded(warm, calls);
    const ratio = (fn) => r.median(fn).toFixed(2);
    const m = r.medians;
    const rows = [
      { name: `${label}: Edit call, warm`, ms: m.edit, vs: `${ratio((v) => v.edit / (2 * v.bare))}× two bare node (target ≤ 1.15×)` },
      ...shapeNames.map((s, k) => ({
        name: `${label}: Bash, ${s}`,
        ms: m[`bash${k}`],
        vs: `${ratio((v) => v[`bash${k}`] / v.edit)}× warm Edit (target ≤ 1.2×)`,
      })),
      {
        name: `${label}: first Bash after a SessionStart`,
        ms: median([...afterStart.values()]),
        vs: `${median(firstBash).toFixed(2)}× warm Edit (target ≤ 1.2×)`,
      },
      { name: `${label}: prompt hook, warm`, ms: m.prompt, vs: `${ratio((v) => v.prompt / v.bare)}× bare node` },
      {
        name: `${label}: SessionStart (resume), warm`,
        ms: m.resume,
        vs: `${ratio((v) => v.resume / v.prompt)}× warm prompt hook (target ≤ 1.3×)`,
      },
      {
        name: `${label}: first SessionStart, resident`,
        ms: firstStartMs,
        vs: `one run; the resident answered ${residentUpMs.toFixed(0)} ms after its start`,
      },
      {
        name: `${label}: SessionStart, cold (hook walks)`,
        ms: median(coldMs),
        vs: `median of ${coldRuns}; ${(median(coldMs) / gitStatus).toFixed(2)}× git status --porcelain (${gitStatus.toFixed(0)} ms)`,
      },
      { name: `${label}: fallbacks`, ms: NaN, vs: `${fallbackWords(st.fallbacks)}; ${st.watches} watches, ${st.served} served` },
      {
        name: `${label}: shell changes recorded`,
        ms: NaN,
        vs: `${recorded} of ${calls.length}${missed.length ? `; MISSED ${missed.slice(0, 3).join('; ')}` : ''}`,
      },
    ];
    if (missed.length) for (const row of rows) console.log(`  ${row.name}: ${row.ms?.toFixed?.(1) ?? ''} ${row.vs}`);
    if (missed.length) throw new Error(`${label}: ${missed.length} of ${calls.length} shell changes not recorded`);
    return rows;
  } finally {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
}

/** The bytes of every file a row changes in a real checkout, to put back at the end. */
function keep(ws, rels) {
  return rels.map((rel) => [path.join(ws, rel), fs.readFileSync(path.join(ws, rel))]);
}

export async function runShapesBench() {
  const root = tmp('ar-bench-shapes-');
  const out = [];
  const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const atStart = load();
  try {
    if (process.env.BENCH_REPO) {
      const shape = repoTargets(path.resolve(process.env.BENCH_REPO));
      const files = git(shape.ws, 'ls-files').split('\n').filter(Boolean).length;
      const kept = keep(shape.ws, Object.values(shape.targets));
      try {
        out.push(...(await treeRows(root, `${path.basename(shape.ws)} (${files} tracked)`, shape, 3)));
      } finally {
        for (const [f, bytes] of kept) fs.writeFileSync(f, bytes);
        fs.rmSync(path.join(shape.ws, 'bench-target.ts'), { force: true });
      }
    } else {
      for (const n of (process.env.BENCH_SHAPES_SIZES || '10000').split(',').map(Number)) {
        const t0 = process.hrtime.bigint();
        const shape = buildShapes(root, n);
        const built = since(t0);
        out.push({ name: `${n} files: built`, ms: built, vs: 'the tree, its commit, the worktree and the submodule' });
        out.push(...(await treeRows(root, `${Math.round(n / 1000)}k files, every shape`, shape, n >= 1000000 ? 1 : 3)));
        rm(path.join(root, `ws${n}`));
        rm(path.join(root, `main${n}`));
      }
    }
    out.push({ name: 'load average at start / end', ms: NaN, vs: `${atStart} / ${load()}` });
    return { title: `Repository shapes (the resident, default settings; runs ${N})`, rows: out };
  } finally {
    try {
      rm(root);
    } catch (e) {
      console.error(`could not remove ${root}: ${e.message}`);
    }
  }
}
