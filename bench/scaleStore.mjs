// A generated store of a heavy user's month: `checkpoints` prompt checkpoints in sessions of 100
// prompts, each followed by three recorded edits (a call line, a `before` and an `after` snapshot),
// over a workspace of `files` files whose content (and blobs) are real, so plan, verify and rewind
// work on it. About 11 lines and 2.7 KB of log per checkpoint (10,000 checkpoints: 110,000 lines).
// With `rewindEvery`: every that many checkpoints a rewind two checkpoints back, as a rewind records
// it, so the work after it is a new attempt. Used by bench/timelineScale.mjs and the CLI tests.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rng } from './lib.mjs';

function putBlob(storeDir, text) {
  const hash = createHash('sha256').update(text).digest('hex');
  const file = path.join(storeDir, 'objects', hash.slice(0, 2), hash.slice(2));
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, text, { mode: 0o600 });
  }
  return hash;
}

/**
 * Builds the store in `storeDir` for the workspace `wsDir` (both created). Returns the checkpoint
 * ids (oldest first) and the log size. Deterministic for a given seed.
 */
export function buildScaleStore(storeDir, wsDir, opts = {}) {
  const checkpoints = opts.checkpoints ?? 10000;
  const files = opts.files ?? 200;
  const r = rng(opts.seed ?? 7);
  fs.mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(wsDir, { recursive: true });
  const ws = fs.realpathSync(wsDir);
  // `start`: a store whose checkpoints are recent, so a clean-up by retention days keeps them (a window's daily clean-up).
  const t0 = opts.start ?? Date.UTC(2026, 0, 1);
  fs.writeFileSync(path.join(storeDir, 'store.json'), JSON.stringify({ format: 1, created: t0, roots: [ws], createdBy: 'bench' }));
  const paths = Array.from({ length: files }, (_, i) => path.join(ws, `src/m${i % 10}/file${i}.ts`));
  const version = new Array(files).fill(0);
  const contentOf = (i, v) => {
    let text = `// file ${i}\n`;
    for (let l = 0; l < 20; l++) text += `export const v${l} = ${(i * 31 + l * 7 + v * 13) % 1000};\n`;
    return text;
  };
  const lines = [];
  const ids = [];
  // With `rewindEvery`: the versions each recent checkpoint saw, for the rewinds to go back to.
  const seen = [];
  let time = t0;
  let session = '';
  for (let c = 0; c < checkpoints; c++) {
    time += 60_000;
    if (c % 100 === 0)
      session = `sess-${String(c / 100).padStart(4, '0')}-${createHash('sha1').update(String(c)).digest('hex').slice(0, 8)}`;
    const id = `cp${String(c).padStart(6, '0')}${createHash('sha1').update(`cp${c}`).digest('hex').slice(0, 10)}`;
    ids.push(id);
    seen.push(version.slice());
    if (seen.length > 3) seen.shift();
    const kind = c % 100 === 0 ? 'session-start' : 'prompt';
    const label =
      kind === 'session-start'
        ? 'Session started'
        : `Prompt ${c}: refactor module m${c % 10} and update its tests (${Math.floor(r() * 1e6)})`;
    lines.push({
      t: 'checkpoint',
      id,
      time,
      kind,
      label,
      session,
      agent: 'claude',
      cwd: ws,
      ...(kind === 'prompt' ? { promptId: `p-${c}` } : {}),
      transcript: path.join(ws, '.transcripts', `${session}.jsonl`),
    });
    for (let e = 0; e < 3; e++) {
      const i = Math.floor(r() * files);
      const p = paths[i];
      const call = `toolu_${c}_${e}`;
      time += 1000;
      lines.push({
        t: 'call',
        tool: 'Edit',
        call,
        summary: `Edit ${path.basename(p)}`,
        effect: 'rewindable',
        session,
        agent: 'claude',
        input: { file_path: p, old_string: `v${e} = ${version[i]}`, new_string: `v${e} = ${version[i] + 1}` },
        time,
      });
      const before = contentOf(i, version[i]);
      const hb = putBlob(storeDir, before);
      lines.push({
        t: 'snap',
        path: p,
        hash: hb,
        size: before.length,
        mtime: time,
        mode: 0o644,
        phase: 'before',
        session,
        tool: 'Edit',
        call,
        time,
      });
      version[i]++;
      const after = contentOf(i, version[i]);
      const ha = putBlob(storeDir, after);
      lines.push({
        t: 'snap',
        path: p,
        hash: ha,
        size: after.length,
        mtime: time + 1,
        mode: 0o644,
        phase: 'after',
        origin: 'agent',
        session,
        tool: 'Edit',
        call,
        time: time + 1,
      });
    }
    if (opts.rewindEvery && c % opts.rewindEvery === opts.rewindEvery - 1 && c >= 2) rewindTo(c - 2, seen[0]);
  }
  /**
   * A rewind to checkpoint `c` (whose versions were `to`) as a rewind records it: the content it
   * overwrites (`pre-rewind`), its checkpoint, what it wrote (`rewind`). The work after it is a new attempt.
   */
  function rewindTo(c, to) {
    time += 1000;
    const rid = `rw${String(c).padStart(6, '0')}${createHash('sha1').update(`rw${c}`).digest('hex').slice(0, 10)}`;
    const changed = [];
    for (let i = 0; i < files; i++) if (version[i] !== to[i]) changed.push(i);
    const snap = (i, phase, t, more = {}) => {
      const text = contentOf(i, version[i]);
      return {
        t: 'snap',
        path: paths[i],
        hash: putBlob(storeDir, text),
        size: text.length,
        mtime: t,
        mode: 0o644,
        phase,
        ...more,
        time: t,
      };
    };
    for (const i of changed) lines.push(snap(i, 'pre-rewind', time));
    lines.push({ t: 'checkpoint', id: rid, time, kind: 'rewind', label: `Rewind to: Prompt ${c}`, target: ids[c] });
    for (const i of changed) {
      version[i] = to[i];
      lines.push(snap(i, 'rewind', time + 1, { by: rid }));
    }
  }
  // The workspace holds the latest content, as if the agent had just finished.
  for (let i = 0; i < files; i++) {
    fs.mkdirSync(path.dirname(paths[i]), { recursive: true });
    fs.writeFileSync(paths[i], contentOf(i, version[i]));
  }
  const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  fs.writeFileSync(path.join(storeDir, 'files.jsonl'), text, { mode: 0o600 });
  return { ids, ws, logBytes: Buffer.byteLength(text), lines: lines.length };
}
