// Snapshot records as columns, for the timeline index (timelineIndex.ts): strings interned, times
// as differences, every value a record can hold kept (what the columns do not hold goes to `rest`),
// and each snapshot's provenance (provenance.ts) as computed over the whole log — so a plan does not
// run the provenance fold over 60,000 snapshots again. Decoding 60,000 records costs a few ms.
import type { Provenance } from './provenance';
import type { Origin, Sequenced, SnapRecord } from './records';

/** Snapshots as columns. Strings are indexes into `strs` (NUL-joined; -1: absent); numbers null: absent. */
export interface SnapColumns {
  strs: string;
  /** 64 hex digits per distinct hash. */
  hashes: string;
  seq: number[];
  path: number[];
  /** Index into `hashes` / 64; -1: null. */
  hash: number[];
  phase: number[];
  origin: number[];
  session: number[];
  tool: number[];
  call: number[];
  by: number[];
  size: (number | null)[];
  mtime: (number | null)[];
  mode: (number | null)[];
  time: (number | null)[];
  /** One character per snapshot: '-', 'l' link, 't' too-large, 'u' unreadable, 's' special. */
  flags: string;
  /** Anything the columns do not hold (dirs, unusual values), by row: merged back as it was. */
  rest: Record<string, Record<string, unknown>>;
  /** Provenance by row: origin (index into ORIGINS), the row its content entered at, and for rewinds the restoring checkpoint. */
  provOrigin: number[];
  provSince: number[];
  provRestored: Record<string, { checkpoint: string; time: number; undo: boolean }>;
}

const ORIGINS: Origin[] = ['agent', 'shell', 'user', 'baseline'];

const STRING_FIELDS = ['phase', 'origin', 'session', 'tool', 'call', 'by'] as const;
const NUMBER_FIELDS = ['size', 'mtime', 'mode', 'time'] as const;
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
  const c: SnapColumns = {
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
  const prev = { time: 0, mtime: 0 };
  snaps.forEach((s, row) => {
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === 't' || k === 'seq' || v === undefined) continue;
      if (k === 'path' && typeof v === 'string' && !v.includes('\0')) continue;
      if (k === 'hash' && (v === null || (typeof v === 'string' && HEX64.test(v)))) continue;
      if ((STRING_FIELDS as readonly string[]).includes(k) && typeof v === 'string' && !v.includes('\0')) continue;
      if ((NUMBER_FIELDS as readonly string[]).includes(k) && typeof v === 'number' && Number.isFinite(v)) continue;
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
    for (const f of NUMBER_FIELDS) {
      const v = s[f];
      if (typeof v !== 'number' || f in rest) c[f].push(null);
      else if (f === 'time' || f === 'mtime') {
        // Differences from the previous row's: small numbers, a third of the bytes to parse.
        c[f].push(v - prev[f]);
        prev[f] = v;
      } else c[f].push(v);
    }
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
  if (cols.some((col) => !Array.isArray(col) || col.length !== n) || flags.length !== n) return null;
  const strs = c.strs === '' ? [] : c.strs.split('\0');
  const str = (i: number) => (i >= 0 ? strs[i] : undefined);
  const out: Sequenced<SnapRecord>[] = new Array(n);
  let t = 0;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const h = hash[i]!;
    const f = flags.charCodeAt(i);
    // One object shape for every row (absent fields are undefined, as JSON drops them): building
    // 60,000 records this way costs a few milliseconds, adding keys one by one many times that.
    const s = {
      t: 'snap',
      path: strs[pathCol[i]!]!,
      hash: h < 0 ? null : hashes.slice(h * 64, h * 64 + 64),
      size: size[i] ?? undefined,
      mtime: mtime[i] === null ? undefined : (m += mtime[i]!),
      mode: mode[i] ?? undefined,
      link: f === 0x6c ? true : undefined,
      skipped: f === 0x2d || f === 0x6c ? undefined : FLAG_SKIP[flags[i]!],
      phase: str(phase[i]!),
      origin: str(origin[i]!),
      by: str(by[i]!),
      session: str(session[i]!),
      tool: str(tool[i]!),
      call: str(call[i]!),
      time: time[i] === null ? undefined : (t += time[i]!),
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
