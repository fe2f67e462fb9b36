// The messages between the extension host and its worker threads (worker.ts), in one place so both
// sides agree: dry runs, the store's upkeep that reads every blob (clean-up, storage counts), the
// line counts of the views' file rows, and transcripts for the Conversation view. A plan crosses as
// a structured clone, without the log's records; a transcript as a change against what the host
// holds (transcriptOutline.ts).
import type { EffectOverride } from '../../core/storeFiles/config';
import type { GcLimits, GcReport } from '../../core/upkeep/gc';
import type { Plan, PlanOptions } from '../../core/rewind/plan';
import type { LineStats } from '../../core/timeline/lineStats';
import type { StorageUse } from '../../core/upkeep/storageUse';
import type { OutlineDelta } from './transcriptOutline';
import { type ErrorCode, type ErrorDetails } from '../../core/errors';

/** What a dry run asks: the options the preview and the commands use (never `records`: the worker reads the log itself). */
export type WorkerPlanOptions = Pick<PlanOptions, 'paths' | 'sessions' | 'noGit' | 'noStats'>;

export interface PlanRequest {
  type: 'plan';
  id: number;
  storeDir: string;
  target: string;
  options: WorkerPlanOptions;
}

/** Clean-up (core/upkeep/gc.ts): checkpoints older than `keepDays` at `now`, and the oldest beyond the limits. */
export interface GcRequest {
  type: 'gc';
  id: number;
  storeDir: string;
  keepDays: number;
  now: number;
  limits: GcLimits;
}

/** Storage counts by session and by age (core/upkeep/storageUse.ts). */
export interface UsageRequest {
  type: 'usage';
  id: number;
  storeDir: string;
  now: number;
}

/** A transcript's outline, as a change against the version `base` the host holds (null: none). */
export interface OutlineRequest {
  type: 'outline';
  id: number;
  file: string;
  base: string | null;
  /** The store's effect overrides (config.json), which classify the tool calls. */
  overrides: EffectOverride[];
}

/** +/- counts of changes between stored contents (hash pairs; null: no file), for the views' file rows. */
export interface StatsRequest {
  type: 'stats';
  id: number;
  storeDir: string;
  pairs: [string | null, string | null][];
}

/**
 * The timeline index written (or rewritten) now when it is missing or behind the log, ahead of the first dry run: the
 * host reads the log itself and asks nothing of the index, so a window on a store only hooks wrote has none. Run in
 * the upkeep process (workerClient.ts), as a clean-up is.
 */
export interface IndexRequest {
  type: 'index';
  id: number;
  storeDir: string;
}

export type ToWorker = PlanRequest | GcRequest | UsageRequest | OutlineRequest | StatsRequest | IndexRequest;

/** A plan without `records` (the whole log: it stays in the worker). */
export type PlainPlan = Omit<Plan, 'records'>;

export type FromWorker =
  | { type: 'plan'; id: number; plan: PlainPlan }
  | { type: 'gc'; id: number; report: GcReport }
  | { type: 'usage'; id: number; usage: StorageUse }
  | { type: 'outline'; id: number; delta: OutlineDelta }
  | { type: 'stats'; id: number; stats: LineStats[] }
  | { type: 'index'; id: number }
  | { type: 'failed'; id: number; message: string; code?: ErrorCode; details?: ErrorDetails[ErrorCode] };

/** The request for a plan, with only the options a worker understands. */
export function planRequest(id: number, storeDir: string, target: string, opts: WorkerPlanOptions): PlanRequest {
  const options: WorkerPlanOptions = {};
  if (opts.paths) options.paths = [...opts.paths];
  if (opts.sessions) options.sessions = [...opts.sessions];
  if (opts.noGit) options.noGit = true;
  if (opts.noStats) options.noStats = true;
  return { type: 'plan', id, storeDir, target, options };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function isToWorker(m: unknown): m is ToWorker {
  if (!isObject(m) || typeof m.id !== 'number') return false;
  if (m.type === 'outline')
    return typeof m.file === 'string' && (m.base === null || typeof m.base === 'string') && Array.isArray(m.overrides);
  if (typeof m.storeDir !== 'string') return false;
  if (m.type === 'plan') return typeof m.target === 'string' && isObject(m.options);
  if (m.type === 'gc')
    return (
      typeof m.keepDays === 'number' &&
      typeof m.now === 'number' &&
      isObject(m.limits) &&
      (m.limits.maxBytes === undefined || typeof m.limits.maxBytes === 'number')
    );
  if (m.type === 'stats') return Array.isArray(m.pairs);
  if (m.type === 'index') return true;
  return m.type === 'usage' && typeof m.now === 'number';
}

export function isFromWorker(m: unknown): m is FromWorker {
  if (!isObject(m) || typeof m.id !== 'number') return false;
  if (m.type === 'plan') return isObject(m.plan) && Array.isArray((m.plan as Record<string, unknown>).files);
  if (m.type === 'gc') return isObject(m.report) && typeof (m.report as Record<string, unknown>).bytesFreed === 'number';
  if (m.type === 'usage') return isObject(m.usage) && Array.isArray((m.usage as Record<string, unknown>).sessions);
  if (m.type === 'stats') return Array.isArray(m.stats);
  if (m.type === 'outline') return isObject(m.delta) && typeof (m.delta as Record<string, unknown>).version === 'string';
  if (m.type === 'index') return true;
  return m.type === 'failed' && typeof m.message === 'string';
}
