// The boundary observation's cost: the prompt hook (UserPromptSubmit) on a store that has recorded
// 1,000 and 10,000 paths — every one stat'ed at the boundary, none changed — against the same hook
// on a store that has recorded nothing (what a prompt hook cost before the observation: it never
// looked at the disk). Target: ≤ 1.3× at 10,000 recorded paths. Also the cost when 1% of them did
// change (those are hashed and snapshotted).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, rm, rounds, timeSpawn, tmp } from './lib.mjs';

const iqrText = ([a, b]) => `${a.toFixed(2)}–${b.toFixed(2)}`;

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const N = Number(process.env.BENCH_RUNS || 25);

/** A workspace of `n` files and a store whose log records each of them once (as an agent's write). */
export function recordedWorld(root, n) {
  const ws = path.join(root, `ws${n}`);
  const store = path.join(root, `store${n}`);
  fs.mkdirSync(store, { recursive: true, mode: 0o700 });
  const lines = [];
  for (let i = 0; i < n; i++) {
    const dir = path.join(ws, `d${i % 100}`);
    fs.mkdirSync(dir, { recursive: true });
    const p = path.join(dir, `f${i}.ts`);
    const data = `export const v${i} = ${i};\n`.repeat(1 + (i % 40));
    fs.writeFileSync(p, data);
    const st = fs.statSync(p);
    const hash = createHash('sha256').update(data).digest('hex');
    lines.push(
      JSON.stringify({
        t: 'snap',
        path: p,
        hash,
        size: st.size,
        mtime: st.mtimeMs,
        mode: st.mode & 0o7777,
        phase: 'after',
        origin: 'agent',
        session: 'bench',
        time: Date.now(),
      }),
    );
  }
  fs.writeFileSync(path.join(store, 'store.json'), JSON.stringify({ format: 1, created: Date.now(), roots: [ws] }));
  fs.writeFileSync(path.join(store, 'files.jsonl'), lines.join('\n') + '\n');
  return { ws, store };
}

function prompt(store, cwd, i) {
  return timeSpawn(process.execPath, [CLI, 'hook', 'claude'], {
    input: JSON.stringify({ session_id: 'bench', cwd, hook_event_name: 'UserPromptSubmit', prompt: `prompt ${i}` }),
    env: { ...process.env, AGENT_REWIND_STORE: store },
  });
}

export function runObserveBench() {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first.');
  const root = tmp('ar-bench-observe-');
  const out = [];
  try {
    const empty = { ws: path.join(root, 'ws0'), store: path.join(root, 'store0') };
    fs.mkdirSync(empty.ws, { recursive: true });
    const w1k = recordedWorld(root, 1000);
    const w10k = recordedWorld(root, 10000);
    const r = rounds(
      {
        empty: (i) => prompt(empty.store, empty.ws, i),
        k1: (i) => prompt(w1k.store, w1k.ws, i),
        k10: (i) => prompt(w10k.store, w10k.ws, i),
      },
      N,
    );
    out.push({ name: 'prompt hook, nothing recorded', ms: r.medians.empty, vs: 'the floor: a prompt hook that looks at no file' });
    for (const [k, label] of [
      ['k1', '1,000'],
      ['k10', '10,000'],
    ]) {
      const ratio = r.median((v) => v[k] / v.empty);
      out.push({
        name: `prompt hook, ${label} recorded paths unchanged`,
        ms: r.medians[k],
        vs: `${ratio.toFixed(2)}× (IQR ${iqrText(r.iqr((v) => v[k] / v.empty))}) the prompt hook with nothing recorded${k === 'k10' ? '; target ≤ 1.30×' : ''}`,
      });
    }
    // 1% of the files changed by the user between turns: hashed and recorded as observed.
    let changedMs = [];
    for (let i = 0; i < Math.max(5, Math.floor(N / 3)); i++) {
      for (let j = 0; j < 100; j++) fs.appendFileSync(path.join(w10k.ws, `d${j % 100}`, `f${j * 100 + (j % 100)}.ts`), `// user ${i}\n`);
      changedMs.push(prompt(w10k.store, w10k.ws, 1000 + i));
    }
    changedMs = changedMs.sort((a, b) => a - b);
    const med = changedMs[changedMs.length >> 1];
    out.push({
      name: 'prompt hook, 10,000 recorded, 100 changed',
      ms: med,
      vs: `${(med / r.medians.empty).toFixed(2)}× the floor (${fmt(r.medians.empty)}); 100 observed snapshots per prompt`,
    });
    return { title: 'Boundary observation (command: echo <UserPromptSubmit payload> | node dist/cli.js hook claude)', rows: out };
  } finally {
    rm(root);
  }
}
