// User settings the hooks and the CLI read from `<store>/config.json` (the VS Code extension
// writes its settings there, so hooks started by any agent see the same values).
import type { Effect, Severity } from './records';
import { readJsonFile } from './jsonFile';

export interface EffectOverride {
  /** Exact tool name (e.g. `mcp__mail__send`) or a glob with `*` (e.g. `mcp__github__*`). */
  tool?: string;
  /** A regular expression tested against a shell command (each part of a chain). */
  command?: string;
  effect: Effect;
  /** For irreversible/compensatable: how sure the listing is (default `high`). */
  severity?: Severity;
  compensation?: string;
}

export interface StoreConfig {
  /** Files larger than this are recorded as "not snapshotted: too large". */
  maxFileBytes: number;
  /** Checkpoints older than this many days are dropped by `gc`. */
  keepDays: number;
  /** Extra glob patterns (gitignore syntax) never recorded by shell capture. */
  excludes: string[];
  /** Effect-class overrides, first match wins. */
  effects: EffectOverride[];
  /** Shell capture scans at most this many files; beyond it capture is off (and says so). */
  maxScanFiles: number;
  /** `gc` keeps the store at most this big, besides `keepDays` (0: no limit). */
  maxStorageBytes: number;
}

export const DEFAULT_CONFIG: StoreConfig = {
  maxFileBytes: 10 * 1024 * 1024,
  keepDays: 30,
  excludes: [],
  effects: [],
  maxScanFiles: 50000,
  maxStorageBytes: 0,
};

function num(v: unknown, def: number, min: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min ? v : def;
}

/** Reads config.json, falling back to defaults field by field: a bad setting never breaks recording. */
export function parseConfig(raw: unknown): StoreConfig {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const effects = Array.isArray(r.effects)
    ? (
        r.effects.filter(
          (e) =>
            typeof e === 'object' &&
            e !== null &&
            typeof (e as EffectOverride).effect === 'string' &&
            ['rewindable', 'compensatable', 'irreversible', 'none'].includes((e as EffectOverride).effect) &&
            (typeof (e as EffectOverride).tool === 'string' || typeof (e as EffectOverride).command === 'string'),
        ) as EffectOverride[]
      ).map((e) => {
        const o: EffectOverride = { effect: e.effect };
        if (typeof e.tool === 'string') o.tool = e.tool;
        if (typeof e.command === 'string') o.command = e.command;
        if (e.severity === 'high' || e.severity === 'low') o.severity = e.severity;
        if (typeof e.compensation === 'string') o.compensation = e.compensation;
        return o;
      })
    : [];
  return {
    maxFileBytes: num(r.maxFileBytes, DEFAULT_CONFIG.maxFileBytes, 0),
    keepDays: num(r.keepDays, DEFAULT_CONFIG.keepDays, 0),
    excludes: Array.isArray(r.excludes) ? r.excludes.filter((x): x is string => typeof x === 'string') : [],
    effects,
    maxScanFiles: num(r.maxScanFiles, DEFAULT_CONFIG.maxScanFiles, 0),
    maxStorageBytes: num(r.maxStorageBytes, DEFAULT_CONFIG.maxStorageBytes, 0),
  };
}

export function readConfig(file: string): StoreConfig {
  const raw = readJsonFile(file);
  return raw === undefined ? { ...DEFAULT_CONFIG } : parseConfig(raw);
}
