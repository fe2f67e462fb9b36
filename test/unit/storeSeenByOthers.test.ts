// A store object lives as long as a VS Code window (or the resident), while hooks — other processes — write
// store.json and config.json. What it says of them is what the files hold now, and what it writes back keeps
// what the others wrote (core/store.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Store } from '../../src/core/store';
import { STORE_FILE } from '../../src/core/storeFiles/names';
import { tempDir } from '../helpers/tmp';

const rootsIn = (dir: string): string[] =>
  (JSON.parse(fs.readFileSync(path.join(dir, STORE_FILE.meta), 'utf8')) as { roots: string[] }).roots;

describe('a long-lived store object and the other processes writing the store', () => {
  it('opened before the first hook made the store, it sees the roots that hook wrote (a rewind there is not "nothing")', () => {
    const dir = path.join(tempDir(), 'store');
    const ws = tempDir();
    const window = Store.open(dir, { notYet: true }); // VS Code opens the store before anything is recorded
    assert.deepEqual(window.knownRoots(), []);
    Store.open(dir, { create: true }).addRoots([ws]); // the first hook, another process in life
    assert.deepEqual(window.knownRoots(), [ws]);
  });

  it('a root the window adds keeps the roots hooks added since it last read store.json', () => {
    const dir = path.join(tempDir(), 'store');
    const [a, b, c] = [tempDir(), tempDir(), tempDir()];
    const window = Store.open(dir, { create: true });
    window.addRoots([a]);
    assert.deepEqual(window.knownRoots(), [a]);
    Store.open(dir).addRoots([b]); // a hook in another folder
    window.addRoots([c]); // a folder added to the window
    assert.deepEqual(rootsIn(dir).sort(), [a, b, c].sort());
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, STORE_FILE.meta), 'utf8')).createdBy, 'agent-rewind');
  });

  it('hooks adding roots at once, in separate processes, lose none of them', () => {
    const dir = path.join(tempDir(), 'store');
    Store.open(dir, { create: true });
    const roots = Array.from({ length: 6 }, () => tempDir());
    const storeModule = path.resolve(__dirname, '../../src/core/store.ts');
    const script = `const { Store } = require(${JSON.stringify(storeModule)}); const s = Store.open(process.argv[1]);
      const until = Number(process.argv[3]); while (Date.now() < until) {} s.addRoots([process.argv[2]]);`;
    const start = Date.now() + 1500; // each process busy-waits to the same moment, then reads and writes store.json
    const runs = roots.map((r) =>
      spawnSync(process.execPath, ['--import', 'tsx', '-e', script, dir, r, String(start)], {
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 30000,
      }),
    );
    for (const r of runs) assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(rootsIn(dir).sort(), [...roots].sort());
  });

  it('config.json written by another process (the extension writing settings) is what config() says', () => {
    const dir = path.join(tempDir(), 'store');
    const hook = Store.open(dir, { create: true });
    const before = hook.config().maxFileBytes;
    fs.writeFileSync(path.join(dir, STORE_FILE.config), JSON.stringify({ maxFileBytes: before + 12345 }));
    assert.equal(hook.config().maxFileBytes, before + 12345);
  });
});
