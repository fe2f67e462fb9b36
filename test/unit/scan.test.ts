// The workspace scan behind shell capture: ignore rules, the git-aware baseline, the stat cache,
// change detection. Real temp folders and real git repositories made by the tests.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { gitBlobId, readBlobs } from '../../src/core/git/objects';
import { repoInfo } from '../../src/core/git/repo';
import { rulesFor } from '../../src/core/scan/ignore';
import { baseline, finishPending, pendingCount } from '../../src/core/scan/baseline';
import { referencedBlobs } from '../../src/core/scan/references';
import { rescan } from '../../src/core/scan/rescan';
import { loadState, saveState, stateFile } from '../../src/core/scan/stateFile';
import { F_LARGE, F_PENDING, type ScanOptions } from '../../src/core/scan/types';
import { walk } from '../../src/core/scan/walker';
import { pastRacyWindow, waitUntilSync } from '../helpers/wait';
import { tempDir } from '../helpers/tmp';

/** The racy window of these scans: a stat newer than the scan's start minus this is re-checked. */
const RACY_MS = 20;

function write(root: string, rel: string, content: string | Buffer): void {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
}

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
}

function setup(opts: { git?: boolean } = {}) {
  const base = tempDir('ar-scan-');
  const ws = path.join(base, 'ws');
  const storeDir = path.join(base, 'store');
  fs.mkdirSync(ws);
  fs.mkdirSync(storeDir);
  if (opts.git) git(ws, 'init', '-q');
  const o: ScanOptions = {
    storeDir,
    storeContent: true,
    racyMs: RACY_MS,
    limits: { maxFiles: 1000, maxFileBytes: 1024 * 1024, excludes: [], skipAbs: [] },
  };
  return { ws, storeDir, o };
}

/** Waits until every stat under `root` is older than the racy window of these tests. */
function age(root: string): void {
  pastRacyWindow(root, RACY_MS);
}

function blobCount(storeDir: string): number {
  let n = 0;
  const dir = path.join(storeDir, 'objects');
  if (!fs.existsSync(dir)) return 0;
  for (const fan of fs.readdirSync(dir)) if (fan !== 'tmp') n += fs.readdirSync(path.join(dir, fan)).length;
  return n;
}

describe('ignore rules in the walk', () => {
  it('applies nested .gitignore files, negations, info/exclude and our excludes; never enters .git or node_modules', () => {
    const { ws, o } = setup({ git: true });
    write(ws, '.gitignore', '*.log\n!keep.log\ndist/\n');
    write(ws, 'app.log', 'x');
    write(ws, 'keep.log', 'x');
    write(ws, 'dist/out.js', 'x');
    write(ws, 'src/a.ts', 'x');
    write(ws, 'src/.gitignore', 'gen/\n!important.log\n*.tmp\n');
    write(ws, 'src/gen/g.ts', 'x');
    write(ws, 'src/important.log', 'x');
    write(ws, 'src/x.tmp', 'x');
    write(ws, 'node_modules/pkg/index.js', 'x');
    write(ws, 'secret/key.pem', 'x');
    write(ws, 'vendor/lib.js', 'x');
    fs.writeFileSync(path.join(ws, '.git', 'info', 'exclude'), 'secret/\n');
    const info = repoInfo(ws)!;
    const rules = rulesFor({ root: ws, repoTop: info.top, gitDir: info.gitDir, excludesFile: null, excludes: ['vendor/'] });
    const w = walk(ws, rules, o.limits, null);
    assert.deepEqual([...w.files.keys()].sort(), ['.gitignore', 'keep.log', 'src/.gitignore', 'src/a.ts', 'src/important.log']);
    assert.ok(!w.dirs.has('node_modules') && !w.dirs.has('.git') && !w.dirs.has('dist'));
  });
  it('uses the .gitignore files above a scan root inside a repository', () => {
    const { ws, o } = setup({ git: true });
    write(ws, '.gitignore', 'pkg/build/\n*.bak\n');
    write(ws, 'pkg/src/a.ts', 'x');
    write(ws, 'pkg/build/b.js', 'x');
    write(ws, 'pkg/c.bak', 'x');
    const info = repoInfo(path.join(ws, 'pkg'))!;
    const root = path.join(ws, 'pkg');
    const w = walk(root, rulesFor({ root, repoTop: info.top, gitDir: info.gitDir, excludes: [] }), o.limits, null);
    assert.deepEqual([...w.files.keys()], ['src/a.ts']);
  });
  it('skips the store folder when it lives in the workspace, and stops at the file-count limit', () => {
    const { ws, o } = setup();
    write(ws, '.agent-rewind/files.jsonl', 'x');
    for (let i = 0; i < 12; i++) write(ws, `f${i}.txt`, 'x');
    const w = walk(ws, rulesFor({ root: ws, excludes: [] }), { ...o.limits, skipAbs: [path.join(ws, '.agent-rewind')] }, null);
    assert.equal(w.files.size, 12);
    const limited = walk(ws, rulesFor({ root: ws, excludes: [] }), { ...o.limits, maxFiles: 10 }, null);
    assert.equal(limited.tooMany, true);
  });
});

describe('baseline', () => {
  it('in a git repository copies only dirty and untracked files; clean files keep their git blob id', () => {
    const { ws, storeDir, o } = setup({ git: true });
    for (let i = 0; i < 20; i++) write(ws, `src/f${i}.ts`, `export const v${i} = ${i};\n`);
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'init');
    write(ws, 'src/f3.ts', 'changed\n');
    write(ws, 'untracked.txt', 'new\n');
    const r = baseline(ws, 's1', { ...o, budgetMs: 10000 });
    assert.equal(r.files, 21);
    assert.equal(r.fromGit, 19);
    assert.equal(r.copied, 2);
    assert.equal(blobCount(storeDir), 2);
    const clean = r.state.files.get('src/f0.ts')!;
    assert.equal(clean.hash, null);
    assert.equal(clean.git, gitBlobId(fs.readFileSync(path.join(ws, 'src/f0.ts'))));
    assert.ok(r.state.files.get('src/f3.ts')!.hash, 'the dirty file is in our store');
    // The blob git gives back for a clean file is its content.
    const got = readBlobs(ws, [{ id: clean.git!, path: 'src/f0.ts' }], false).get(`${clean.git}\0src/f0.ts`);
    assert.equal(got?.toString(), 'export const v0 = 0;\n');
  });
  it('in a plain folder copies every file under the size limit; larger ones are tracked by stat only', () => {
    const { ws, storeDir, o } = setup();
    write(ws, 'a.txt', 'a');
    write(ws, 'b/c.txt', 'c');
    write(ws, 'big.bin', Buffer.alloc(2048, 1));
    const r = baseline(ws, 's1', { ...o, limits: { ...o.limits, maxFileBytes: 1024 }, budgetMs: 10000 });
    assert.equal(r.state.git, null);
    assert.equal(r.copied, 2);
    assert.equal(blobCount(storeDir), 2);
    assert.ok(r.state.files.get('big.bin')!.flags & F_LARGE);
  });
  it('leaves copies for later when the time budget runs out, and finishes them before a command', () => {
    const { ws, o } = setup();
    for (let i = 0; i < 5; i++) write(ws, `f${i}.txt`, String(i));
    const r = baseline(ws, 's1', { ...o, budgetMs: -1 });
    assert.equal(r.pending, 5);
    write(ws, 'f0.txt', 'edited by the user meanwhile');
    assert.equal(finishPending(r.state, o), 5);
    assert.equal(pendingCount(r.state), 0);
    const res = rescan(r.state, o);
    assert.deepEqual(res.changes, [], 'finishing the copies is not a change');
    assert.ok(!(r.state.files.get('f0.txt')!.flags & F_PENDING));
  });
  it('reuses a previous state as a stat cache', () => {
    const { ws, o } = setup();
    for (let i = 0; i < 5; i++) write(ws, `f${i}.txt`, String(i));
    age(ws);
    const first = baseline(ws, 's1', { ...o, budgetMs: 10000 });
    const second = baseline(ws, 's2', { ...o, budgetMs: 10000, reuse: first.state });
    assert.equal(second.reused, 5);
    assert.equal(second.copied, 0);
  });
  it('reports too many files', () => {
    const { ws, o } = setup();
    for (let i = 0; i < 5; i++) write(ws, `f${i}.txt`, 'x');
    const r = baseline(ws, 's1', { ...o, limits: { ...o.limits, maxFiles: 3 }, budgetMs: 1000 });
    assert.deepEqual(r.tooMany, { count: 4 });
  });
});

describe('rescan', () => {
  it('reads only files whose stat changed, and finds modified, created, deleted and moved files', () => {
    const { ws, o } = setup({ git: true });
    write(ws, 'keep.txt', 'k');
    write(ws, 'mod.txt', 'm1');
    write(ws, 'del.txt', 'd');
    write(ws, 'mv-src.txt', 'moved');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'init');
    age(ws);
    const { state } = baseline(ws, 's', { ...o, budgetMs: 10000 });
    const idle = rescan(state, o);
    assert.equal(idle.read, 0, 'nothing changed: nothing read');
    assert.deepEqual(idle.changes, []);
    write(ws, 'mod.txt', 'm2');
    fs.rmSync(path.join(ws, 'del.txt'));
    fs.mkdirSync(path.join(ws, 'to'));
    fs.renameSync(path.join(ws, 'mv-src.txt'), path.join(ws, 'to', 'mv-dst.txt'));
    write(ws, 'new.txt', 'n');
    const r = rescan(state, { ...o, storeContent: false });
    const kinds = r.changes.map((c) => `${c.path}:${c.before ? 'B' : '-'}${c.after ? 'A' : '-'}`);
    assert.deepEqual(kinds, ['del.txt:B-', 'mod.txt:BA', 'mv-src.txt:B-', 'new.txt:-A', 'to/mv-dst.txt:-A']);
    assert.equal(r.read, 3);
    assert.ok(!r.prevDirs.has('to'), 'the folder the move created was not there before');
    const mod = r.changes.find((c) => c.path === 'mod.txt')!;
    assert.equal(mod.before!.git, gitBlobId(Buffer.from('m1')), 'old content of a clean file: its git blob');
    assert.equal(mod.data!.toString(), 'm2');
  });
  it('re-reads racy entries and notices a same-size rewrite within the timestamp granularity', () => {
    const { ws, o } = setup();
    write(ws, 'a.txt', 'aaaa');
    const { state } = baseline(ws, 's', { ...o, racyMs: 2000, budgetMs: 10000 });
    const st = fs.statSync(path.join(ws, 'a.txt'));
    write(ws, 'a.txt', 'bbbb');
    fs.utimesSync(path.join(ws, 'a.txt'), st.atime, st.mtime); // same size, same mtime
    const e = state.files.get('a.txt')!;
    e.ctime = fs.statSync(path.join(ws, 'a.txt')).ctimeMs; // and a ctime that matches too
    const r = rescan(state, { ...o, racyMs: 2000 });
    assert.deepEqual(
      r.changes.map((c) => c.path),
      ['a.txt'],
    );
  });
  it('does not count a file that stopped being ignored as created', () => {
    const { ws, o } = setup();
    write(ws, '.gitignore', '*.log\n');
    write(ws, 'old.log', 'was here');
    const oldCtime = fs.statSync(path.join(ws, 'old.log')).ctimeMs;
    const { state } = baseline(ws, 's', { ...o, budgetMs: 10000 });
    write(ws, '.gitignore', '# nothing ignored\n');
    // The command's file, written until the file system gives it a later ctime than old.log's
    // (its clock may tick coarser than our writes); "existed before" is a mark between the two.
    const fresh = path.join(ws, 'fresh.log');
    waitUntilSync(() => {
      write(ws, 'fresh.log', 'made by the command');
      return fs.statSync(fresh).ctimeMs > oldCtime;
    }, 'a ctime after old.log');
    const mark = (oldCtime + fs.statSync(fresh).ctimeMs) / 2;
    const r = rescan(state, { ...o, existedBefore: mark });
    assert.deepEqual(
      r.changes.map((c) => c.path),
      ['.gitignore', 'fresh.log'],
    );
    assert.ok(state.files.has('old.log'), 'now scanned');
  });
  it('counts a file moved in with its folder as created, though its ctime is old', () => {
    const { ws, o } = setup();
    write(ws, 'dir/old.txt', 'made long ago');
    // Its ctime must be older than the pre-scan's "existed before" mark (the scan's end less 1 s).
    const made = fs.statSync(path.join(ws, 'dir/old.txt')).ctimeMs;
    waitUntilSync(() => Date.now() > made + 1001, "the clock to pass old.txt's ctime by 1 s");
    const { state } = baseline(ws, 's', { ...o, budgetMs: 10000 });
    const preEnd = Date.now();
    fs.renameSync(path.join(ws, 'dir'), path.join(ws, 'moved'));
    const r = rescan(state, { ...o, existedBefore: preEnd - 1000 });
    assert.deepEqual(
      r.changes.map((c) => [c.path, !!c.before, !!c.after]),
      [
        ['dir/old.txt', true, false],
        ['moved/old.txt', false, true],
      ],
    );
  });
  // Without git (the state lists every folder). With git a folder the state does not list is judged by its
  // birth time against the previous scan's start, with no margin (rescan.ts, bornBefore, says why).
  it("names a command's folders as made by it though the kernel stamped them before the scan's start", () => {
    const { ws, o } = setup();
    write(ws, 'keep.txt', 'k');
    age(ws);
    const { state } = baseline(ws, 's', { ...o, budgetMs: 10000 });
    rescan(state, o); // the scan before the command
    write(ws, 'made/deep/x.txt', 'by the command');
    // File times come from the kernel's coarse clock, a tick behind Date.now(): a folder made right
    // after a scan started is usually stamped a few ms before that start. This is that case, always.
    const born = fs.statSync(path.join(ws, 'made')).birthtimeMs;
    assert.ok(born > 0, 'this file system keeps birth times');
    state.scanned = Math.max(state.scanned, born + 1);
    const r = rescan(state, o);
    assert.deepEqual(
      r.changes.map((c) => c.path),
      ['made/deep/x.txt'],
    );
    assert.ok(!r.prevDirs.has('made') && !r.prevDirs.has('made/deep'), 'the folders the command made were not there before');
  });
  it('does not count a file that became ignored as deleted', () => {
    const { ws, o } = setup();
    write(ws, 'a.tmp', 'x');
    write(ws, '.gitignore', '');
    const { state } = baseline(ws, 's', { ...o, budgetMs: 10000 });
    write(ws, '.gitignore', '*.tmp\n');
    const r = rescan(state, o);
    assert.deepEqual(
      r.changes.map((c) => c.path),
      ['.gitignore'],
    );
    assert.ok(!state.files.has('a.tmp'));
  });
  it('saves and loads its state, and names the blobs gc must keep', () => {
    const { ws, storeDir, o } = setup();
    write(ws, 'a.txt', 'a');
    const { state } = baseline(ws, 's/1', { ...o, budgetMs: 10000 });
    const file = stateFile(storeDir, 's/1');
    saveState(file, state);
    const back = loadState(file)!;
    assert.deepEqual([...back.files.entries()], [...state.files.entries()]);
    assert.deepEqual([...referencedBlobs(storeDir)], [state.files.get('a.txt')!.hash]);
  });
});
