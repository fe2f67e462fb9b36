// Shared bench helpers: seeded workspaces, process timing, medians and ratios.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Deterministic pseudo-random numbers (mulberry32), so every run builds the same tree. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A source-tree-like workspace of `files` files (~200 B–4 KB each) in nested folders. */
export function makeWorkspace(dir, files, seed = 42) {
  const r = rng(seed);
  fs.mkdirSync(dir, { recursive: true });
  const words = ['const', 'let', 'function', 'return', 'import', 'export', 'value', 'item', 'map', 'await', 'async', 'class'];
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const depth = 1 + Math.floor(r() * 4);
    const parts = [];
    for (let d = 0; d < depth; d++) parts.push(`d${Math.floor(r() * 12)}`);
    const p = path.join(dir, ...parts, `f${i}.ts`);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    const lines = 5 + Math.floor(r() * 100);
    let text = '';
    for (let l = 0; l < lines; l++) text += `${words[Math.floor(r() * words.length)]} x${l} = ${Math.floor(r() * 1e6)};\n`;
    fs.writeFileSync(p, text);
    bytes += text.length;
  }
  return { dir, files, bytes };
}

/**
 * A workspace shaped like a real project of `files` files: a source tree of about 10 files per
 * folder (3 levels), a `node_modules`-like folder (30% of the files: packages of ~10 files, which
 * capture never enters), and a flat `generated/` folder holding 20% of the files (thousands at
 * 10k+). Returns the paths (relative) a Bash call may change: source files first, then generated ones.
 */
export function makeRealisticWorkspace(dir, files, seed = 43) {
  const r = rng(seed);
  fs.mkdirSync(dir, { recursive: true });
  const nodeModules = Math.floor(files * 0.3);
  const generated = Math.floor(files * 0.2);
  const source = files - nodeModules - generated;
  const line = (l) => `export const x${l} = ${Math.floor(r() * 1e6)};\n`;
  const write = (rel, lines) => {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    let text = '';
    for (let l = 0; l < lines; l++) text += line(l);
    fs.writeFileSync(p, text);
  };
  const src = [];
  for (let i = 0; i < source; i++) {
    const folder = Math.floor(i / 10); // ~10 files per folder, folders nested 3 deep (10 × 10 × …)
    const rel = path.join('src', `a${folder % 10}`, `b${Math.floor(folder / 10) % 10}`, `c${Math.floor(folder / 100)}`, `f${i}.ts`);
    write(rel, 5 + Math.floor(r() * 100));
    src.push(rel);
  }
  for (let i = 0; i < nodeModules; i++)
    write(path.join('node_modules', `pkg${Math.floor(i / 10)}`, `m${i % 10}.js`), 5 + Math.floor(r() * 40));
  const gen = [];
  for (let i = 0; i < generated; i++) {
    const rel = path.join('generated', `g${i}.ts`);
    write(rel, 3 + Math.floor(r() * 20));
    gen.push(rel);
  }
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
  return { dir, files, changeable: [...src.slice(0, 50), ...gen.slice(0, 50), ...src.slice(50)] };
}

export function tmp(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Wall time of one synchronous spawn, in ms. */
export function timeSpawn(cmd, args, opts = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['pipe', 'ignore', 'pipe'], ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/**
 * One synchronous spawn of a node script (`args` are node's): its wall time and the CPU time its process
 * used (user + system, every thread: the garbage collector's and the compiler's too), in ms. On a machine
 * others share, wall time counts their work as well; CPU time counts the process's own. The CPU time is
 * what node's own accounting says at the process's `exit` (process.resourceUsage), written by a
 * preloaded file to a pipe of its own, so the measured command's output and exit code are untouched.
 */
export function timeNode(args, opts = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', cpuAtExit(), ...args], { stdio: ['pipe', 'ignore', 'pipe', 'pipe'], ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = Number(String(r.output[3]).trim());
  if (!Number.isFinite(cpu)) throw new Error(`node ${args.join(' ')} did not say its CPU time`);
  return { wall: ms, cpu };
}
// Resolved when first used, not at load: the integration tier bundles this file (through scaleStore.mjs) as CommonJS,
// where `import.meta` is empty and a URL made from it at load throws before any test runs.
const cpuAtExit = () => new URL('./cpuAtExit.cjs', import.meta.url).pathname;

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs `fn` `n` times (after `warm` warm-ups) and returns the median in ms. */
export function measure(fn, n, warm = 3) {
  for (let i = 0; i < warm; i++) fn(i);
  const xs = [];
  for (let i = 0; i < n; i++) xs.push(fn(i));
  return median(xs);
}

export function fmt(ms) {
  return `${ms.toFixed(1)} ms`;
}

export function rm(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The `q` quantile (0–1) of `xs`, interpolated. */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/**
 * Same-run comparison on a noisy machine: `n` rounds (after `warm` discarded ones), each running
 * every variant once, back to back, the order rotating from round to round. Per-round values let
 * a ratio or a difference be taken within a round (`median(fn)`, `iqr(fn)`), so a slow patch of
 * the machine moves both sides instead of one.
 */
export function rounds(variants, n, warm = 2) {
  const names = Object.keys(variants);
  const runRound = (i) => {
    const v = {};
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + i) % names.length];
      v[name] = variants[name](i);
    }
    return v;
  };
  for (let i = 0; i < warm; i++) runRound(i);
  const values = [];
  for (let i = 0; i < n; i++) values.push(runRound(warm + i));
  const of = (fn) => values.map(fn);
  return {
    values,
    medians: Object.fromEntries(names.map((k) => [k, median(values.map((v) => v[k]))])),
    median: (fn) => median(of(fn)),
    iqr: (fn) => [quantile(of(fn), 0.25), quantile(of(fn), 0.75)],
  };
}
