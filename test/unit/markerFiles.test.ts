// The store's marker folders (src/core/storeFiles/markerFiles.ts: dedupe, pending, inflight, resident-pending):
// a claim made by creating a marker or by removing one goes to exactly one of several processes racing for
// it, even when its folder is not there yet; the sweep removes old markers only; and a look over src/
// that no second exclusive-create claim has grown beside the helper.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { announceWriter } from '../../src/core/storeFiles/lock';
import { claimMarker, putMarker, sweepMarkers, takeMarker } from '../../src/core/storeFiles/markerFiles';
import { tempDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const root = path.resolve(__dirname, '..', '..');
const helper = path.join(root, 'src', 'core', 'storeFiles', 'markerFiles');

/** Runs `n` processes that, released together, each claim `claims/x` (a folder not made yet) and take `taken`. */
async function race(dir: string, n: number): Promise<{ claimed: boolean; took: boolean }[]> {
  const child = path.join(dir, 'claimer.ts');
  fs.writeFileSync(
    child,
    `import * as fs from 'node:fs';
import { claimMarker, takeMarker } from ${JSON.stringify(helper)};
const [dir, me] = process.argv.slice(2) as [string, string];
fs.writeFileSync(dir + '/ready-' + me, '');
while (!fs.existsSync(dir + '/go')); // every claimer starts at once
const claimed = claimMarker(dir + '/claims/x');
const took = takeMarker(dir + '/taken');
process.stdout.write(JSON.stringify({ claimed, took }));
`,
  );
  fs.writeFileSync(path.join(dir, 'taken'), '');
  const runs = Array.from({ length: n }, (_, i) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, dir, String(i)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    return new Promise<{ claimed: boolean; took: boolean }>((resolve, reject) =>
      p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`claimer ${i} exited ${code}`)))),
    );
  });
  await waitUntil(() => fs.readdirSync(dir).filter((f) => f.startsWith('ready-')).length === n, 'every claimer to be ready');
  fs.writeFileSync(path.join(dir, 'go'), '');
  return Promise.all(runs);
}

test('processes racing for one marker: exactly one creates it and exactly one removes it, the folder made on the way', async () => {
  const results = await race(tempDir(), 4);
  assert.deepEqual([results.filter((r) => r.claimed).length, results.filter((r) => r.took).length], [1, 1], JSON.stringify(results));
});

test('a claim made once is refused after; the folder it makes is private, the marker owner-only', () => {
  const dir = tempDir();
  const file = path.join(dir, 'dedupe', 'k');
  assert.deepEqual([claimMarker(file), claimMarker(file)], [true, false]);
  assert.deepEqual([fs.statSync(path.dirname(file)).mode & 0o777, fs.statSync(file).mode & 0o777], [0o700, 0o600]);
  putMarker(path.join(dir, 'inflight', 's', 'c.json'), '{"a":1}');
  assert.equal(fs.readFileSync(path.join(dir, 'inflight', 's', 'c.json'), 'utf8'), '{"a":1}');
  assert.deepEqual([takeMarker(file), takeMarker(file)], [true, false]);
});

test('the sweep removes markers at least as old as asked and keeps younger ones; a missing folder is no error', () => {
  const dir = path.join(tempDir(), 'resident-pending');
  for (const n of ['old', 'young']) putMarker(path.join(dir, n));
  const now = Date.now();
  const minuteAgo = new Date(now - 60000);
  fs.utimesSync(path.join(dir, 'old'), minuteAgo, minuteAgo);
  sweepMarkers(dir, 60000, now);
  assert.deepEqual(fs.readdirSync(dir), ['young']);
  sweepMarkers(path.join(dir, 'none'), 1);
});

test("a writer's announcement left by a killed hook whose pid came back is written over, not a reason to record nothing", () => {
  const store = tempDir();
  fs.mkdirSync(path.join(store, 'writers'));
  // This process's pid under every number it may announce with next (each announcement takes the next one).
  for (let n = 0; n < 100; n++) fs.writeFileSync(path.join(store, 'writers', `${process.pid}.${n}`), '');
  const done = announceWriter(store);
  done();
  assert.equal(fs.readdirSync(path.join(store, 'writers')).length, 99, 'its own announcement withdrawn');
});

/** Every .ts file under `d`. */
function sources(d: string): string[] {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

test('src/ claims a marker by exclusive create only through markerFiles.ts; the other exclusive creates make no marker', () => {
  // Files created exclusively for their content (a fork's copy, a blob, a temp file, a lock with its holder in it)
  // and the resident's start mark, which a stale one is written over.
  const allowed = new Map([
    ['src/core/storeFiles/markerFiles.ts', 1],
    ['src/core/storeFiles/fsx.ts', 1],
    ['src/core/storeFiles/blobs.ts', 1],
    ['src/core/storeFiles/lock.ts', 1],
    ['src/core/conversation/sessionLogFork.ts', 1],
    ['src/agents/claude/forkTranscript.ts', 1],
    ['src/agents/codex/forkRollout.ts', 1],
    ['src/agents/gemini/forkChat.ts', 1],
    ['src/agents/common/lines.ts', 1],
    ['src/agents/qwen/forkChat.ts', 1],
    ['src/agents/opencode/forkExport.ts', 1],
    ['src/resident/forward.ts', 1],
  ]);
  const found: string[] = [];
  for (const f of sources(path.join(root, 'src'))) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    const n = (fs.readFileSync(f, 'utf8').match(/'wx'/g) ?? []).length;
    if (n > (allowed.get(rel) ?? 0)) found.push(`${rel}: ${n}`);
  }
  assert.deepEqual(found, [], 'claim a marker with claimMarker (src/core/storeFiles/markerFiles.ts)');
});
