// The boundary observation's cache of "the latest record of every path" (core/timeline/latestSnaps.ts):
// whatever the cache holds, the answer equals a full read of the log — after appends, a torn last
// line, a damaged or foreign cache file, and a log rewritten by gc.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { readLog } from '../../src/core/storeFiles/fileLog';
import { type LatestState, latestSnaps } from '../../src/core/timeline/latestSnaps';
import type { SnapRecord } from '../../src/core/storeFiles/records';
import { STORE_FILE } from '../../src/core/storeFiles/names';

let dir: string;
let log: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-latest-'));
  log = path.join(dir, 'files.jsonl');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const hex = (n: number) => n.toString(16).padStart(64, '0');

function snap(i: number, v: number, extra: Partial<SnapRecord> = {}): SnapRecord {
  return {
    t: 'snap',
    path: `/w/d${i % 7}/f${i}.ts`,
    hash: hex(v),
    size: v,
    mtime: 1000 + v,
    mode: 0o644,
    phase: 'after',
    time: 1,
    ...extra,
  };
}

const append = (recs: unknown[]) => fs.appendFileSync(log, recs.map((r) => JSON.stringify(r) + '\n').join(''));

/** What a full read says, in the shape the cache returns. */
function truth(): Map<string, LatestState> {
  const out = new Map<string, LatestState>();
  for (const r of readLog(log).records) {
    if (r.t !== 'snap') continue;
    const s: LatestState = { path: r.path, hash: r.hash };
    if (r.size !== undefined) s.size = r.size;
    if (r.mtime !== undefined) s.mtime = r.mtime;
    if (r.mode !== undefined) s.mode = r.mode;
    if (r.link) s.link = true;
    if (r.skipped) s.skipped = r.skipped;
    out.set(r.path, s);
  }
  return out;
}

function answer(): Map<string, LatestState> {
  const out = new Map<string, LatestState>();
  let visits = 0;
  latestSnaps(dir, log).forEach((p, state) => {
    visits++;
    const s = state();
    const clean: LatestState = { path: s.path, hash: s.hash };
    for (const k of ['size', 'mtime', 'mode', 'link', 'skipped'] as const)
      if (s[k] !== undefined) (clean as Record<string, unknown>)[k] = s[k];
    out.set(p, clean);
  });
  assert.equal(visits, out.size, 'each path is visited once (a later record shadows the cached one)');
  return out;
}

describe('latest record of every path (cached)', () => {
  it('equals a full read of the log through random appends, symlinks, missing and skipped files, and cache rewrites', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let step = 0; step < 60; step++) {
      const recs: unknown[] = [];
      for (let k = 0; k < 1 + rnd(40); k++) {
        const i = rnd(300);
        const kind = rnd(10);
        if (kind === 0) recs.push({ ...snap(i, 0), hash: null, size: undefined, mtime: undefined, mode: undefined });
        else if (kind === 1) recs.push(snap(i, rnd(1e6), { link: true, mode: undefined }));
        else if (kind === 2) recs.push({ ...snap(i, 0), hash: null, skipped: 'too-large' });
        else if (kind === 3) recs.push({ t: 'checkpoint', id: `c${step}-${k}`, kind: 'prompt', time: 1 });
        else recs.push(snap(i, 1 + rnd(1e6)));
      }
      append(recs);
      if (step % 9 === 4) fs.appendFileSync(log, '{"t":"snap","path":"/w/torn'); // a killed writer's half line
      if (step % 9 === 5) fs.appendFileSync(log, '\n'); // …that the next append would have ended
      assert.deepEqual(answer(), truth(), `step ${step}`);
    }
    assert.ok(fs.existsSync(path.join(dir, STORE_FILE.latest)), 'the cache was written');
  });

  it('reads only the tail when the cache is good, and the tail shadows the cached entries', () => {
    append([snap(1, 1), snap(2, 2)]);
    latestSnaps(dir, log); // writes the cache
    const cached = JSON.parse(fs.readFileSync(path.join(dir, STORE_FILE.latest), 'utf8')) as { size: number };
    assert.equal(cached.size, fs.statSync(log).size);
    append([snap(1, 9)]);
    const m = answer();
    assert.equal(m.get(snap(1, 0).path)!.hash, hex(9));
    assert.equal(m.get(snap(2, 0).path)!.hash, hex(2));
  });

  it('ignores a damaged, foreign or stale cache and answers from the log', () => {
    append([snap(1, 1), snap(2, 2)]);
    const cacheFile = path.join(dir, STORE_FILE.latest);
    for (const bad of [
      '{"v":2,"ino":',
      '[]',
      'null',
      JSON.stringify({ v: 2, ino: 1, size: 0, mark: 'x', paths: '', hashes: '', sizes: [], mtimes: [], modes: [], flags: '' }),
    ]) {
      fs.writeFileSync(cacheFile, bad);
      assert.deepEqual(answer(), truth(), bad);
    }
    // A cache whose columns disagree in length (hand-edited, or a bug): not used.
    latestSnaps(dir, log);
    const c = JSON.parse(fs.readFileSync(cacheFile, 'utf8'));
    c.hashes = c.hashes.slice(64);
    fs.writeFileSync(cacheFile, JSON.stringify(c));
    assert.deepEqual(answer(), truth());
  });

  it('a log rewritten (gc: a new file renamed over it, or the same file rewritten) is read whole', () => {
    append([snap(1, 1), snap(2, 2), snap(3, 3)]);
    latestSnaps(dir, log);
    const tmp = `${log}.gc.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(snap(3, 30)) + '\n');
    fs.renameSync(tmp, log);
    assert.deepEqual(answer(), truth());
    assert.equal(answer().size, 1);
    // Same inode, same length, other bytes before the cached length: the mark tells.
    latestSnaps(dir, log);
    fs.writeFileSync(log, JSON.stringify(snap(3, 31)) + '\n');
    assert.deepEqual(answer(), truth());
    assert.equal(answer().get(snap(3, 0).path)!.hash, hex(31));
  });

  it('no log: nothing recorded, and no cache written', () => {
    assert.equal(latestSnaps(dir, log).size, 0);
    assert.equal(fs.existsSync(path.join(dir, STORE_FILE.latest)), false);
  });
});
