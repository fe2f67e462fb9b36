// Snapshot records as columns, for the timeline index (timelineIndex.ts): strings interned, every value a record can hold kept (what the columns do not hold goes to `rest`),
// and each snapshot's provenance (provenance.ts) as computed over the whole log — so a plan does not
// run the provenance fold over 60,000 snapshots again. Stored as binary number columns after a
// small JSON part (strings, flags, rare values): reading them is a copy, not a parse, and
// decoding 60,000 records costs a few ms.
import type { Provenance } from './provenance';
import type { Origin, Sequenced, SnapRecord } from './records';

type Ints = number[] | Int32Array;
type Floats = number[] | Float64Array;

/** Snapshots as columns. Strings are indexes into `strs` (NUL-joined; -1: absent); sizes and modes -1, times NaN: absent. */
export interface SnapColumns {
  strs: string;
  /** 64 hex digits per distinct hash. */
  hashes: string;
  seq: Ints;
  path: Ints;
  /** Index into `hashes` / 64; -1: null. */
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
  const head = Buffer.from(json({ n, strs, hashes, flags, rest, provRestored }) + '\n', 'latin1');
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
  return Buffer.concat([head, Buffer.alloc(pad, 0x20), nums]);
}

/** The columns back from snapBytes' bytes; throws on anything malformed. */
export function snapsFromBytes(buf: Buffer): SnapColumns {
  const nl = buf.indexOf(0x0a);
  const meta = JSON.parse(buf.toString('latin1', 0, nl)) as Pick<SnapColumns, 'strs' | 'hashes' | 'flags' | 'rest' | 'provRestored'> & {
    n: number;
  };
  const n = meta.n;
  let at = nl + 1 + ((8 - ((nl + 1) % 8)) % 8);
  if (buf.length - at !== FLOAT_COLUMNS.length * n * 8 + INT_COLUMNS.length * n * 4)
    throw new Error('snapshot columns of the wrong length');
  // One copy into an aligned buffer; every column is a view of it.
  const nums = new ArrayBuffer(buf.length - at);
  new Uint8Array(nums).set(buf.subarray(at));
  at = 0;
  const c = { ...meta } as unknown as SnapColumns;
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

const STRING_FIELDS = ['phase', 'origin', 'session', 'tool', 'call', 'by'] as const;
const SKIP_FLAG: Record<string, string> = { 'too-large': 't', unreadable: 'u', special: 's' };
const FLAG_SKIP: Record<string, SnapRecord['skipped']> = { t: 'too-large', u: 'unreadable', s: 'special' };
const HEX64 = /^[0-9a-f]{64}$/;

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
    hashes: '',
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
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === 't' || k === 'seq' || v === undefined) continue;
      if (k === 'path' && typeof v === 'string' && !v.includes('\0')) continue;
      if (k === 'hash' && (v === null || (typeof v === 'string' && HEX64.test(v)))) continue;
      if ((STRING_FIELDS as readonly string[]).includes(k) && typeof v === 'string' && !v.includes('\0')) continue;
      if ((k === 'mtime' || k === 'time') && typeof v === 'number' && Number.isFinite(v)) continue;
      if ((k === 'size' || k === 'mode') && Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0x7fffffff) continue;
      if (k === 'link' && v === true && !s.skipped) continue;
      if (k === 'skipped' && typeof v === 'string' && SKIP_FLAG[v] && s.link === undefined) continue;
      rest[k] = v;
    }
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
  c.hashes = hashes.join('');
  c.flags = flags;
  return c;
}

export function decodeSnaps(c: SnapColumns): Sequenced<SnapRecord>[] | null {
  const n = c.seq.length;
  const { seq, path: pathCol, hash, size, mtime, mode, time, phase, origin, session, tool, call, by, flags, hashes, rest } = c;
  const cols = [pathCol, hash, size, mtime, mode, time, phase, origin, session, tool, call, by, c.provOrigin, c.provSince];
  if (cols.some((col) => !col || col.length !== n) || typeof flags !== 'string' || flags.length !== n) return null;
  const strs = c.strs === '' ? [] : c.strs.split('\0');
  const str = (i: number) => (i >= 0 ? strs[i] : undefined);
  // Each distinct hash string made once, shared by the records that name it.
  const hashOf: string[] = new Array(hashes.length / 64);
  for (let k = 0; k < hashOf.length; k++) hashOf[k] = hashes.slice(k * 64, k * 64 + 64);
  const out: Sequenced<SnapRecord>[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const h = hash[i]!;
    const f = flags.charCodeAt(i);
    // One object shape for every row (absent fields are undefined, as JSON drops them): building
    // 60,000 records this way costs a few milliseconds, adding keys one by one many times that.
    const s = {
      t: 'snap',
      path: strs[pathCol[i]!]!,
      hash: h < 0 ? null : hashOf[h]!,
      size: size[i]! < 0 ? undefined : size[i],
      mtime: Number.isNaN(mtime[i]) ? undefined : mtime[i],
      mode: mode[i]! < 0 ? undefined : mode[i],
      link: f === 0x6c ? true : undefined,
      skipped: f === 0x2d || f === 0x6c ? undefined : FLAG_SKIP[flags[i]!],
      phase: str(phase[i]!),
      origin: str(origin[i]!),
      by: str(by[i]!),
      session: str(session[i]!),
      tool: str(tool[i]!),
      call: str(call[i]!),
      time: Number.isNaN(time[i]) ? undefined : time[i],
      seq: seq[i]!,
    } as Sequenced<SnapRecord>;
    const more = rest[i];
    out[i] = more ? { ...s, ...more, seq: s.seq } : s;
  }
  return out;
}

/** The provenance of row `row` of decoded snapshots `rows` (their columns `c`), as the fold computed it. */
export function provenanceAt(c: SnapColumns, rows: readonly Sequenced<SnapRecord>[], row: number): Provenance | undefined {
  const o = c.provOrigin[row]!;
  const from = rows[c.provSince[row]!];
  if (o < 0 || !from) return undefined;
  const since: Provenance['since'] = { seq: from.seq, time: from.time, phase: from.phase };
  if (from.session !== undefined) since.session = from.session;
  const p: Provenance = { origin: ORIGINS[o]!, since };
  const restored = c.provRestored[row];
  if (restored) p.restoredBy = { ...restored };
  return p;
}
