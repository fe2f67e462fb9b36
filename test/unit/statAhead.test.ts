// The boundary observation with its stats taken ahead (recording/observe.ts statAhead): it observes
// exactly what the one-at-a-time observation observes — content, existence, executable bit, symlink
// target — and a log that moved between the two (another hook's record) is read again.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { SnapRecord } from '../../src/core/records';
import { Store } from '../../src/core/store';
import { observeBoundary, statAhead } from '../../src/recording/observe';

let root: string;
let ws: string;
let store: Store;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-statahead-'));
  ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  store = Store.open(path.join(root, 'store'), { create: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const e = { agent: 'claude', session: 's1' };
const seen = (snaps: SnapRecord[]) =>
  snaps
    .map(
      (s) =>
        `${path.relative(ws, s.path)} ${s.hash === null ? 'missing' : s.hash.slice(0, 8)} ${s.link ? 'link' : (s.mode ?? 0) & 0o111 ? 'x' : '-'}`,
    )
    .sort();

/** `n` files (and a symlink) recorded as an agent wrote them. */
function recorded(n: number): string[] {
  const paths = Array.from({ length: n }, (_, i) => path.join(ws, `d${i % 7}`, `f${i}.ts`));
  for (const p of paths) {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, `export const v = ${p.length};\n`);
  }
  fs.symlinkSync('d0/f0.ts', path.join(ws, 'link'));
  const snaps = [...paths, path.join(ws, 'link')].map((p) => store.snapshot(p, 'after', { origin: 'agent', session: 's1' })!);
  store.append(snaps);
  return paths;
}

describe('statAhead', () => {
  it('observes the same as one lstat at a time: content, existence, executable bit, symlink target', async () => {
    const paths = recorded(120);
    fs.appendFileSync(paths[3]!, '// the user\n');
    fs.rmSync(paths[10]!);
    fs.chmodSync(paths[20]!, 0o755);
    fs.rmSync(path.join(ws, 'link'));
    fs.symlinkSync('d1/f1.ts', path.join(ws, 'link'));
    const one = seen(observeBoundary(store, e));
    assert.equal(one.length, 4, one.join('\n'));
    await statAhead(store);
    assert.deepEqual(seen(observeBoundary(store, e)), one);
    await statAhead(store, 1);
    assert.deepEqual(seen(observeBoundary(store, e)), one);
  });

  it('a record appended after the stats were taken is the one compared (the table is read again)', async () => {
    const paths = recorded(30);
    fs.appendFileSync(paths[5]!, '// an agent call that finished meanwhile\n');
    await statAhead(store);
    // Another hook records that write between the stats and the observation.
    store.append([store.snapshot(paths[5]!, 'after', { origin: 'agent', session: 's2' })!]);
    assert.deepEqual(seen(observeBoundary(store, e)), []);
  });
});
