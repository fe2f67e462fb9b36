// The hook's bundle is loaded with V8's code cache (src/cli/codeCache.ts), checked by us before V8
// sees it: made on the first run, used after, made again when the bundle changed or the cache is
// damaged — never handed to V8 damaged (a release V8 does not verify it: it would crash the hook).
// Through copies of the real dist/cli.js and dist/hook.js, each run a new process, as agents run it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cacheFileOf, requireCached } from '../../src/cli/codeCache';
import { tempDir } from '../helpers/tmp';

const root = tempDir('ar-codecache-');
const DIST = path.resolve(__dirname, '../../dist');

/** A copy of the built CLI and hook bundle, and a store a hook can record into. */
function install(): { dir: string; cache: string; run(): { status: number | null; signal: string | null; out: string } } {
  assert.ok(fs.existsSync(path.join(DIST, 'hook.js')), 'dist/hook.js is missing: run `npm run build` first');
  const dir = fs.mkdtempSync(path.join(root, 'cli-'));
  for (const f of ['cli.js', 'hook.js']) fs.copyFileSync(path.join(DIST, f), path.join(dir, f));
  const ws = fs.mkdirSync(path.join(dir, 'ws'), { recursive: true })!;
  const store = path.join(dir, 'store');
  fs.mkdirSync(store);
  fs.writeFileSync(path.join(store, 'store.json'), JSON.stringify({ format: 1, created: 1, roots: [ws] }));
  const payload = {
    session_id: 's',
    cwd: ws,
    hook_event_name: 'PreToolUse',
    tool_name: 'Read',
    tool_input: { file_path: path.join(ws, 'a') },
    tool_use_id: 't1',
  };
  return {
    dir,
    cache: cacheFileOf(path.join(dir, 'hook.js')),
    run() {
      const r = spawnSync(process.execPath, [path.join(dir, 'cli.js'), 'hook', 'claude'], {
        input: JSON.stringify(payload),
        env: { ...process.env, AGENT_REWIND_STORE: store },
        encoding: 'utf8',
      });
      return { status: r.status, signal: r.signal, out: r.stdout + r.stderr };
    },
  };
}

const silentSuccess = { status: 0, signal: null, out: '' };

/** The cache file is whole: its header's SHA-256 is that of the bytes after it. */
function intact(file: string): boolean {
  const raw = fs.readFileSync(file);
  const nl = raw.indexOf(0x0a);
  return (
    nl > 0 &&
    raw.toString('latin1', 0, nl).split('|')[2] ===
      createHash('sha256')
        .update(raw.subarray(nl + 1))
        .digest('hex')
  );
}

test('the first hook makes the cache (owner-only, with our header); the next hooks use it as it is', () => {
  const cli = install();
  assert.deepEqual(cli.run(), silentSuccess);
  const made = fs.statSync(cli.cache);
  assert.ok(intact(cli.cache));
  assert.equal(made.mode & 0o777, 0o600);
  assert.match(fs.readFileSync(cli.cache).toString('latin1', 0, 200), /^agent-rewind code cache 1\|\d+ [\d.]+ \d+\|[0-9a-f]{64}\n/);
  assert.deepEqual(cli.run(), silentSuccess);
  assert.equal(fs.statSync(cli.cache).ino, made.ino, 'accepted: not made again');
  assert.deepEqual(
    fs.readdirSync(cli.dir).filter((n) => n.endsWith('.tmp')),
    [],
  );
});

test('a damaged cache never reaches V8: the hook runs, silent, and the cache is made again', () => {
  const cli = install();
  cli.run();
  const whole = fs.readFileSync(cli.cache);
  // Bytes flipped in the middle of V8's data, the header intact: handed to V8, this crashes the process.
  const damaged = Buffer.from(whole);
  damaged.fill(7, 400, 6000);
  fs.writeFileSync(cli.cache, damaged);
  assert.deepEqual(cli.run(), silentSuccess);
  assert.ok(intact(cli.cache), 'made again, whole');
  // Torn (half written), and empty.
  for (const bad of [whole.subarray(0, whole.length >> 1), Buffer.alloc(0)]) {
    fs.writeFileSync(cli.cache, bad);
    assert.deepEqual(cli.run(), silentSuccess);
    assert.ok(intact(cli.cache), 'made again, whole');
  }
});

test('an updated bundle of the same length gets a cache of its own (V8 knows a source only by its length)', () => {
  const cli = install();
  cli.run();
  const before = fs.readFileSync(cli.cache);
  const hook = path.join(cli.dir, 'hook.js');
  const text = fs.readFileSync(hook, 'utf8');
  // The same length, other code: a constant of the bundle changed.
  const i = text.indexOf('5e3');
  assert.ok(i > 0, 'the bundle has a constant to change');
  fs.writeFileSync(hook + '.new', text.slice(0, i) + '6e3' + text.slice(i + 3));
  fs.renameSync(hook + '.new', hook);
  assert.deepEqual(cli.run(), silentSuccess);
  assert.notDeepEqual(fs.readFileSync(cli.cache), before, 'made again for the new bundle');
});

test('a cache that cannot be written: the hook runs all the same, nothing is left behind', () => {
  const cli = install();
  fs.mkdirSync(cli.cache); // a directory where the cache would go: reading it and renaming over it fail
  assert.deepEqual(cli.run(), silentSuccess);
  assert.deepEqual(cli.run(), silentSuccess);
  assert.deepEqual(
    fs.readdirSync(cli.dir).filter((n) => n.endsWith('.tmp')),
    [],
  );
});

test('in process: the exports are those of require(), and an error while the bundle runs is thrown as require() throws it', () => {
  const dir = fs.mkdtempSync(path.join(root, 'b-'));
  const ok = path.join(dir, 'ok.js');
  fs.writeFileSync(ok, 'module.exports = { answer: 42, dir: __dirname, file: __filename, eol: require("node:os").EOL };\n');
  assert.deepEqual(requireCached(ok), { answer: 42, dir, file: ok, eol: '\n' });
  const bad = path.join(dir, 'bad.js');
  fs.writeFileSync(bad, 'throw new Error("broken bundle");\n');
  assert.throws(() => requireCached(bad), /broken bundle/);
});
