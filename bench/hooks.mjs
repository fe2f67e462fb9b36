// The hook's cost, measured as whole processes the way an agent runs it, against the floor (bare
// `node -e 0`) and against a Cline-style checkpoint (git add -A && git commit into a shadow git
// dir with the workspace as work tree), on generated workspaces of 1,000 and 50,000 files; and Bash calls
// that really change 1 and 100 files at 1,000 / 10,000 / 50,000 files (shell capture reads the workspace),
// on two tree shapes: the generated one (random nesting) and a realistic one (about 10 files per
// folder, a node_modules-like folder, a flat generated/ folder of thousands of files).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, makeRealisticWorkspace, makeWorkspace, measure, rm, timeSpawn, tmp } from './lib.mjs';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const N = Number(process.env.BENCH_RUNS || 25);

/** Hooks without a resident recorder (cold: each records by itself); bench/resident.mjs measures warm. */
export const COLD = { AGENT_REWIND_RESIDENT: '0' };

/** One `hook claude` process with `payload` on stdin, timed (`cli`: another build's dist/cli.js, to compare). */
export function hook(store, payload, env = COLD, cli = CLI) {
  return timeSpawn(process.execPath, [cli, 'hook', 'claude'], {
    input: JSON.stringify(payload),
    env: { ...process.env, AGENT_REWIND_STORE: store, ...env },
  });
}

/**
 * One `hook claude` process whose stdin is a pipe — a FIFO holding the payload, its writer closed: what a
 * shell or an agent not written in node hands its hook (`hook` above gives a socket, as node does) — timed.
 */
export function hookFromPipe(fifo, store, payload, env = COLD, cli = CLI) {
  const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const writer = fs.openSync(fifo, 'w');
    fs.writeSync(writer, JSON.stringify(payload));
    fs.closeSync(writer);
    return timeSpawn(process.execPath, [cli, 'hook', 'claude'], {
      stdio: [reader, 'ignore', 'pipe'],
      env: { ...process.env, AGENT_REWIND_STORE: store, ...env },
    });
  } finally {
    fs.closeSync(reader);
  }
}

/** One recorded edit: the PreToolUse and PostToolUse hooks around a 10 KB write. */
export function recordedWrite(ws, store, i, idPrefix = 'toolu_', env = COLD, cli = CLI) {
  const file = path.join(ws, 'bench-target.ts');
  const p = { session_id: 'bench', cwd: ws, tool_name: 'Edit', tool_use_id: `${idPrefix}${i}`, tool_input: { file_path: file } };
  const a = hook(store, { ...p, hook_event_name: 'PreToolUse' }, env, cli);
  fs.writeFileSync(file, `// edit ${i}\n` + 'x'.repeat(10 * 1024));
  const b = hook(store, { ...p, hook_event_name: 'PostToolUse' }, env, cli);
  return a + b;
}

/**
 * A Bash call that really changes `targets` (relative paths; one path or several), with its two hooks.
 * `command` is what the call says it runs (its effect class decides whether a checkpoint precedes it).
 */
export function bashCall(ws, store, targets, tag, env = COLD, command = 'sed -i …') {
  const list = Array.isArray(targets) ? targets : [targets];
  const p = { session_id: 'bench', cwd: ws, tool_name: 'Bash', tool_use_id: `toolu_bash_${tag}`, tool_input: { command } };
  const a = hook(store, { ...p, hook_event_name: 'PreToolUse' }, env);
  for (const t of list) fs.appendFileSync(path.join(ws, t), `// ${tag}\n`);
  const b = hook(store, { ...p, hook_event_name: 'PostToolUse', tool_response: {} }, env);
  return a + b;
}

/** How many `after` snapshots the store holds for the call `call`: what a Bash call's capture recorded. */
function recordedAfters(store, call) {
  return fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes(`"${call}"`) && l.includes('"t":"snap"') && l.includes('"phase":"after"')).length;
}

function shadowGit(ws, gitDir, i) {
  fs.writeFileSync(path.join(ws, 'bench-target.ts'), `// edit ${i}\n` + 'x'.repeat(10 * 1024));
  const g = ['--git-dir', gitDir, '--work-tree', ws];
  return timeSpawn('sh', [
    '-c',
    `git ${g.map((a) => `'${a}'`).join(' ')} add -A && git ${g.map((a) => `'${a}'`).join(' ')} -c user.name=b -c user.email=b@b commit -q --allow-empty -m cp${i}`,
  ]);
}

export function runHookBench() {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first.');
  const out = [];
  const root = tmp('ar-bench-hooks-');
  try {
    const store = path.join(root, 'store-hook');
    const bare = measure(() => timeSpawn(process.execPath, ['-e', '0']), N);
    const oneHook = measure(
      (i) =>
        hook(store, {
          session_id: 'bench',
          cwd: root,
          hook_event_name: 'PreToolUse',
          tool_name: 'Read',
          tool_use_id: `r${i}`,
          tool_input: { file_path: path.join(root, 'x') },
        }),
      N,
    );
    out.push({
      name: 'one hook process (PreToolUse Read)',
      ms: oneHook,
      vs: `${(oneHook / bare).toFixed(2)}× bare node -e 0 (${fmt(bare)}); target ≤ 1.30×`,
    });
    const writes = {};
    for (const files of [1000, 50000]) {
      const ws = path.join(root, `ws${files}`);
      makeWorkspace(ws, files);
      fs.writeFileSync(path.join(ws, 'bench-target.ts'), 'x'.repeat(10 * 1024));
      const st = path.join(root, `store${files}`);
      writes[files] = measure((i) => recordedWrite(ws, st, i), N);
      const gitDir = path.join(root, `shadow${files}.git`);
      execFileSync('git', ['init', '-q', '--bare', gitDir]);
      shadowGit(ws, gitDir, 0); // the first commit hashes everything; checkpoints after it are "warm"
      const shadow = measure((i) => shadowGit(ws, gitDir, i + 1), Math.max(5, Math.floor(N / 3)), 1);
      out.push({
        name: `recorded write, ${files} files (Pre+Post, 10 KB)`,
        ms: writes[files],
        vs:
          `ours stores the written file's bytes (before and after) + 3 log lines; shadow git (add -A && commit) refreshes its whole index ` +
          `and stores a tree + commit: ${fmt(shadow)} → ${shadow >= writes[files] ? `ours ${(shadow / writes[files]).toFixed(1)}× cheaper` : `shadow git ${(writes[files] / shadow).toFixed(1)}× cheaper (a process per hook costs more than a small commit)`}`,
      });
      rm(ws);
    }
    // Shell capture is where the workspace size shows: a Bash call that really changes 1 or 100 files,
    // PreToolUse + the change + PostToolUse, after the session's baseline, at 1k / 10k / 50k files, on
    // both tree shapes. The changes are checked to be recorded: a row that recorded nothing measured nothing.
    const bash = {};
    const shapes = {
      generated: (ws, files) => {
        makeWorkspace(ws, files);
        return fs
          .readdirSync(ws, { recursive: true })
          .filter((f) => f.endsWith('.ts'))
          .slice(0, 100);
      },
      realistic: (ws, files) => makeRealisticWorkspace(ws, files).changeable.slice(0, 100),
    };
    for (const [shape, make] of Object.entries(shapes)) {
      for (const files of [1000, 10000, 50000]) {
        const ws = path.join(root, `bash-${shape}${files}`);
        const targets = make(ws, files);
        const st = path.join(root, `store-bash-${shape}${files}`);
        hook(st, { session_id: 'bench', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' });
        for (const changed of [1, 100]) {
          const key = `${shape}/${files}/${changed}`;
          bash[key] = measure((i) => bashCall(ws, st, targets.slice(0, changed), `${key}-${i}`), Math.max(5, Math.floor(N / 3)), 1);
          const recorded = recordedAfters(st, `toolu_bash_${key}-1`); // -0 ran twice (the warm-up)
          if (recorded !== changed) throw new Error(`the Bash call changing ${changed} file(s) (${key}) recorded ${recorded}`);
          out.push({
            name: `Bash changing ${changed} file(s), ${files} files, ${shape} tree`,
            ms: bash[key],
            vs: files === 1000 ? '' : `${(bash[key] / bash[`${shape}/1000/${changed}`]).toFixed(2)}× the same call at 1,000 files`,
          });
        }
        rm(ws);
      }
    }
    return {
      title: 'Hook path',
      rows: out,
      ratios: { hookVsNode: oneHook / bare, bash50kVs1k: bash['generated/50000/1'] / bash['generated/1000/1'] },
    };
  } finally {
    rm(root);
  }
}
