// `store.json`: the store's format version and identity. A reader that finds an older format
// migrates on read (defaults and renames only, never fails); a newer format is refused with a
// clear message, never guessed at.
import { AgentRewindError } from '../errors';

export const STORE_FORMAT = 1;

export interface StoreMeta {
  format: number;
  created: number;
  /** Workspace folders whose files this store may write. */
  roots: string[];
  /** Written by: the tool and version that created the store. */
  createdBy?: string;
}

/**
 * Brings a parsed store.json of any known format to the current one. Format 0 is the
 * pre-release layout (no `format` field, `workspaces` instead of `roots`).
 */
export function migrateMeta(raw: unknown): StoreMeta {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new AgentRewindError('store-format', { found: raw, supported: STORE_FORMAT });
  const r = raw as Record<string, unknown>;
  const format = r.format === undefined ? 0 : r.format;
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 0)
    throw new AgentRewindError('store-format', { found: format, supported: STORE_FORMAT });
  if (format > STORE_FORMAT) throw new AgentRewindError('store-format', { found: format, supported: STORE_FORMAT });
  const rootsRaw = format === 0 ? (r.workspaces ?? r.roots) : r.roots;
  const roots = Array.isArray(rootsRaw) ? rootsRaw.filter((x): x is string => typeof x === 'string') : [];
  const meta: StoreMeta = {
    format: STORE_FORMAT,
    created: typeof r.created === 'number' ? r.created : 0,
    roots,
  };
  if (typeof r.createdBy === 'string') meta.createdBy = r.createdBy;
  return meta;
}

/**
 * Record-level migration of format-0 lines (pre-release): `type`→`t`, `sha`→`hash`, `ts`→`time`.
 * Idempotent, so a log that mixes old lines with lines appended since reads as one format.
 */
export function migrateRecord(raw: Record<string, unknown>): Record<string, unknown> {
  if (typeof raw.t === 'string' && 'time' in raw) return raw; // current format: the common case
  const r = { ...raw };
  if (r.t === undefined && typeof r.type === 'string') {
    r.t = r.type;
    delete r.type;
  }
  if (r.hash === undefined && 'sha' in r) {
    r.hash = r.sha;
    delete r.sha;
  }
  if (r.time === undefined && typeof r.ts === 'number') {
    r.time = r.ts;
    delete r.ts;
  }
  if (r.t === 'checkpoint' && typeof r.label !== 'string') r.label = '';
  return r;
}
