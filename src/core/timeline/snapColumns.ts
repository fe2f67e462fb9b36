// Snapshot records as columns, for the timeline index (timelineIndex.ts): strings interned, every value a record can hold kept (what the columns do not hold goes to `rest`),
// and each snapshot's provenance (provenance.ts) as computed over the whole log — so a plan does not
// run the provenance fold over 60,000 snapshots again. Stored as binary number columns after a
// small JSON part (strings, flags, rare values): reading them is a copy, not a parse, and
// decoding 60,000 records costs a few ms.
import type { Provenance } from './provenance';
import type { SnapHistory } from './rewindCounts';
import type { Origin, Sequenced, SnapRecord } from '../storeFiles/records';

type Ints = number[] | Int32Array;
type Floats = number[] | Float64Array;

/** Snapshots as columns. Strings are indexes into `strs` (NUL-joined; -1: absent); sizes and modes -1, times NaN: absent. */
export interface SnapColumns {
  strs: string;
  /** 32 bytes per distinct hash (made hex only for the records built). */
  hashes: Buffer;
  seq: Ints;
  path: Ints;
  /** Index into `hashes` / 32; -1: null. */
  hash: Ints;
  phase: Ints;
  origin: Ints;
  session: Ints;
  tool: Ints;
  call: Ints;
  by: Ints;
  size: Ints;
  mtime: Floats;
  mode: Ints;
  time: Floats;
  /** One character per snapshot: '-', 'l' link, 't' too-large, 'u' unreadable, 's' special. */
  flags: string;
  /** Anything the columns do not hold (dirs, unusual values), by row: merged back as it was. */
  rest: Record<string, Record<string, unknown>>;
  /** Provenance by row: origin (index into ORIGINS), the row its content entered at, and for rewinds the restoring checkpoint. */
  provOrigin: Ints;
  provSince: Ints;
  provRestored: Record<string, { checkpoint: string; time: number; undo: boolean }>;
}

// Sizes and modes as int32: a double read from a Float64Array costs a heap number per record.
const FLOAT_COLUMNS = ['mtime', 'time'] as const;
const INT_COLUMNS = [
  'seq',
  'path',
  'hash',
  'phase',
  'origin',
  'session',
  'tool',
  'call',
  'by',
  'size',
  'mode',
  'provOrigin',
  'provSince',
] as const;
type NumberColumn = (typeof FLOAT_COLUMNS)[number] | (typeof INT_COLUMNS)[number];

/** The columns as bytes: a JSON line (strings, flags, rare values; ASCII), then the number columns, float64 first. */
export function snapBytes(c: SnapColumns, json: (v: unknown) => string): Buffer {
  const n = c.seq.length;
  const { strs, hashes, flags, rest, provRestored } = c;
  const head = Buffer.from(json({ n, hashBytes: hashes.length, strs, flags, rest, provRestored }) + '\n', 'latin1');
  const pad = (8 - (head.length % 8)) % 8;
  const nums = Buffer.alloc(FLOAT_COLUMNS.length * n * 8 + INT_COLUMNS.length * n * 4);
  let at = 0;
  for (const k of FLOAT_COLUMNS) {
    Buffer.from(Float64Array.from(c[k]).buffer).copy(nums, at);
    at += n * 8;
  }
  for (const k of INT_COLUMNS) {
    Buffer.from(Int32Array.from(c[k]).buffer).copy(nums, at);
    at += n * 4;
  }
  return Buffer.concat([head, Buffer.alloc(pad, 0x20), nums, hashes]);
}

/** The columns back from snapBytes' bytes; throws on anything malformed. */
export function snapsFromBytes(buf: Buffer): SnapColumns {
  const nl = buf.indexOf(0x0a);
  const meta = JSON.parse(buf.toString('latin1', 0, nl)) as Pick<SnapColumns, 'strs' | 'flags' | 'rest' | 'provRestored'> & {
    hashBytes: number;
    n: number;
  };
  const { n, hashBytes, ...rest } = meta;
  let at = nl + 1 + ((8 - ((nl + 1) % 8)) % 8);
  const numBytes = FLOAT_COLUMNS.length * n * 8 + INT_COLUMNS.length * n * 4;
  if (buf.length - at !== numBytes + hashBytes || hashBytes % 32 !== 0) throw new Error('snapshot columns of the wrong length');
  // Every column is a view of the bytes read, where they are 8-aligned (the index reader reads the
  // part into a buffer of its own, so they are); else of one aligned copy.
  const c = { ...rest, hashes: buf.subarray(at + numBytes) } as unknown as SnapColumns;
  let nums: ArrayBuffer;
  if ((buf.byteOffset + at) % 8 === 0) {
    nums = buf.buffer as ArrayBuffer;
    at += buf.byteOffset;
  } else {
    nums = new ArrayBuffer(numBytes);
    new Uint8Array(nums).set(buf.subarray(at, at + numBytes));
    at = 0;
  }
  for (const k of FLOAT_COLUMNS) {
    c[k] = new Float64Array(nums, at, n);
    at += n * 8;
  }
  for (const k of INT_COLUMNS) {
    c[k] = new Int32Array(nums, at, n);
    at += n * 4;
  }
  return c;
}

const ORIGINS: Origin[] = ['agent', 'shell', 'user', 'baseline'];
const USER = ORIGINS.indexOf('user');

const STRING_FIELDS = ['phase', 'origin', 'session', 'tool', 'call', 'by'] as const;
const SKIP_FLAG: Record<string, string> = { 'too-large': 't', unreadable: 'u', special: 's' };
const FLAG_SKIP: Record<string, SnapRecord['skipped']> = { t: 'too-large', u: 'unreadable', s: 'special' };
const HEX64 = /^[0-9a-f]{64}$/;

/** The values of a snapshot the columns cannot hold, by field (usually none: an empty object). */
function restOf(s: Sequenced<SnapRecord>): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  // A switch on the field, not Object.entries and a list search per field: this runs once per snapshot (60,000 at a rebuild).
  for (const k of Object.keys(s)) {
    const v = (s as unknown as Record<string, unknown>)[k];
    if (v === undefined) continue;
    switch (k) {
      case 't':
      case 'seq':
        continue;
      case 'path':
      case 'phase':
      case 'origin':
      case 'session':
      case 'tool':
      case 'call':
      case 'by':
        if (typeof v === 'string' && !v.includes('\0')) continue;
        break;
      case 'hash':
        if (v === null || (typeof v === 'string' && HEX64.test(v))) continue;
        break;
      case 'mtime':
      case 'time':
        if (typeof v === 'number' && Number.isFinite(v)) continue;
        break;
      case 'size':
      case 'mode':
        if (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0x7fffffff) continue;
        break;
      case 'link':
        if (v === true && !s.skipped) continue;
        break;
      case 'skipped':
        if (typeof v === 'string' && SKIP_FLAG[v] && s.link === undefined) continue;
        break;
    }
    rest[k] = v;
  }
  return rest;
}

export function encodeSnaps(snaps: readonly Sequenced<SnapRecord>[], provenance: (seq: number) => Provenance | undefined): SnapColumns {
  const strs: string[] = [];
  const strIndex = new Map<string, number>();
  const hashes: string[] = [];
  const hashIndex = new Map<string, number>();
  const intern = (s: string) => {
    let i = strIndex.get(s);
    if (i === undefined) strIndex.set(s, (i = strs.push(s) - 1));
    return i;
  };
  const c: Omit<SnapColumns, NumberColumn> & Record<NumberColumn, number[]> = {
    strs: '',
    hashes: Buffer.alloc(0),
    seq: [],
    path: [],
    hash: [],
    phase: [],
    origin: [],
    session: [],
    tool: [],
    call: [],
    by: [],
    size: [],
    mtime: [],
    mode: [],
    time: [],
    flags: '',
    rest: {},
    provOrigin: [],
    provSince: [],
    provRestored: {},
  };
  const rowOf = new Map<number, number>();
  snaps.forEach((s, row) => rowOf.set(s.seq, row));
  let flags = '';
  snaps.forEach((s, row) => {
    const rest = restOf(s);
    c.seq.push(s.seq);
    c.path.push('path' in rest ? -1 : intern(s.path));
    if (s.hash === null || 'hash' in rest) c.hash.push(-1);
    else {
      let h = hashIndex.get(s.hash);
      if (h === undefined) hashIndex.set(s.hash, (h = hashes.push(s.hash) - 1));
      c.hash.push(h);
    }
    for (const f of STRING_FIELDS) {
      const v = s[f];
      c[f].push(typeof v === 'string' && !(f in rest) ? intern(v) : -1);
    }
    for (const f of ['mtime', 'time'] as const) c[f].push(typeof s[f] === 'number' && !(f in rest) ? s[f] : NaN);
    for (const f of ['size', 'mode'] as const) c[f].push(typeof s[f] === 'number' && !(f in rest) ? s[f] : -1);
    flags += 'skipped' in rest || 'link' in rest ? '-' : s.skipped ? SKIP_FLAG[s.skipped] : s.link ? 'l' : '-';
    if (Object.keys(rest).length) c.rest[row] = rest;
    const p = provenance(s.seq);
    c.provOrigin.push(p ? ORIGINS.indexOf(p.origin) : -1);
    c.provSince.push(p ? (rowOf.get(p.since.seq) ?? -1) : -1);
    if (p?.restoredBy) c.provRestored[row] = p.restoredBy;
  });
  c.strs = strs.join('\0');
  c.hashes = Buffer.from(hashes.join(''), 'hex');
  c.flags = flags;
  return c;
}

/**
 * The NUL-joined strings, each cut out when first asked for: a plan reads a few hundred of the
 * 30,000 (most are call ids), and splitting them all costs more than the rest of the decoding.
 */
class Strings {
  readonly length: number;
  /** Where each string starts; one more entry: the end of the text plus one. */
  private readonly at: Int32Array;
  private readonly cut: (string | undefined)[];

  constructor(private readonly joined: string) {
    let n = joined === '' ? 0 : 1;
    for (let i = joined.indexOf('\0'); i >= 0; i = joined.indexOf('\0', i + 1)) n++;
    this.length = n;
    this.at = new Int32Array(n + 1);
    let k = 1;
    for (let i = joined.indexOf('\0'); i >= 0; i = joined.indexOf('\0', i + 1)) this.at[k++] = i + 1;
    this.at[n] = joined.length + 1;
    this.cut = new Array<string | undefined>(n);
  }

  get(k: number): string | undefined {
    if (k < 0 || k >= this.length) return undefined;
    return (this.cut[k] ??= this.joined.slice(this.at[k]!, this.at[k + 1]! - 1));
  }
}

/**
 * A record with every field a row can hold, absent: one object shape for every row (absent fields
 * are undefined, as JSON drops them) — adding keys one by one costs many times more.
 */
function blankRecord(): Sequenced<SnapRecord> {
  return {
    t: 'snap',
    path: '',
    hash: null,
    size: undefined,
    mtime: undefined,
    mode: undefined,
    link: undefined,
    skipped: undefined,
    phase: undefined,
    origin: undefined,
    by: undefined,
    session: undefined,
    tool: undefined,
    call: undefined,
    time: undefined,
    seq: 0,
  } as unknown as Sequenced<SnapRecord>;
}

/** A row read in place (SnapRows.view): the fields of its record, its call id read from the columns when asked for. */
class RowView {
  t = 'snap' as const;
  path = '';
  hash: string | null = null;
  size: number | undefined = undefined;
  mtime: number | undefined = undefined;
  mode: number | undefined = undefined;
  link: true | undefined = undefined;
  skipped: SnapRecord['skipped'] = undefined;
  phase: SnapRecord['phase'] | undefined = undefined;
  origin: SnapRecord['origin'] = undefined;
  by: string | undefined = undefined;
  session: string | undefined = undefined;
  tool: string | undefined = undefined;
  time: number | undefined = undefined;
  seq = 0;
  // Private fields: not enumerable, so the view reads (and serialises) as a record.
  readonly #rows: SnapRows;
  #row = -1;

  constructor(rows: SnapRows) {
    this.#rows = rows;
  }

  at(row: number): void {
    this.#row = row;
  }

  get call(): string | undefined {
    return this.#rows.callOf(this.#row);
  }
}

/**
 * The records of decoded columns, each built on first use: a plan to a recent checkpoint needs the
 * snapshots of a few paths, not all 60,000.
 */
export class SnapRows {
  readonly n: number;
  private readonly strs: Strings;
  /** Each distinct hash string made once, when a record first names it, and shared. */
  private readonly hashOf: (string | undefined)[];
  private readonly built: (Sequenced<SnapRecord> | undefined)[];

  /** Throws when the columns do not fit together. */
  constructor(readonly c: SnapColumns) {
    const n = (this.n = c.seq.length);
    const cols = [
      c.path,
      c.hash,
      c.size,
      c.mtime,
      c.mode,
      c.time,
      c.phase,
      c.origin,
      c.session,
      c.tool,
      c.call,
      c.by,
      c.provOrigin,
      c.provSince,
    ];
    if (cols.some((col) => !col || col.length !== n) || typeof c.flags !== 'string' || c.flags.length !== n || !Buffer.isBuffer(c.hashes))
      throw new Error('snapshot columns that do not fit together');
    this.strs = new Strings(c.strs);
    this.hashOf = new Array<string | undefined>(c.hashes.length / 32);
    for (let i = 0; i < n; i++)
      if (c.hash[i]! >= this.hashOf.length || c.path[i]! >= this.strs.length) throw new Error('snapshot columns that do not fit together');
    this.built = new Array<Sequenced<SnapRecord> | undefined>(n);
  }

  private byPath: Int32Array[] | undefined;
  private groupOf: Map<string, Int32Array> | undefined;

  /** Each path's row numbers in log order, one list per path (grouped once, without building records). */
  groups(): Int32Array[] {
    if (this.byPath) return this.byPath;
    const { c, n } = this;
    // A counting sort on the interned path index; a path kept in `rest` (never in practice) is grouped by its string.
    const count = new Int32Array(this.strs.length + 1);
    const odd = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const p = c.path[i]!;
      if (p >= 0) count[p + 1]!++;
      else {
        const key = this.pathOf(i);
        const list = odd.get(key);
        if (list) list.push(i);
        else odd.set(key, [i]);
      }
    }
    for (let k = 1; k < count.length; k++) count[k]! += count[k - 1]!;
    const order = new Int32Array(count[count.length - 1]!);
    const fill = count.slice(0, -1);
    for (let i = 0; i < n; i++) {
      const p = c.path[i]!;
      if (p >= 0) order[fill[p]!++] = i;
    }
    const out: Int32Array[] = [];
    for (let p = 0; p + 1 < count.length; p++) if (count[p + 1]! > count[p]!) out.push(order.subarray(count[p]!, count[p + 1]!));
    for (const list of odd.values()) out.push(Int32Array.from(list));
    return (this.byPath = out);
  }

  /** The row numbers of `path`, in log order. */
  rowsOf(path: string): Int32Array {
    if (!this.groupOf) {
      this.groupOf = new Map();
      for (const g of this.groups()) this.groupOf.set(this.pathOf(g[0]!), g);
    }
    return this.groupOf.get(path) ?? new Int32Array(0);
  }

  /** The path of row `i` without building its record. */
  pathOf(i: number): string {
    const p = this.c.path[i]!;
    return p >= 0 ? this.strs.get(p)! : this.row(i).path;
  }

  /** Row `i`'s phase and session, without building its record. */
  phaseOf(i: number): SnapRecord['phase'] {
    const k = this.c.phase[i]!;
    return k >= 0 ? (this.strs.get(k) as SnapRecord['phase']) : this.row(i).phase;
  }

  sessionOf(i: number): string | undefined {
    const k = this.c.session[i]!;
    // -1: absent, or a value kept in `rest` (then only the record has it).
    return k >= 0 ? this.strs.get(k) : this.c.rest[i] ? this.row(i).session : undefined;
  }

  /** True when row `i`'s content is the user's (its provenance). */
  isUser(i: number): boolean {
    return this.c.provOrigin[i] === USER && this.provenance(i)?.origin === 'user';
  }

  row(i: number): Sequenced<SnapRecord> {
    return (this.built[i] ??= this.build(i));
  }

  all(): Sequenced<SnapRecord>[] {
    const out = new Array<Sequenced<SnapRecord>>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.row(i);
    return out;
  }

  private build(i: number): Sequenced<SnapRecord> {
    const s = this.fill(i, blankRecord());
    s.call = this.callOf(i);
    const more = this.c.rest[i];
    return more ? { ...s, ...more, seq: s.seq } : s;
  }

  /** Row `i`'s call id: one of ~30,000 distinct strings, cut out only when read. */
  callOf(i: number): string | undefined {
    return this.strs.get(this.c.call[i]!);
  }

  private readonly views: RowView[] = [];

  /**
   * Row `i` as a record that the next view with the same `slot` overwrites, not a new object: a
   * sweep over every row that reads each record at once and keeps none (rewindCounts) builds no
   * record per snapshot and keeps none alive for the GC. A row with values in `rest` is built.
   */
  view(i: number, slot: number): Sequenced<SnapRecord> {
    if (this.c.rest[i]) return this.row(i);
    const v = (this.views[slot] ??= new RowView(this));
    v.at(i);
    return this.fill(i, v as unknown as Sequenced<SnapRecord>);
  }

  /** Row `i`'s columns written into `s`: every field of a record without `rest` values but its call id. */
  private fill(i: number, s: Sequenced<SnapRecord>): Sequenced<SnapRecord> {
    const { c, strs } = this;
    const h = c.hash[i]!;
    const f = c.flags.charCodeAt(i);
    s.path = strs.get(c.path[i]!)!;
    s.hash = h < 0 ? null : (this.hashOf[h] ??= c.hashes.toString('hex', h * 32, h * 32 + 32));
    s.size = c.size[i]! < 0 ? undefined : c.size[i];
    s.mtime = Number.isNaN(c.mtime[i]) ? undefined : c.mtime[i];
    s.mode = c.mode[i]! < 0 ? undefined : c.mode[i];
    s.link = f === 0x6c ? true : undefined;
    s.skipped = f === 0x2d || f === 0x6c ? undefined : FLAG_SKIP[c.flags[i]!];
    s.phase = strs.get(c.phase[i]!) as SnapRecord['phase'];
    s.origin = strs.get(c.origin[i]!) as SnapRecord['origin'];
    s.by = strs.get(c.by[i]!);
    s.session = strs.get(c.session[i]!);
    s.tool = strs.get(c.tool[i]!);
    s.time = (Number.isNaN(c.time[i]) ? undefined : c.time[i]) as number;
    s.seq = c.seq[i]!;
    return s;
  }

  /** The provenance of row `i`, as the fold computed it. */
  provenance(i: number): Provenance | undefined {
    const o = this.c.provOrigin[i]!;
    const at = this.c.provSince[i]!;
    if (o < 0 || at < 0 || at >= this.n) return undefined;
    const from = this.row(at);
    const since: Provenance['since'] = { seq: from.seq, time: from.time, phase: from.phase };
    if (from.session !== undefined) since.session = from.session;
    const p: Provenance = { origin: ORIGINS[o]!, since };
    const restored = this.c.provRestored[i];
    if (restored) p.restoredBy = { ...restored };
    return p;
  }
}

/**
 * One path's snapshots as rewindCounts reads them: its rows of the index's columns (read a column
 * at a time, records as views, not built), then its snapshots in the log after the index.
 */
export class ColumnHistory implements SnapHistory {
  readonly length: number;

  constructor(
    private readonly snaps: SnapRows,
    private readonly rows: Int32Array,
    private readonly newer: readonly Sequenced<SnapRecord>[],
  ) {
    this.length = rows.length + newer.length;
  }

  seq(k: number): number {
    return k < this.rows.length ? this.snaps.c.seq[this.rows[k]!]! : this.newer[k - this.rows.length]!.seq;
  }

  phase(k: number): SnapRecord['phase'] {
    return k < this.rows.length ? this.snaps.phaseOf(this.rows[k]!) : this.newer[k - this.rows.length]!.phase;
  }

  session(k: number): string | undefined {
    return k < this.rows.length ? this.snaps.sessionOf(this.rows[k]!) : this.newer[k - this.rows.length]!.session;
  }

  record(k: number, slot: number): Sequenced<SnapRecord> {
    return k < this.rows.length ? this.snaps.view(this.rows[k]!, slot) : this.newer[k - this.rows.length]!;
  }
}
