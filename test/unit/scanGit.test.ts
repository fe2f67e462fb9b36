// The scan in a git repository, where `git status` against our own copy of the index (with git's
// untracked cache) does the stat work: it must find exactly what our own folder-by-folder scan
// finds, never write the repository's index, and handle what git does not look into for us.
// Real temp folders and real git repositories.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { baseline } from '../../src/core/scan/baseline';
import { prefetchScan } from '../../src/core/scan/gitAssist';
import { rescan } from '../../src/core/scan/rescan';
import { saveState, stateFile } from '../../src/core/scan/stateFile';
import { F_LARGE, F_LINK, type ScanOptions, type ScanResult, type ScanState } from '../../src/core/scan/types';
import { pastRacyWindow } from '../helpers/wait';
import { tempDir } from '../helpers/tmp';

function write(root: string, rel: string, content: string | Buffer): void {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
}

function git(root: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'protocol.file.allow=always', ...args],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

/** The racy window of these scans: a stat newer than the scan's start minus this is re-checked. */
const RACY_MS = 20;

function repo(): { ws: string; base: string; opts: (store: string) => ScanOptions } {
  const base = tempDir('ar-scangit-');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  git(ws, 'init', '-q');
  const opts = (storeDir: string): ScanOptions => {
    fs.mkdirSync(storeDir, { recursive: true });
    return {
      storeDir,
      storeContent: true,
      racyMs: RACY_MS,
      limits: { maxFiles: 5000, maxFileBytes: 1024 * 1024, excludes: ['secret/'], skipAbs: [] },
    };
  };
  return { ws, base, opts };
}

function commitAll(ws: string): void {
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'c', '--allow-empty');
}

const kinds = (r: ScanResult) => r.changes.map((c) => `${c.path}:${c.before ? 'B' : '-'}${c.after ? 'A' : '-'}`);

function indexStamp(ws: string): string {
  const f = path.join(ws, '.git', 'index');
  const st = fs.statSync(f);
  return `${st.mtimeMs}:${st.size}:${fs.readFileSync(f).toString('base64')}`;
}

/** A baseline of `ws` in its own store, and a scanner that saves the state as the hooks do. */
function session(ws: string, opts: ScanOptions, name: string) {
  const { state } = baseline(ws, name, { ...opts, budgetMs: 60000 });
  return sessionOf(ws, opts, name, state);
}

function sessionOf(_ws: string, opts: ScanOptions, name: string, state: ScanState) {
  const file = stateFile(opts.storeDir, name);
  saveState(file, state);
  return {
    state,
    scan(extra: Partial<ScanOptions> = {}): ScanResult {
      const r = rescan(state, { ...opts, ...extra });
      if (r.dirty) saveState(file, state);
      return r;
    },
  };
}

describe('scan with git status and its untracked cache', () => {
  it('finds modified, created, deleted and moved files without checking folders, and never writes the repository index', () => {
    const { ws, base, opts } = repo();
    for (let i = 0; i < 30; i++) write(ws, `src/m${i % 5}/f${i}.ts`, `export const v${i} = ${i};\n`);
    write(ws, '.gitignore', '*.log\n');
    commitAll(ws);
    write(ws, 'notes.txt', 'untracked\n');
    pastRacyWindow(ws, RACY_MS);
    const s = session(ws, opts(path.join(base, 'store')), 's');
    const idle = s.scan();
    assert.ok(idle.cached, 'git listed the untracked files');
    assert.equal(idle.listed, 0, 'no folder listed by us');
    assert.equal(idle.statted, 1, 'only the untracked file is stat-checked by us');
    assert.deepEqual(idle.changes, []);
    const stamp = indexStamp(ws);
    pastRacyWindow(ws, RACY_MS);
    write(ws, 'src/m1/f1.ts', 'changed\n');
    fs.rmSync(path.join(ws, 'src/m2/f2.ts'));
    fs.renameSync(path.join(ws, 'src/m3/f3.ts'), path.join(ws, 'src/m4/moved.ts'));
    write(ws, 'new/deep/n.ts', 'n\n');
    write(ws, 'app.log', 'ignored\n');
    write(ws, 'secret/key.pem', 'excluded by our settings\n');
    write(ws, 'notes.txt', 'untracked, changed\n');
    const r = s.scan();
    assert.ok(r.cached);
    assert.deepEqual(kinds(r), [
      'new/deep/n.ts:-A',
      'notes.txt:BA',
      'src/m1/f1.ts:BA',
      'src/m2/f2.ts:B-',
      'src/m3/f3.ts:B-',
      'src/m4/moved.ts:-A',
    ]);
    assert.ok(!r.prevDirs.has('new') && !r.prevDirs.has('new/deep'), 'the folders the command made were not there before');
    assert.ok(s.state.dirs.has('new/deep'));
    assert.equal(indexStamp(ws), stamp, "the repository's index is untouched");
    // A folder removed with its files is gone from the state too.
    fs.rmSync(path.join(ws, 'new'), { recursive: true });
    const gone = s.scan();
    assert.deepEqual(kinds(gone), ['new/deep/n.ts:B-']);
    assert.ok(!s.state.dirs.has('new') && !s.state.dirs.has('new/deep'));
  });

  it('notices a tracked file that comes back as committed (git reports nothing for it)', () => {
    const { ws, base, opts } = repo();
    write(ws, 'a.ts', 'a\n');
    write(ws, 'gone-before.ts', 'g\n');
    write(ws, 'dir/b.ts', 'b\n');
    commitAll(ws);
    fs.rmSync(path.join(ws, 'gone-before.ts')); // deleted before the session started
    pastRacyWindow(ws, RACY_MS);
    const s = session(ws, opts(path.join(base, 'store')), 's');
    assert.deepEqual(s.scan().changes, []);
    fs.rmSync(path.join(ws, 'dir'), { recursive: true });
    assert.deepEqual(kinds(s.scan()), ['dir/b.ts:B-']);
    const stamp = indexStamp(ws);
    // Put back as committed, without git (which would write its index, and make us look again).
    write(ws, 'dir/b.ts', git(ws, 'show', 'HEAD:dir/b.ts'));
    write(ws, 'gone-before.ts', git(ws, 'show', 'HEAD:gone-before.ts'));
    assert.equal(indexStamp(ws), stamp);
    const back = s.scan();
    assert.ok(back.cached);
    assert.deepEqual(kinds(back), ['dir/b.ts:-A', 'gone-before.ts:-A']);
    assert.ok(!back.prevDirs.has('dir'));
    fs.rmSync(path.join(ws, 'a.ts'));
    assert.deepEqual(kinds(s.scan()), ['a.ts:B-']);
    git(ws, 'checkout', '--', 'a.ts');
    assert.deepEqual(kinds(s.scan()), ['a.ts:-A']);
  });

  it('a clean tracked file made executable and back: both changes, each after with its content', () => {
    const { ws, base, opts } = repo();
    write(ws, 'run.sh', 'echo hi\n');
    commitAll(ws);
    pastRacyWindow(ws, RACY_MS);
    const s = session(ws, opts(path.join(base, 'store')), 's');
    assert.deepEqual(s.scan().changes, []);
    fs.chmodSync(path.join(ws, 'run.sh'), 0o755);
    const on = s.scan().changes;
    assert.deepEqual(kinds({ changes: on } as ScanResult), ['run.sh:BA']);
    assert.ok(on[0]!.after!.hash, 'the after refers to content in the store');
    pastRacyWindow(ws, RACY_MS);
    // Back to the index's mode: git's stat check says "clean", but our last record said executable.
    fs.chmodSync(path.join(ws, 'run.sh'), 0o644);
    const off = s.scan().changes;
    assert.deepEqual(kinds({ changes: off } as ScanResult), ['run.sh:BA']);
    assert.equal(off[0]!.after!.mode & 0o111, 0);
  });

  it('follows the index when a command stages or commits, and keeps our rules for untracked files', () => {
    const { ws, base, opts } = repo();
    write(ws, 'a.ts', 'a\n');
    commitAll(ws);
    pastRacyWindow(ws, RACY_MS);
    const s = session(ws, opts(path.join(base, 'store')), 's');
    write(ws, 'b.ts', 'b\n');
    write(ws, 'a.ts', 'a2\n');
    commitAll(ws);
    const r = s.scan();
    assert.deepEqual(kinds(r), ['a.ts:BA', 'b.ts:-A']);
    pastRacyWindow(ws, RACY_MS);
    write(ws, 'a.ts', 'a3\n');
    const r2 = s.scan();
    assert.ok(r2.cached);
    assert.deepEqual(kinds(r2), ['a.ts:BA']);
    // A new .gitignore: the tree is walked with it (and the files it ignores are not created ones).
    write(ws, 'out/x.js', 'x');
    write(ws, '.gitignore', 'out/\n');
    const r3 = s.scan();
    assert.ok(r3.walked);
    assert.deepEqual(kinds(r3), ['.gitignore:-A']);
  });

  it('checks folders inside nested repositories and submodules itself: git does not look there', () => {
    const { ws, base, opts } = repo();
    write(ws, 'top.ts', 't\n');
    const sub = path.join(base, 'subsrc');
    fs.mkdirSync(sub);
    git(sub, 'init', '-q');
    write(sub, 'lib.ts', 'lib\n');
    commitAll(sub);
    commitAll(ws);
    git(ws, 'submodule', '-q', 'add', sub, 'mods/sub');
    commitAll(ws);
    fs.mkdirSync(path.join(ws, 'vendored'));
    git(path.join(ws, 'vendored'), 'init', '-q');
    write(ws, 'vendored/v.ts', 'v\n');
    pastRacyWindow(ws, RACY_MS);
    const s = session(ws, opts(path.join(base, 'store')), 's');
    assert.ok(s.state.files.has('mods/sub/lib.ts') && s.state.files.has('vendored/v.ts'));
    assert.deepEqual(s.scan().changes, []);
    write(ws, 'mods/sub/new.ts', 'in the submodule\n');
    write(ws, 'vendored/deeper/w.ts', 'in the nested repository\n');
    write(ws, 'mods/sub/lib.ts', 'lib changed\n');
    const r = s.scan();
    assert.ok(r.cached);
    assert.deepEqual(kinds(r), ['mods/sub/lib.ts:BA', 'mods/sub/new.ts:-A', 'vendored/deeper/w.ts:-A']);
    // A nested repository that appears: walked whole.
    fs.mkdirSync(path.join(ws, 'cloned'));
    git(path.join(ws, 'cloned'), 'init', '-q');
    write(ws, 'cloned/c.ts', 'c\n');
    const r2 = s.scan();
    assert.deepEqual(kinds(r2), ['cloned/c.ts:-A']);
    write(ws, 'cloned/d.ts', 'd\n');
    assert.deepEqual(kinds(s.scan()), ['cloned/d.ts:-A']);
  });

  it('leaves the store alone when it lives in the workspace', () => {
    const { ws, opts } = repo();
    write(ws, 'a.ts', 'a\n');
    commitAll(ws);
    const store = path.join(ws, '.rewind-store');
    const o = opts(store);
    o.limits = { ...o.limits, skipAbs: [store] };
    pastRacyWindow(ws, RACY_MS);
    const s = session(ws, o, 's');
    write(ws, 'b.ts', 'b\n');
    const r = s.scan();
    assert.ok(r.cached);
    assert.deepEqual(kinds(r), ['b.ts:-A'], 'blobs and state files the scan wrote into the store are not workspace files');
  });

  it('says once, not at every scan, that an untracked name is not valid UTF-8', () => {
    const { ws, base, opts } = repo();
    write(ws, 'a.ts', 'a\n');
    commitAll(ws);
    pastRacyWindow(ws, RACY_MS);
    const said: string[] = [];
    const o = opts(path.join(base, 'store'));
    o.limits = { ...o.limits, report: (m) => said.push(m) };
    const s = session(ws, o, 's');
    s.scan();
    fs.writeFileSync(Buffer.concat([Buffer.from(ws + '/caf'), Buffer.from([0xe9]), Buffer.from('.txt')]), 'latin-1 name');
    write(ws, 'b.ts', 'b\n');
    const r = s.scan();
    assert.ok(r.cached);
    assert.deepEqual(kinds(r), ['b.ts:-A'], 'the unnameable file is left out');
    s.scan();
    s.scan();
    assert.equal(said.filter((m) => m.includes('not valid UTF-8')).length, 1, said.join('\n'));
  });

  it('uses a status git started early (prefetch) and finds the same changes', () => {
    const { ws, base, opts } = repo();
    for (let i = 0; i < 10; i++) write(ws, `d${i % 3}/f${i}.ts`, `${i}\n`);
    commitAll(ws);
    pastRacyWindow(ws, RACY_MS);
    const o = opts(path.join(base, 'store'));
    const s = session(ws, o, 'p');
    s.scan(); // makes the index copy
    write(ws, 'd1/f1.ts', 'changed\n');
    write(ws, 'd2/new.ts', 'new\n');
    prefetchScan(o.storeDir, 'p');
    const r = s.scan();
    assert.ok(r.cached);
    assert.deepEqual(kinds(r), ['d1/f1.ts:BA', 'd2/new.ts:-A']);
    // A prefetch for an index that changed since is not used.
    write(ws, 'd0/f0.ts', 'changed too\n');
    prefetchScan(o.storeDir, 'p');
    commitAll(ws);
    assert.deepEqual(kinds(s.scan()), ['d0/f0.ts:BA']);
  });

  it('takes the same baseline as our own walk, on a tree with every kind of rule, link, repository and special file', () => {
    const { ws, base, opts } = repo();
    write(ws, '.gitignore', '*.log\n!keep.log\nbuild/\n/only-top.txt\ndocs/**/*.tmp\n');
    write(ws, 'keep.log', 'kept');
    write(ws, 'drop.log', 'dropped');
    write(ws, 'only-top.txt', 'ignored at the top');
    write(ws, 'sub/only-top.txt', 'not ignored below');
    write(ws, 'docs/a/b/x.tmp', 'ignored deep');
    write(ws, 'docs/a/b/x.md', 'kept deep');
    write(ws, 'build/out.js', 'ignored folder');
    write(ws, 'src/.gitignore', 'gen/\n!important.log\n');
    write(ws, 'src/gen/g.ts', 'ignored by a nested file');
    write(ws, 'src/important.log', 're-included');
    write(ws, 'src/a.ts', 'tracked');
    write(ws, 'src/dirty.ts', 'committed');
    write(ws, 'src/deleted.ts', 'committed, then deleted');
    write(ws, 'vendor/lib.js', 'tracked, then ignored by a rule added later');
    write(ws, 'node_modules/pkg/index.js', 'never entered');
    write(ws, 'secret/key.pem', 'excluded by our settings');
    write(ws, 'big.bin', Buffer.alloc(4096, 7));
    commitAll(ws);
    git(ws, 'add', '-f', 'build/out.js'); // tracked inside an ignored folder
    git(ws, 'commit', '-qm', 'forced');
    write(ws, '.gitignore', '*.log\n!keep.log\nbuild/\n/only-top.txt\ndocs/**/*.tmp\nvendor/\n');
    write(ws, 'src/dirty.ts', 'changed since');
    fs.rmSync(path.join(ws, 'src/deleted.ts'));
    write(ws, 'build/new.js', 'untracked in an ignored folder');
    write(ws, 'vendor/new.js', 'untracked in a newly ignored folder');
    write(ws, 'new/deep/u.ts', 'untracked');
    write(ws, 'ignored-dir/.gitignore', '*\n');
    write(ws, 'ignored-dir/x.ts', 'ignored by its own folder');
    fs.symlinkSync('src/a.ts', path.join(ws, 'link-to-file'));
    fs.symlinkSync('src', path.join(ws, 'link-to-dir'));
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    fs.mkdirSync(path.join(ws, 'empty/inside'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'nested'));
    git(path.join(ws, 'nested'), 'init', '-q');
    write(ws, 'nested/n.ts', 'in a nested repository');
    write(ws, 'nested/.gitignore', 'skip.ts\n');
    write(ws, 'nested/skip.ts', 'ignored by the nested repository');
    pastRacyWindow(ws, RACY_MS);
    const o = { ...opts(path.join(base, 'store-a')), limits: { ...opts(path.join(base, 'store-a')).limits, maxFileBytes: 1024 } };
    const mine = baseline(ws, 'a', { ...o, useGit: false, budgetMs: 60000 });
    const byGit = baseline(ws, 'b', { ...o, storeDir: opts(path.join(base, 'store-b')).storeDir, budgetMs: 60000 });
    assert.equal(byGit.index, 'status');
    assert.notEqual(mine.index, 'status');
    const view = (st: ScanState) =>
      [...st.files.entries()].map(([p, e]) => `${p} ${e.git ?? e.hash} ${e.flags & (F_LARGE | F_LINK)}`).sort();
    assert.deepEqual(view(byGit.state), view(mine.state));
    assert.ok(byGit.state.files.has('build/out.js') && byGit.state.files.has('nested/n.ts') && !byGit.state.files.has('nested/skip.ts'));
    // A rule file that ignores itself (and everything beside it) is not listed by git: its folder
    // holds nothing of the scan, and git watches it for us.
    const selfIgnored = (k: string) => k !== 'ignored-dir/.gitignore';
    assert.deepEqual(Object.keys(byGit.state.ignoreFiles).sort(), Object.keys(mine.state.ignoreFiles).filter(selfIgnored).sort());
    // And the scans after it agree.
    const a = sessionOf(ws, { ...o, useGit: false }, 'a', mine.state);
    const b = sessionOf(ws, { ...o, storeDir: opts(path.join(base, 'store-b')).storeDir }, 'b', byGit.state);
    write(ws, 'empty/inside/now.ts', 'a file in a folder that was empty');
    write(ws, 'nested/m.ts', 'another');
    write(ws, 'sub/only-top.txt', 'changed');
    const ra = a.scan();
    const rb = b.scan();
    assert.ok(rb.cached);
    assert.deepEqual(kinds(rb), kinds(ra));
    assert.deepEqual(kinds(rb), ['empty/inside/now.ts:-A', 'nested/m.ts:-A', 'sub/only-top.txt:BA']);
    // git does not list empty folders; the one the new file went into was there before all the same.
    assert.ok(ra.prevDirs.has('empty/inside') && rb.prevDirs.has('empty/inside'));
    write(ws, 'made/now/x.ts', 'in folders the command made');
    const made = b.scan();
    assert.deepEqual(kinds(made), ['made/now/x.ts:-A']);
    assert.ok(!made.prevDirs.has('made') && !made.prevDirs.has('made/now'));
  });

  it('finds exactly what our own folder-by-folder scan finds, over random edits, moves, deletions, commits and restores', () => {
    const { ws, base, opts } = repo();
    let seed = Number(process.env.SCAN_SEED || 20261203);
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    write(ws, '.gitignore', '*.log\nbuild/\n');
    for (let i = 0; i < 80; i++) write(ws, `${pick(['a', 'b', 'c'])}/${pick(['x', 'y', ''])}/f${i}.ts`.replace('//', '/'), `v${i}\n`);
    commitAll(ws);
    for (let i = 0; i < 5; i++) write(ws, `u/n${i}.txt`, `u${i}\n`);
    pastRacyWindow(ws, RACY_MS);
    const ownOpts = { ...opts(path.join(base, 'store-own')), useGit: false };
    const own = sessionOf(ws, ownOpts, 'own', baseline(ws, 'own', { ...ownOpts, budgetMs: 60000 }).state);
    const withGit = session(ws, opts(path.join(base, 'store-git')), 'git');
    assert.deepEqual([...withGit.state.files.keys()].sort(), [...own.state.files.keys()].sort());
    const files = () => {
      const out: string[] = [];
      const walk = (d: string) => {
        for (const e of fs.readdirSync(path.join(ws, d), { withFileTypes: true })) {
          if (e.name === '.git') continue;
          const rel = d ? `${d}/${e.name}` : e.name;
          if (e.isDirectory()) walk(rel);
          else out.push(rel);
        }
      };
      walk('');
      return out.sort();
    };
    let deletedTracked: string[] = [];
    let n = 0;
    let cachedScans = 0;
    for (let step = 0; step < 40; step++) {
      const ops = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < ops; k++) {
        const all = files().filter((f) => f !== '.gitignore');
        const op = Math.floor(rand() * 10);
        if (op === 0 || all.length === 0) write(ws, `${pick(['a', 'b', 'c', 'd/e', 'new/deep/er'])}/g${n++}.ts`, `new ${n}\n`);
        else if (op === 1) write(ws, pick(all), `edited ${n++}\n`);
        else if (op === 2) {
          const f = pick(all);
          if (git(ws, 'ls-files', '--', f).trim()) deletedTracked.push(f);
          fs.rmSync(path.join(ws, f));
        } else if (op === 3) {
          const f = pick(all);
          const to = `${pick(['a', 'm', 'b/z'])}/moved${n++}.ts`;
          fs.mkdirSync(path.dirname(path.join(ws, to)), { recursive: true });
          fs.renameSync(path.join(ws, f), path.join(ws, to));
        } else if (op === 4) fs.rmSync(path.join(ws, pick(['a/x', 'b/y', 'c', 'new', 'u', 'm'])), { recursive: true, force: true });
        else if (op === 5) write(ws, pick(['build/out.js', 'debug.log', 'a/trace.log']), `ignored ${n++}\n`);
        else if (op === 6) commitAll(ws);
        else if (op === 7 && deletedTracked.length) {
          const f = deletedTracked.pop()!;
          try {
            // Put back by git (which also writes its index) or by a copy (which does not).
            if (rand() < 0.5) git(ws, 'checkout', 'HEAD', '--', f);
            else write(ws, f, git(ws, 'show', `HEAD:${f}`));
          } catch {
            /* not in HEAD any more */
          }
        } else if (op === 8) write(ws, `${pick(['a', 'b'])}/same${n % 4}.ts`, 'same content\n');
        else fs.mkdirSync(path.join(ws, `empty${n++}`), { recursive: true });
      }
      const a = own.scan({ useGit: false });
      const b = withGit.scan();
      if (b.cached) cachedScans++;
      assert.deepEqual(kinds(b), kinds(a), `step ${step}: the git-assisted scan agrees with our own`);
      for (const c of b.changes.filter((x) => x.after))
        assert.equal(c.after!.hash, a.changes.find((x) => x.path === c.path)!.after!.hash, c.path);
      if (rand() < 0.2) deletedTracked = deletedTracked.filter((f) => !fs.existsSync(path.join(ws, f)));
    }
    assert.deepEqual([...withGit.state.files.keys()].sort(), [...own.state.files.keys()].sort());
    assert.ok(cachedScans >= 30, `most scans were git-assisted (${cachedScans} of 40)`);
  });
});
