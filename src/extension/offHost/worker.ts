// The off-host worker: a worker thread (its own bundle, dist/offHostWorker.js) that runs dry runs off
// the extension host — reading the timeline index, or the log (only what was appended since its last plan), folding states,
// line statistics and asking git — the storage counts, and
// what the views need: the line counts of their file rows and the transcripts of the Conversation
// view (only what was appended; sent as changes). All synchronously here, where blocking stalls
// nobody. The clean-up, which reads the whole log and every blob, runs in this same file started as a child
// process of its own (workerClient.ts), whose memory goes back to the system when it exits. The extension runs two: one plans and keeps the store, one serves the views, so a long
// clean-up never holds the views up.
import { parentPort } from 'node:worker_threads';
import { gc } from '../../core/upkeep/gc';
import { storedLineStats } from '../../core/timeline/lineStats';
import { IncrementalLog } from '../../core/storeFiles/logTail';
import { makePlan, plansViaIndex } from '../../core/rewind/plan';
import { storageUse } from '../../core/upkeep/storageUse';
import { Store } from '../../core/store';
import { type FromWorker, isToWorker, type ToWorker } from './protocol';
import { OutlineSender } from './transcriptOutline';
import { AgentRewindError } from '../../core/errors';

/** Each store's log as parsed so far (one store per window; kept across plans; a clean-up's rewrite is read whole). */
const logs = new Map<string, IncrementalLog>();
/** Each transcript as parsed so far, and what was last sent of it. */
const outlines = new Map<string, OutlineSender>();

export function answer(req: ToWorker): FromWorker {
  try {
    if (req.type === 'outline') {
      let sender = outlines.get(req.file);
      if (!sender) outlines.set(req.file, (sender = new OutlineSender(req.file)));
      return { type: 'outline', id: req.id, delta: sender.next(req.base, req.overrides) };
    }
    // Opened per request: store.json (roots) and config.json are the host's to change between them.
    const store = Store.open(req.storeDir);
    if (req.type === 'gc') return { type: 'gc', id: req.id, report: gc(store, req.keepDays, req.now, req.limits) };
    if (req.type === 'usage') return { type: 'usage', id: req.id, usage: storageUse(store, req.now) };
    if (req.type === 'index') {
      store.timeline(); // reads the index, and writes it when it is missing or behind the log
      return { type: 'index', id: req.id };
    }
    if (req.type === 'stats') {
      const content = (h: string) => store.content(h);
      return { type: 'stats', id: req.id, stats: req.pairs.map(([from, to]) => storedLineStats(content, from, to)) };
    }
    // A dry run to a checkpoint reads the timeline index, as `plan` does (10,000 checkpoints: the index's
    // columns, not 100,000 parsed lines held for the window's life); the others read the log, parsed once and kept.
    if (plansViaIndex(req.target, req.options)) {
      logs.delete(store.dir); // a log parsed for an earlier plan of the other kind: not held as well
      const { records: _records, ...plan } = makePlan(store, req.target, { ...req.options, viaIndex: true });
      return { type: 'plan', id: req.id, plan };
    }
    let log = logs.get(store.dir);
    if (!log) logs.set(store.dir, (log = new IncrementalLog(store.logFile)));
    const { records: _records, ...plan } = makePlan(store, req.target, { ...req.options, records: log.read().records });
    return { type: 'plan', id: req.id, plan };
  } catch (e) {
    // An Agent Rewind error keeps its code across the thread: the host says it in the user's language.
    const known = e instanceof AgentRewindError ? { code: e.code, details: e.details } : {};
    return { type: 'failed', id: req.id, message: (e as Error).message, ...known };
  }
}

parentPort?.on('message', (m: unknown) => {
  if (isToWorker(m)) parentPort!.postMessage(answer(m));
});

// As the child process a clean-up or storage count runs in (workerClient.ts): one answer, then it exits when
// the host disconnects — after the work under way, which is never cut off (a clean-up holds the store's lock).
if (!parentPort && process.send && process.env.AGENT_REWIND_UPKEEP_PROCESS === '1') {
  process.on('message', (m: unknown) => {
    if (!isToWorker(m)) return;
    const a = answer(m);
    if (process.connected) process.send!(a);
  });
  process.on('disconnect', () => process.exit(0));
}
