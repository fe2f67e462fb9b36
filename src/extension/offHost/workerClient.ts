// The host side of an off-host worker (worker.ts): one worker thread, one request at a time (plans,
// storage counts; or the views' transcripts and line counts; a clean-up in a child process of its own). A newer request of the same
// kind (the preview's) cancels an older one (still queued: never sent; under way: its answer is
// dropped); a caller's token cancels its own. A worker that cannot start, or dies, is not retried: requests run on the extension host
// instead (the caller's fallback), said once in the output channel. No vscode here: unit-testable.
import { type ChildProcess, fork } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import type { GcLimits, GcReport } from '../../core/upkeep/gc';
import type { EffectOverride } from '../../core/storeFiles/config';
import type { LineStats } from '../../core/timeline/lineStats';
import type { StorageUse } from '../../core/upkeep/storageUse';
import { type FromWorker, isFromWorker, type PlainPlan, planRequest, type ToWorker, type WorkerPlanOptions } from './protocol';
import type { OutlineDelta } from './transcriptOutline';
import { AgentRewindError } from '../../core/errors';

const PLAN_ROLE = {
  name: 'plan',
  fallback: 'rewinds are planned on the extension host, which may pause the window on a large store.',
};

/** The part of a cancellation token the client needs (vscode.CancellationToken fits). */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

interface Pending {
  id: number;
  supersede: string | undefined;
  /** The message for the worker, given this request's id. */
  message(id: number): ToWorker;
  /** Clean-up: holds the store's lock and rewrites the log, so it is never cut off midway. */
  upkeep?: boolean;
  resolve(v: unknown): void;
  reject(e: Error): void;
  fallback(): Promise<unknown>;
}

export class WorkerClient {
  private worker: Worker | undefined;
  /** Why the worker is not used (it failed to start or died): plans run on the host. */
  private broken: string | undefined;
  private nextId = 1;
  private running: Pending | undefined;
  private queue: Pending[] = [];
  /** Answers the worker gave (the integration tier checks that the real bundle answers). */
  answers = 0;
  /**
   * The process a clean-up or storage count runs in (worker.ts as a child process, one per request). They read
   * the whole log and every blob: hundreds of MB at 10,000 checkpoints, which a worker thread's end does not
   * give back to the system on every Node (measured on Node 24: 211 → 340 MiB at rest after one clean-up in a
   * thread that was then ended; the same clean-up in a child process: nothing stays).
   */
  private child: ChildProcess | undefined;
  /** The last upkeep process's id (the tests check it ended). */
  upkeepPid: number | undefined;
  /** An upkeep process disposed of before its request was written to it: disconnected once it was. */
  private leaving: ChildProcess | undefined;
  private readonly delivered = new WeakSet<ChildProcess>();

  /** `role` names the worker in what the output channel is told ("plan", "view"). */
  constructor(
    private readonly workerFile: string,
    private readonly log: (line: string) => void,
    private readonly role: { name: string; fallback: string } = PLAN_ROLE,
  ) {}

  /** True while plans run in the worker (false once it failed: they run on the host). */
  get offHost(): boolean {
    return !this.broken;
  }

  /**
   * A dry run in the worker; `fallback` runs it on the host when the worker is unusable. Rejects
   * with a worker-cancelled error (core/errors.ts) when `token` cancels it, or a newer request with the same `supersede` key.
   */
  plan(
    storeDir: string,
    target: string,
    options: WorkerPlanOptions,
    fallback: () => Promise<PlainPlan>,
    token?: Cancellation,
    supersede?: string,
  ): Promise<PlainPlan> {
    return this.request((id) => planRequest(id, storeDir, target, options), fallback, token, supersede);
  }

  /** Clean-up (gc) in the worker: it reads every blob; `fallback` runs it on the host when the worker is unusable. */
  gc(storeDir: string, keepDays: number, now: number, limits: GcLimits, fallback: () => Promise<GcReport>): Promise<GcReport> {
    return this.request((id) => ({ type: 'gc', id, storeDir, keepDays, now, limits }), fallback, undefined, undefined, true);
  }

  /** Storage counts by session and age in the worker (a stat of every blob). */
  usage(storeDir: string, now: number, fallback: () => Promise<StorageUse>): Promise<StorageUse> {
    return this.request((id) => ({ type: 'usage', id, storeDir, now }), fallback);
  }

  /** +/- counts of stored content pairs (the views' file rows), in the worker: they read and diff blobs. */
  stats(storeDir: string, pairs: [string | null, string | null][], fallback: () => Promise<LineStats[]>): Promise<LineStats[]> {
    return this.request((id) => ({ type: 'stats', id, storeDir, pairs }), fallback);
  }

  /**
   * The timeline index brought up to date (protocol.ts IndexRequest), so the first preview does not wait for it: in a
   * process of its own, as a clean-up — writing it reads the whole log, and a worker thread would keep that memory
   * (measured: the extension host at rest 360 → 540 MiB at 10,000 checkpoints). Nothing on the host when the worker
   * is unusable: the first dry run writes it there anyway.
   */
  index(storeDir: string): Promise<void> {
    return this.request(
      (id) => ({ type: 'index', id, storeDir }),
      () => Promise.resolve(),
      undefined,
      undefined,
      true,
    );
  }

  /** A transcript's outline as a change against the version the caller holds (transcriptOutline.ts). */
  outline(file: string, base: string | null, overrides: EffectOverride[], fallback: () => Promise<OutlineDelta>): Promise<OutlineDelta> {
    return this.request((id) => ({ type: 'outline', id, file, base, overrides }), fallback);
  }

  private request<T>(
    message: (id: number) => ToWorker,
    fallback: () => Promise<T>,
    token?: Cancellation,
    supersede?: string,
    upkeep = false,
  ): Promise<T> {
    if (this.broken) return fallback();
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, supersede, message, upkeep, resolve: resolve as (v: unknown) => void, reject, fallback };
      // Newer wins: whatever waits or runs for an older request of the same kind is for nobody now.
      if (supersede !== undefined) this.cancel(supersede);
      this.queue.push(p);
      if (token) {
        if (token.isCancellationRequested) return this.cancelOne(p);
        const sub = token.onCancellationRequested(() => this.cancelOne(p));
        const done = () => sub.dispose();
        p.resolve = (v) => (done(), resolve(v as T));
        p.reject = (e) => (done(), reject(e));
      }
      this.pump();
    });
  }

  /** Cancels the requests not answered yet: all of them, or those with this `supersede` key. */
  cancel(supersede?: string): void {
    for (const p of [...this.queue, this.running]) if (p && (supersede === undefined || p.supersede === supersede)) this.cancelOne(p);
  }

  private cancelOne(p: Pending): void {
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
    // A running plan cannot be interrupted mid-fold: its answer is dropped when it comes.
    if (this.running === p) this.running = { ...p, resolve: () => {}, reject: () => {} };
    p.reject(new AgentRewindError('worker-cancelled', {}));
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    try {
      const w = new Worker(this.workerFile);
      w.on('message', (m: unknown) => this.onMessage(m));
      // A worker retired after a clean-up (onMessage) ends on purpose: only the current one's end is a failure.
      w.on('error', (e) => w === this.worker && this.fail(`it failed: ${e.message}`));
      w.on('exit', (code) => w === this.worker && this.fail(`it exited (code ${code})`));
      this.worker = w;
      return w;
    } catch (e) {
      this.fail(`it could not start: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** A process of its own for one upkeep request: it ends when it answered (or, disposed, when its work is done). */
  private startProcess(): ChildProcess | undefined {
    try {
      // No inherited execArgv: an inspector flag of the extension host would make the child bind its port.
      const c = fork(this.workerFile, [], {
        execArgv: [],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        // ELECTRON_RUN_AS_NODE: in desktop VS Code process.execPath is Electron's; the child must run as Node (as language servers are forked).
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', AGENT_REWIND_UPKEEP_PROCESS: '1' },
      });
      c.on('message', (m: unknown) => this.onMessage(m));
      c.on('error', (e) => c === this.child && this.fail(`its process failed: ${e.message}`));
      c.on('exit', (code) => c === this.child && this.fail(`its process exited (code ${code})`));
      this.child = c;
      this.upkeepPid = c.pid;
      return c;
    } catch (e) {
      this.fail(`its process could not start: ${(e as Error).message}`);
      return undefined;
    }
  }

  private pump(): void {
    if (this.running || !this.queue.length || this.broken) return;
    if (this.queue[0]!.upkeep) {
      const c = this.startProcess();
      if (!c) return;
      const p = (this.running = this.queue.shift()!);
      c.send(p.message(p.id), () => {
        this.delivered.add(c);
        if (c === this.leaving) c.disconnect();
      });
      return;
    }
    const w = this.start();
    if (!w) return;
    const p = (this.running = this.queue.shift()!);
    w.postMessage(p.message(p.id));
  }

  private onMessage(m: unknown): void {
    if (!isFromWorker(m) || m.id !== this.running?.id) return;
    this.answers++;
    const p = this.running;
    this.running = undefined;
    settle(p, m);
    // The upkeep's process ends: disconnected, it exits (worker.ts), and its memory is the system's again.
    if (p.upkeep && this.child) {
      const done = this.child;
      this.child = undefined;
      done.disconnect();
    }
    this.pump();
  }

  /** The worker is gone: said once; what was waiting or running is planned on the host. */
  private fail(why: string): void {
    if (this.broken) return;
    this.broken = why;
    this.worker = undefined;
    this.log(`The ${this.role.name} worker is not available (${why}); ${this.role.fallback}`);
    for (const p of [this.running, ...this.queue]) if (p) p.fallback().then(p.resolve, p.reject);
    this.running = undefined;
    this.queue = [];
  }

  dispose(): void {
    this.cancel();
    const w = this.worker;
    const c = this.child;
    this.broken = 'disposed';
    this.worker = undefined;
    this.child = undefined;
    void w?.terminate();
    // A clean-up under way holds the store's lock (in its process's name) and rewrites the log: it finishes,
    // unanswered, and then its process exits (disconnected: worker.ts) — once its request was written to it.
    this.leaving = c;
    if (c && this.delivered.has(c)) c.disconnect();
  }
}

function settle(p: Pending, m: FromWorker): void {
  switch (m.type) {
    case 'failed':
      return p.reject(m.code && m.details ? new AgentRewindError(m.code, m.details) : new Error(m.message));
    case 'plan':
      return p.resolve(m.plan);
    case 'gc':
      return p.resolve(m.report);
    case 'usage':
      return p.resolve(m.usage);
    case 'stats':
      return p.resolve(m.stats);
    case 'outline':
      return p.resolve(m.delta);
    case 'index':
      return p.resolve(undefined);
  }
}
