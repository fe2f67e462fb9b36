// The in-memory form of a scan state's files and folders: Map-like tables whose loaded rows stay
// in the columns they were read from (typed arrays over the state file's bytes) until something
// asks for one. A shell hook loads a 10,000-file state and looks at every row's stat, but changes
// a handful: building 10,000 objects (and collecting them) would cost more than the scan itself.
// Rows handed out by `get` or by iteration are live objects: changing one changes the table.

/** One file: stat, content (sha256 in our store and/or git blob id), flags. */
export interface Entry {
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
  mode: number;
  hash: string | null;
  git: string | null;
  flags: number;
}

/** One folder: the stat that tells whether its entries changed. */
export interface DirStat {
  mtime: number;
  ctime: number;
  ino: number;
  /** Changed within the timestamp granularity of the scan that saw it: listed again next time. */
  racy: boolean;
}

/** A Map<string, T> over loaded rows plus an overlay of rows added since. */
abstract class Table<T extends object> implements Iterable<[string, T]> {
  protected paths: string[] = [];
  protected live: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  protected objs: (T | undefined)[] = [];
  protected over: Map<string, T>;
  private rowOf: Map<string, number> | null = null;
  private count: number;
  private members = 0;
  /** True while the rows are the state file's columns plus changes (not a table built anew, not cleared). */
  private fromFile = false;
  /**
   * Loaded rows handed out, set, deleted or changed in their columns since the load, in the order first
   * touched (and a mark per row): all a journal lists, found without a walk of every row per save.
   */
  private touchedRows: number[] = [];
  private touchedMark: Uint8Array | null = null;

  constructor(initial?: Map<string, T>) {
    this.over = initial ?? new Map();
    this.count = this.over.size;
  }

  protected load(paths: string[], fromFile = false): void {
    this.fromFile = fromFile;
    this.paths = paths;
    this.live = new Uint8Array(paths.length).fill(1);
    this.objs = new Array(paths.length);
    this.rowOf = null;
    this.over = new Map();
    this.count = paths.length;
    this.members++;
    this.touchedRows = [];
    this.touchedMark = null;
  }

  /** Row `i` differs, or may (an object handed out can be changed): the journal lists it. */
  protected touch(i: number): void {
    const mark = (this.touchedMark ??= new Uint8Array(this.paths.length));
    if (mark[i]) return;
    mark[i] = 1;
    this.touchedRows.push(i);
  }

  protected abstract materialize(i: number): T;

  get size(): number {
    return this.count;
  }

  /** Changes whenever a path joins or leaves the table (not when a row's values change): for caches of which paths it holds. */
  get membership(): number {
    return this.members;
  }

  /** Loaded rows (live or not): for loops that read columns without building objects. */
  get rows(): number {
    return this.paths.length;
  }

  isLive(i: number): boolean {
    return this.live[i] === 1;
  }

  pathAt(i: number): string {
    return this.paths[i]!;
  }

  /** The row's object when one was handed out (it then holds the truth), else undefined. */
  objAt(i: number): T | undefined {
    return this.objs[i];
  }

  at(i: number): T {
    let o = this.objs[i];
    if (o === undefined) {
      o = this.objs[i] = this.materialize(i);
      this.touch(i);
    }
    return o;
  }

  /**
   * What differs from the columns the table was loaded from, for a state's journal: rows set, or handed
   * out (a live object may have been changed), and loaded rows deleted. Undefined when the table was not
   * loaded from a file, was cleared, or more than `max` rows would be listed: the whole state is written then.
   */
  changesSinceLoad(max: number): { set: [string, T][]; gone: string[] } | undefined {
    if (!this.fromFile) return undefined;
    // Every touched row is listed (deleted, or set: its object holds the truth), and no other: the
    // rows the table touched since the load, not a walk of every row (100,000 on a large tree) per save.
    if (this.touchedRows.length + this.over.size > max) return undefined;
    const set: [string, T][] = [];
    const gone: string[] = [];
    for (const i of [...this.touchedRows].sort((a, b) => a - b)) {
      if (this.live[i] !== 1) gone.push(this.paths[i]!);
      else set.push([this.paths[i]!, this.at(i)]);
    }
    set.push(...this.over);
    return { set, gone };
  }

  /** Rows added since the load (not in the columns). */
  added(): IterableIterator<[string, T]> {
    return this.over.entries();
  }

  private row(rel: string): number {
    if (this.paths.length === 0) return -1;
    if (!this.rowOf) {
      this.rowOf = new Map();
      for (let i = 0; i < this.paths.length; i++) this.rowOf.set(this.paths[i]!, i);
    }
    return this.rowOf.get(rel) ?? -1;
  }

  has(rel: string): boolean {
    if (this.over.has(rel)) return true;
    const r = this.row(rel);
    return r >= 0 && this.live[r] === 1;
  }

  get(rel: string): T | undefined {
    const o = this.over.get(rel);
    if (o) return o;
    const r = this.row(rel);
    return r >= 0 && this.live[r] === 1 ? this.at(r) : undefined;
  }

  set(rel: string, v: T): this {
    if (this.over.has(rel)) {
      this.over.set(rel, v);
      return this;
    }
    const r = this.row(rel);
    if (r >= 0 && this.live[r] === 1) {
      this.objs[r] = v;
      this.touch(r);
      return this;
    }
    this.over.set(rel, v);
    this.count++;
    this.members++;
    return this;
  }

  delete(rel: string): boolean {
    if (this.over.delete(rel)) {
      this.count--;
      this.members++;
      return true;
    }
    const r = this.row(rel);
    if (r < 0 || this.live[r] !== 1) return false;
    this.live[r] = 0;
    this.objs[r] = undefined;
    this.touch(r);
    this.count--;
    this.members++;
    return true;
  }

  clear(): void {
    this.load([]);
  }

  *entries(): IterableIterator<[string, T]> {
    for (let i = 0; i < this.paths.length; i++) if (this.live[i] === 1) yield [this.paths[i]!, this.at(i)];
    yield* this.over;
  }

  *keys(): IterableIterator<string> {
    for (let i = 0; i < this.paths.length; i++) if (this.live[i] === 1) yield this.paths[i]!;
    yield* this.over.keys();
  }

  *values(): IterableIterator<T> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): IterableIterator<[string, T]> {
    return this.entries();
  }

  forEach(fn: (v: T, k: string) => void): void {
    for (const [k, v] of this.entries()) fn(v, k);
  }
}

/** Kind bits of a file row's ids: a sha256 of ours follows, a git id follows. */
export const K_HASH = 1;
export const K_GIT = 2;

/** A row's stat and the facts about its content, read without building the row's object. */
export interface Peek {
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
  flags: number;
  hasHash: boolean;
  hasGit: boolean;
}

/** Fills `out` with an entry object's stat and content facts. */
export function peekOf(e: Entry, out: Peek): Peek {
  out.size = e.size;
  out.mtime = e.mtime;
  out.ctime = e.ctime;
  out.ino = e.ino;
  out.flags = e.flags;
  out.hasHash = e.hash !== null;
  out.hasGit = e.git !== null;
  return out;
}

export class FileTable extends Table<Entry> {
  private num: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private fl: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private kinds: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private ids: Buffer = Buffer.alloc(0);
  private idOff = new Int32Array(0);
  private gitLen = 20;

  /** Rows from a state file: stats (5 per row), flags, id kinds, raw ids in row order. */
  static fromColumns(
    paths: string[],
    num: Float64Array<ArrayBufferLike>,
    flags: Uint8Array<ArrayBufferLike>,
    kinds: Uint8Array<ArrayBufferLike>,
    ids: Buffer,
    gitLen: number,
  ): FileTable | null {
    const t = new FileTable();
    const off = new Int32Array(paths.length);
    let p = 0;
    for (let i = 0; i < paths.length; i++) {
      off[i] = p;
      const k = kinds[i]!;
      p += (k & K_HASH ? 32 : 0) + (k & K_GIT ? gitLen : 0);
    }
    if (p !== ids.length) return null;
    t.load(paths, true);
    t.num = num;
    t.fl = flags;
    t.kinds = kinds;
    t.ids = ids;
    t.idOff = off;
    t.gitLen = gitLen;
    return t;
  }

  /**
   * After the table was written whole as `c` (its own `columns`): those columns are its rows from now on,
   * exactly as a load of the file gives them (no object handed out, nothing changed since).
   */
  becomeColumns(c: ReturnType<FileTable['columns']>, gitLen: number): void {
    const off = new Int32Array(c.paths.length);
    let p = 0;
    for (let i = 0; i < c.paths.length; i++) {
      off[i] = p;
      const k = c.kinds[i]!;
      p += (k & K_HASH ? 32 : 0) + (k & K_GIT ? gitLen : 0);
    }
    this.load(c.paths, true);
    this.num = c.num;
    this.fl = c.flags;
    this.kinds = c.kinds;
    this.ids = Buffer.from(c.ids); // a copy: the columns' buffer was allocated for every row holding both ids
    this.idOff = off;
    this.gitLen = gitLen;
  }

  protected materialize(i: number): Entry {
    const j = i * 5;
    return {
      size: this.num[j]!,
      mtime: this.num[j + 1]!,
      ctime: this.num[j + 2]!,
      ino: this.num[j + 3]!,
      mode: this.num[j + 4]!,
      hash: this.hashAt(i),
      git: this.gitAt(i),
      flags: this.fl[i]!,
    };
  }

  /** Fills `out` with row `i`'s stat and content facts (from its object when one was handed out). */
  peek(i: number, out: Peek): Peek {
    const o = this.objs[i];
    if (o) return peekOf(o, out);
    const j = i * 5;
    out.size = this.num[j]!;
    out.mtime = this.num[j + 1]!;
    out.ctime = this.num[j + 2]!;
    out.ino = this.num[j + 3]!;
    out.flags = this.fl[i]!;
    const k = this.kinds[i]!;
    out.hasHash = (k & K_HASH) !== 0;
    out.hasGit = (k & K_GIT) !== 0;
    return out;
  }

  /** Row `i`'s flags, and setting them without building its object. */
  flagsAt(i: number): number {
    const o = this.objs[i];
    return o ? o.flags : this.fl[i]!;
  }

  setFlagsAt(i: number, flags: number): void {
    const o = this.objs[i];
    if (o) o.flags = flags;
    else {
      this.fl[i] = flags;
      this.touch(i); // changed in its columns: the journal lists it
    }
  }

  hashAt(i: number): string | null {
    const o = this.objs[i];
    if (o) return o.hash;
    if (!(this.kinds[i]! & K_HASH)) return null;
    return this.ids.toString('hex', this.idOff[i]!, this.idOff[i]! + 32);
  }

  gitAt(i: number): string | null {
    const o = this.objs[i];
    if (o) return o.git;
    const k = this.kinds[i]!;
    if (!(k & K_GIT)) return null;
    const at = this.idOff[i]! + (k & K_HASH ? 32 : 0);
    return this.ids.toString('hex', at, at + this.gitLen);
  }

  /**
   * Every live row as columns, for the state file: rows nobody touched are copied as they were
   * read (bytes, not strings); ids that are not well-formed hex of the right length are dropped.
   */
  columns(
    gitLen: number,
    pendingFlag: number,
  ): { paths: string[]; num: Float64Array; flags: Uint8Array; kinds: Uint8Array; ids: Buffer; pending: number } {
    const n = this.size;
    const paths: string[] = new Array(n);
    const num = new Float64Array(n * 5);
    const flags = new Uint8Array(n);
    const kinds = new Uint8Array(n);
    const ids = Buffer.allocUnsafe(n * (32 + gitLen));
    let idLen = 0;
    let pending = 0;
    let r = 0;
    const gitHex = 2 * gitLen;
    const put = (p: string, e: Entry) => {
      paths[r] = p;
      const j = r * 5;
      num[j] = e.size;
      num[j + 1] = e.mtime;
      num[j + 2] = e.ctime;
      num[j + 3] = e.ino;
      num[j + 4] = e.mode;
      flags[r] = e.flags & 0xff;
      let k = 0;
      if (e.hash && e.hash.length === 64 && ids.write(e.hash, idLen, 'hex') === 32) {
        k |= K_HASH;
        idLen += 32;
      }
      if (e.git && e.git.length === gitHex && ids.write(e.git, idLen, 'hex') === gitLen) {
        k |= K_GIT;
        idLen += gitLen;
      }
      kinds[r] = k;
      if (e.flags & pendingFlag) pending++;
      r++;
    };
    for (let i = 0; i < this.paths.length; i++) {
      if (this.live[i] !== 1) continue;
      const o = this.objs[i];
      if (o || this.gitLen !== gitLen) {
        put(this.paths[i]!, o ?? this.at(i));
        continue;
      }
      paths[r] = this.paths[i]!;
      num.set(this.num.subarray(i * 5, i * 5 + 5), r * 5);
      flags[r] = this.fl[i]!;
      const k = this.kinds[i]!;
      kinds[r] = k;
      const len = (k & K_HASH ? 32 : 0) + (k & K_GIT ? gitLen : 0);
      this.ids.copy(ids, idLen, this.idOff[i]!, this.idOff[i]! + len);
      idLen += len;
      if (flags[r]! & pendingFlag) pending++;
      r++;
    }
    for (const [p, e] of this.over) put(p, e);
    return { paths, num, flags, kinds, ids: ids.subarray(0, idLen), pending };
  }
}

export class DirTable extends Table<DirStat> {
  private num: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private fl: Uint8Array<ArrayBufferLike> = new Uint8Array(0);

  static fromColumns(paths: string[], num: Float64Array<ArrayBufferLike>, flags: Uint8Array<ArrayBufferLike>): DirTable {
    const t = new DirTable();
    t.load(paths, true);
    t.num = num;
    t.fl = flags;
    return t;
  }

  /** After the table was written whole as `c` (its own `columns`): those are its rows, as a load gives them. */
  becomeColumns(c: ReturnType<DirTable['columns']>): void {
    this.load(c.paths, true);
    this.num = c.num;
    this.fl = c.flags;
  }

  protected materialize(i: number): DirStat {
    const j = i * 3;
    return { mtime: this.num[j]!, ctime: this.num[j + 1]!, ino: this.num[j + 2]!, racy: (this.fl[i]! & 1) !== 0 };
  }

  /** Row `i`'s stat: [mtime, ctime, ino, racy] without building its object. */
  mtimeAt(i: number): number {
    return this.objs[i]?.mtime ?? this.num[i * 3]!;
  }

  ctimeAt(i: number): number {
    return this.objs[i]?.ctime ?? this.num[i * 3 + 1]!;
  }

  inoAt(i: number): number {
    return this.objs[i]?.ino ?? this.num[i * 3 + 2]!;
  }

  racyAt(i: number): boolean {
    const o = this.objs[i];
    return o ? o.racy : (this.fl[i]! & 1) !== 0;
  }

  /** Every live row as columns, for the state file. */
  columns(): { paths: string[]; num: Float64Array; flags: Uint8Array } {
    const n = this.size;
    const paths: string[] = new Array(n);
    const num = new Float64Array(n * 3);
    const flags = new Uint8Array(n);
    let r = 0;
    const put = (p: string, mtime: number, ctime: number, ino: number, racy: boolean) => {
      paths[r] = p;
      num[r * 3] = mtime;
      num[r * 3 + 1] = ctime;
      num[r * 3 + 2] = ino;
      flags[r] = racy ? 1 : 0;
      r++;
    };
    // Loaded rows from their columns (no objects: the table stays as the journal knows it).
    for (let i = 0; i < this.paths.length; i++)
      if (this.live[i] === 1) put(this.paths[i]!, this.mtimeAt(i), this.ctimeAt(i), this.inoAt(i), this.racyAt(i));
    for (const [p, d] of this.over) put(p, d.mtime, d.ctime, d.ino, d.racy);
    return { paths, num, flags };
  }
}
