// The file watcher behind the resident recorder's ChangeSource (./changeSource.ts): one inotify
// watch per folder the scan covers, through Node's own `fs.watch` (no native module to ship).
// Chosen by measuring (README, "How it works"): `@parcel/watcher` delivers events debounced (a
// cookie round trip took 50 ms, every call would wait for it), reports events under a renamed
// folder at its old path, and crashed the process when a watched folder had been removed; Node's
// recursive `fs.watch` on Linux reported content changes late, after later events (stat polling),
// so no cookie can tell when it has caught up. Per-folder `fs.watch` shares one inotify queue per
// process, in order: a cookie written after a command's writes arrives after their events.
//
// It only narrows: a root stops vouching (the next call scans) when its watch could not be set up
// (watch limit, the root's own watch), a folder's watch errs, a rule file changes (the set of folders to watch
// changes with it), the root is on a network file system, events came without a name, the cookie
// did not come back in time, or so many events arrived since the last settle that the kernel's
// queue may have overflowed (libuv drops the overflow notice silently; an overflow can only
// happen after at least a full queue of events was delivered, so counting them is enough).
// A fallback is as small as its cause: a folder below the root that cannot be watched (no
// permission, an error) is left unwatched, and the scan looks at it alone (core/scan/narrow.ts);
// folders the scan enters that the rules ignore (they hold tracked files) are watched once the scan
// names them (`include`), from then on narrowed like the rest.
// Linux only for now: elsewhere every root says "cannot vouch" and every call scans, as today.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALWAYS_SKIP, dirMatcher, isIgnored, type Matcher, type Rules, rulesFor } from '../core/scan/ignore';
import type { ChangeReport, ChangeSource, ChangeToken } from '../recording/changeSource';

/** How long a settle waits for its cookie before the roots stop vouching. */
const COOKIE_MS = 2000;
/** More changed paths than this held for one root: it stops vouching (a scan is as cheap then). */
const MAX_HELD = 200000;
/** A clock that moved by more than this against the monotonic one between a token and its use: doubt. */
const CLOCK_SLACK_MS = 1000;

/** statfs magic numbers of network and user-space file systems, where inotify misses remote writes. */
const REMOTE_FS = new Set([
  0x6969, // NFS
  0xff534d42, // CIFS
  0xfe534d42, // SMB2
  0x517b, // SMB
  0x01021997, // 9p (WSL's /mnt/c)
  0x65735546, // FUSE (sshfs, …)
  0x00c36400, // Ceph
  0x5346414f, // AFS
  0x6a656a63, // virtiofs
]);

function maxQueuedEvents(): number {
  try {
    const n = Number(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return n > 0 ? n : 16384;
  } catch {
    return 16384;
  }
}

/**
 * What the watcher asks of the OS: the file system a root is on (statfs magic) and a folder's
 * watch. The tests hand in answers this machine cannot give (a network mount, the watch limit).
 */
export interface WatchOs {
  fsType(root: string): number;
  watch(dir: string, listener: (event: string, name: string | Buffer | null) => void): fs.FSWatcher;
}

export const REAL_OS: WatchOs = {
  fsType: (root) => Number(fs.statfsSync(root).type) >>> 0,
  watch: (dir, listener) => fs.watch(dir, { persistent: false }, listener),
};

interface RootWatch {
  root: string;
  epoch: number;
  seq: number;
  /** Path → the seq of its last change. */
  changed: Map<string, number>;
  dirs: Map<string, fs.FSWatcher>;
  /** Folder → when its watch was set up (wall-clock ms): `watchedAt`. */
  since: Map<string, number>;
  /** The moment the watch of this epoch became ready (every folder watched): `readySince`. */
  ready?: { token: ChangeToken; wall: number };
  rules: Rules;
  vouching: boolean;
  /** Why it does not vouch, as a short code (`reason`). */
  doubt?: string;
  /** Folders the scan enters that the rules ignore, watched on its word (`include`): watched again on a restart. */
  extra: Set<string>;
  /** Folders below the root whose watch could not be set up, and why: the scan looks at each alone. */
  unwatched: Map<string, string>;
}

let epochs = 0;

export class DirWatcher implements ChangeSource {
  private readonly roots = new Map<string, RootWatch>();
  private readonly said = new Set<string>();
  private readonly queueLimit = Math.floor(maxQueuedEvents() / 2);
  private eventsSinceSettle = 0;
  /** Bumped whenever a folder's watch is added or removed (`coverage`). */
  private cover = 0;
  private cookieWatch: fs.FSWatcher | null = null;
  private cookieN = 0;
  private waiting = new Map<string, () => void>();
  private since: number | undefined;

  private readonly skip: Set<string>;

  /** `cookieDir`: a private folder of ours where settle writes its cookies; `skipAbs`: folders never watched (the store). */
  constructor(
    private readonly cookieDir: string,
    private readonly report: ChangeReport,
    skipAbs: readonly string[] = [],
    private readonly os: WatchOs = REAL_OS,
  ) {
    this.skip = new Set([cookieDir, ...skipAbs]);
  }

  async watch(roots: readonly string[]): Promise<void> {
    for (const root of roots) if (!this.roots.has(root)) this.start(root);
    await Promise.resolve();
  }

  stats(): { roots: number; vouching: number; watches: number; since?: number; unwatched: string[] } {
    let vouching = 0;
    let watches = 0;
    const unwatched: string[] = [];
    for (const w of this.roots.values()) {
      if (w.vouching) vouching++;
      watches += w.dirs.size;
      if (w.vouching) unwatched.push(...w.unwatched.keys());
    }
    return { roots: this.roots.size, vouching, watches, ...(this.since !== undefined ? { since: this.since } : {}), unwatched };
  }

  /** Why the last token of `root` may not vouch: the code of its latest doubt (the watch restarted since), else `not-watched`. */
  reason(root: string): string {
    const w = this.roots.get(root);
    return w?.doubt ?? 'not-watched';
  }

  /**
   * Watches folders the scan enters that are not watched (ignored, yet holding tracked files), each
   * alone, parents first, and only below a watched folder (a folder replaced under an unwatched one
   * would raise no event). Each counts as changed now: what happened in it before its watch is looked at.
   */
  include(root: string, dirs: readonly string[]): void {
    const w = this.roots.get(root);
    if (!w || !w.vouching) return;
    const sorted = [...dirs].filter((d) => d.startsWith(root + path.sep)).sort((a, b) => a.length - b.length);
    for (const abs of sorted) {
      if (w.dirs.has(abs) || w.unwatched.has(abs) || this.skip.has(abs) || !w.dirs.has(path.dirname(abs))) continue;
      if (ALWAYS_SKIP.has(path.basename(abs))) continue;
      w.extra.add(abs);
      this.watchOne(w, abs);
    }
  }

  token(root: string): ChangeToken | undefined {
    const w = this.roots.get(root);
    if (!w || !w.vouching) return undefined;
    return { root, epoch: w.epoch, seq: w.seq, wall: Date.now(), mono: performance.now() };
  }

  changedSince(root: string, token: ChangeToken): ReadonlySet<string> | undefined {
    const w = this.roots.get(root);
    if (!w || !w.vouching || token.root !== root || token.epoch !== w.epoch) return undefined;
    if (Math.abs(Date.now() - token.wall - (performance.now() - token.mono)) > CLOCK_SLACK_MS) {
      this.distrust(w, 'the clock jumped', true, 'clock-jump');
      return undefined;
    }
    const out = new Set<string>();
    for (const [p, seq] of w.changed) if (seq > token.seq) out.add(p);
    return out;
  }

  coverage(_root: string): number {
    return this.cover;
  }

  covers(root: string, dir: string): boolean {
    const w = this.roots.get(root);
    return !!w && w.vouching && w.dirs.has(dir);
  }

  /**
   * Since when it vouches for `root`: the token of the moment its watch (this epoch's) became ready, and
   * that moment's wall-clock time; undefined when it does not vouch. A state scanned after it (a hook's,
   * saved while the resident was starting) is narrowed from that token (core/capture/narrowing.ts).
   */
  readySince(root: string): { token: ChangeToken; wall: number } | undefined {
    const w = this.roots.get(root);
    return w?.vouching ? w.ready : undefined;
  }

  /** When the watch of folder `dir` (absolute) under `root` was set up (wall-clock ms); undefined when not watched. */
  watchedAt(root: string, dir: string): number | undefined {
    const w = this.roots.get(root);
    return w?.vouching ? w.since.get(dir) : undefined;
  }

  async settle(): Promise<void> {
    const live = [...this.roots.values()].filter((w) => w.vouching);
    if (!live.length) return;
    for (const w of live) if (!fs.existsSync(w.root)) this.distrust(w, 'the folder is gone', false, 'root-gone');
    if (!this.ensureCookieWatch()) {
      for (const w of live) this.distrust(w, `cannot watch ${this.cookieDir}`, false, 'cookie-failed');
      return;
    }
    const name = `cookie-${process.pid}-${++this.cookieN}`;
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(name);
        resolve(false);
      }, COOKIE_MS);
      this.waiting.set(name, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    const file = path.join(this.cookieDir, name);
    try {
      fs.writeFileSync(file, '');
    } catch (e) {
      this.waiting.delete(name);
      this.dropCookieWatch(); // its folder was removed: the next settle makes it again
      for (const w of live) this.distrust(w, `cannot write a cookie: ${(e as Error).message}`, true, 'cookie-failed');
      return;
    }
    const ok = await arrived;
    fs.rmSync(file, { force: true });
    if (!ok) {
      this.dropCookieWatch(); // its folder may have been replaced: the next settle watches it anew
      for (const w of [...this.roots.values()]) this.distrust(w, `its events did not arrive within ${COOKIE_MS} ms`, true, 'events-late');
    }
    // Every event queued before the cookie has been counted now. An overflow of the kernel's queue
    // (whose notice libuv drops) means a full queue of events was delivered since the last count.
    if (this.eventsSinceSettle >= this.queueLimit)
      for (const w of [...this.roots.values()])
        if (w.vouching) this.distrust(w, `more than ${this.queueLimit} file events at once; the watch is restarted`, true, 'overflow');
    this.eventsSinceSettle = 0;
  }

  async close(): Promise<void> {
    for (const w of this.roots.values()) this.unwatchAll(w);
    this.roots.clear();
    this.dropCookieWatch();
    await Promise.resolve();
  }

  // ---- inside

  private dropCookieWatch(): void {
    this.cookieWatch?.close();
    this.cookieWatch = null;
  }

  private ensureCookieWatch(): boolean {
    if (this.cookieWatch) return true;
    try {
      fs.mkdirSync(this.cookieDir, { recursive: true, mode: 0o700 });
      this.cookieWatch = fs.watch(this.cookieDir, { persistent: false }, (_event, name) => {
        this.eventsSinceSettle++;
        const done = name ? this.waiting.get(String(name)) : undefined;
        if (done) {
          this.waiting.delete(String(name));
          done();
        }
      });
      this.cookieWatch.on('error', () => {
        this.cookieWatch = null;
      });
      return true;
    } catch {
      return false;
    }
  }

  private say(root: string, message: string, code?: string): void {
    if (code) {
      const w = this.roots.get(root);
      if (w) w.doubt = code;
    }
    const key = `${root}\0${message}`;
    if (this.said.has(key)) return;
    this.said.add(key);
    this.report(`file watcher: ${root}: ${message}; shell capture and the turn-boundary check scan it instead`);
  }

  private start(root: string): void {
    const w: RootWatch = {
      root,
      epoch: ++epochs,
      seq: 0,
      changed: new Map(),
      dirs: new Map(),
      since: new Map(),
      rules: rulesFor({ root, excludes: [] }), // only the tree's own .gitignore files: never watch less than the scan covers
      vouching: false,
      ...(this.roots.get(root)?.doubt ? { doubt: this.roots.get(root)!.doubt } : {}),
      extra: this.roots.get(root)?.extra ?? new Set(),
      unwatched: new Map(),
    };
    this.roots.set(root, w);
    this.cover++;
    this.since ??= Date.now();
    if (process.platform !== 'linux') return this.say(root, 'watching is implemented on Linux only', 'not-linux');
    try {
      const magic = this.os.fsType(root);
      if (REMOTE_FS.has(magic))
        return this.say(root, 'it is on a network or user-space file system, where changes made elsewhere raise no event', 'network-fs');
    } catch (e) {
      return this.say(root, `cannot tell its file system (${(e as Error).message})`, 'fs-unknown');
    }
    const matchers = [...w.rules.base];
    if (!this.watchTree(w, root, '', matchers, false) || !w.dirs.has(root)) {
      this.unwatchAll(w);
      return;
    }
    w.vouching = true;
    // Every folder is watched now, and none of their events was delivered yet (the setup above runs at
    // once): each event of a folder after its watch was set up comes after this token.
    const wall = Date.now();
    w.ready = { token: { root, epoch: w.epoch, seq: w.seq, wall, mono: performance.now() }, wall };
    const extra = [...w.extra];
    w.extra.clear();
    this.include(root, extra);
  }

  /** Watches one folder the scan named (`include`): false when it cannot be (said; it is then scanned alone). */
  private watchOne(w: RootWatch, abs: string): void {
    try {
      const fw = this.os.watch(abs, (event, name) => this.onEvent(w, abs, relOf(w.root, abs), event, name));
      fw.on('error', (e) => this.distrust(w, `a folder's watch failed (${(e as Error).message})`, true, 'watch-failed'));
      w.dirs.set(abs, fw);
      w.since.set(abs, Date.now());
      this.cover++;
      this.mark(w, abs); // what changed in it before its watch: its files are looked at once
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        w.extra.delete(abs);
        return;
      }
      w.unwatched.set(abs, code ?? 'error');
      this.say(w.root, `cannot watch ${abs} (${(e as Error).message}); that folder is scanned alone`);
    }
  }

  /** Restarts a root's watch in a new epoch: every token of the old one stops vouching. */
  private distrust(w: RootWatch, why: string, restart = false, code = 'watch-failed'): void {
    this.say(w.root, why, code);
    this.unwatchAll(w);
    w.vouching = false;
    w.changed.clear();
    w.epoch = ++epochs;
    if (restart) this.start(w.root); // replaces it in the map (same key: a loop over the map does not meet it again)
  }

  private unwatchAll(w: RootWatch): void {
    for (const fw of w.dirs.values()) fw.close();
    w.dirs.clear();
    w.since.clear();
    delete w.ready;
    this.cover++;
  }

  /** Watches `abs` and every folder below it the scan could enter. `fresh`: its entries count as changed (made before the watch). */
  private watchTree(w: RootWatch, abs: string, rel: string, matchers: Matcher[], fresh: boolean): boolean {
    const stack: { abs: string; rel: string; matchers: Matcher[] }[] = [{ abs, rel, matchers }];
    while (stack.length) {
      const d = stack.pop()!;
      if (w.dirs.has(d.abs)) continue;
      try {
        const fw = this.os.watch(d.abs, (event, name) => this.onEvent(w, d.abs, d.rel, event, name));
        fw.on('error', (e) => this.distrust(w, `a folder's watch failed (${(e as Error).message})`, true, 'watch-failed'));
        w.dirs.set(d.abs, fw);
        w.since.set(d.abs, Date.now());
        this.cover++;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') continue; // gone meanwhile: its parent's event says so
        if (code === 'ENOSPC') {
          this.say(w.root, 'the system limit on watched folders is reached (raise fs.inotify.max_user_watches)', 'watch-limit');
          return false;
        }
        // One folder (no permission, an error): it and what is below it are scanned alone, the rest narrowed.
        if (d.abs === w.root) {
          this.say(w.root, `cannot watch ${d.abs} (${(e as Error).message})`, 'watch-failed');
          return false;
        }
        w.unwatched.set(d.abs, code ?? 'error');
        this.say(w.root, `cannot watch ${d.abs} (${(e as Error).message}); that folder is scanned alone`);
        continue;
      }
      let ents: fs.Dirent[];
      try {
        ents = fs.readdirSync(d.abs, { withFileTypes: true });
      } catch {
        continue;
      }
      const own = ents.some((e) => e.name === '.gitignore') ? [...d.matchers, dirMatcher(d.abs, d.rel)] : d.matchers;
      for (const e of ents) {
        const crel = d.rel ? `${d.rel}/${e.name}` : e.name;
        const cabs = path.join(d.abs, e.name);
        if (fresh) this.mark(w, cabs);
        if (!e.isDirectory() || ALWAYS_SKIP.has(e.name) || this.skip.has(cabs) || isIgnored(w.rules, own, crel, true)) continue;
        stack.push({ abs: cabs, rel: crel, matchers: own });
      }
    }
    return true;
  }

  private mark(w: RootWatch, abs: string): void {
    w.changed.set(abs, ++w.seq);
    if (w.changed.size > MAX_HELD) this.distrust(w, `more than ${MAX_HELD} changed paths held`, true, 'too-many-changes');
  }

  private onEvent(w: RootWatch, dirAbs: string, dirRel: string, event: string, name: string | Buffer | null): void {
    this.eventsSinceSettle++;
    if (!w.vouching) return;
    if (name === null || name === undefined) return this.distrust(w, 'an event came without a file name', true, 'event-without-name');
    const n = String(name);
    const abs = path.join(dirAbs, n);
    this.mark(w, abs);
    if (n === '.gitignore')
      return this.distrust(w, 'a .gitignore changed (the folders to watch change with it)', true, 'gitignore-changed');
    if (event !== 'rename') return;
    // Created, deleted or moved: folders that were here are watched no more, one that is here now is.
    const prefix = abs + path.sep;
    for (const [d, fw] of w.dirs)
      if (d === abs || d.startsWith(prefix)) {
        fw.close();
        w.dirs.delete(d);
        w.since.delete(d);
        this.cover++;
        this.mark(w, d);
      }
    for (const d of [...w.unwatched.keys()]) if (d === abs || d.startsWith(prefix)) w.unwatched.delete(d);
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st?.isDirectory() || ALWAYS_SKIP.has(n) || this.skip.has(abs)) return;
    const rel = dirRel ? `${dirRel}/${n}` : n;
    const matchers = matchersOf(w, dirRel);
    if (isIgnored(w.rules, matchers, rel, true)) return;
    if (!this.watchTree(w, abs, rel, matchers, true)) this.distrust(w, 'a new folder could not be watched', false, 'watch-limit');
  }
}

function relOf(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/** The matchers for paths in folder `rel`: the rules above the tree, then every `.gitignore` on the way down. */
function matchersOf(w: RootWatch, rel: string): Matcher[] {
  const out = [...w.rules.base];
  const parts = rel ? rel.split('/') : [];
  for (let i = 0; i <= parts.length; i++) {
    const d = path.join(w.root, ...parts.slice(0, i));
    if (fs.existsSync(path.join(d, '.gitignore'))) out.push(dirMatcher(d, parts.slice(0, i).join('/')));
  }
  return out;
}
