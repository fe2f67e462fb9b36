// The messages between the extension host and its plan worker (a worker thread: planWorker.ts), in
// one place so both sides agree. A plan crosses as a structured clone, without the log's records.
import type { Plan, PlanOptions } from '../../core/rewind/dryRun';

/** What a dry run asks: the options the preview and the commands use (never `records`: the worker reads the log itself). */
export type WorkerPlanOptions = Pick<PlanOptions, 'paths' | 'sessions' | 'noGit' | 'noStats'>;

export interface PlanRequest {
  type: 'plan';
  id: number;
  storeDir: string;
  target: string;
  options: WorkerPlanOptions;
}

export type ToWorker = PlanRequest;

/** A plan without `records` (the whole log: it stays in the worker). */
export type PlainPlan = Omit<Plan, 'records'>;

export type FromWorker = { type: 'plan'; id: number; plan: PlainPlan } | { type: 'failed'; id: number; message: string };

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
  return (
    isObject(m) &&
    m.type === 'plan' &&
    typeof m.id === 'number' &&
    typeof m.storeDir === 'string' &&
    typeof m.target === 'string' &&
    isObject(m.options)
  );
}

export function isFromWorker(m: unknown): m is FromWorker {
  if (!isObject(m) || typeof m.id !== 'number') return false;
  if (m.type === 'plan') return isObject(m.plan) && Array.isArray((m.plan as Record<string, unknown>).files);
  return m.type === 'failed' && typeof m.message === 'string';
}
