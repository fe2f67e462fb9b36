// The off-host worker's plans (a real worker thread running src/extension/offHost/worker.ts) and its client:
// a plan equal to the host's own, a newer request cancelling an older, a caller's token cancelling
// its own, and a worker that cannot start or dies: plans run on the host instead, said once. Clean-up
// and storage counts run there too, equal to the host's, and a clean-up under way outlives dispose.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { gc } from '../../src/core/upkeep/gc';
import { makePlan } from '../../src/core/rewind/plan';
import { storageUse } from '../../src/core/upkeep/storageUse';
import { Store } from '../../src/core/store';
import { verifyStore } from '../../src/core/upkeep/verify';
import { type Cancellation, WorkerClient } from '../../src/extension/offHost/workerClient';
import { isFromWorker, isToWorker, type PlainPlan, planRequest } from '../../src/extension/offHost/protocol';
import { answer } from '../../src/extension/offHost/worker';
import { LogBuilder } from '../helpers/records';
import { workerScript } from '../helpers/offHostWorker';
import { tempDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const root = tempDir('ar-planworker-');
after(() => fs.rmSync(root, { recursive: true, force: true }));
const WORKER = workerScript(root);

/** A real store: a.txt went v1 → v2 after checkpoint C1, b.txt was created after C2. */
function scenario(): { store: Store; ws: string } {
  const dir = fs.mkdtempSync(path.join(root, 's-'));
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  const store = Store.open(path.join(dir, 'store'), { create: true });
  store.addRoots([ws]);
  const [v1, v2, b] = ['one\n', 'one\ntwo\n', 'bee\n'].map((t) => store.blobs.put(Buffer.from(t)));
  const a = path.join(ws, 'a.txt');
  const bf = path.join(ws, 'b.txt');
  fs.writeFileSync(a, 'one\ntwo\n');
  fs.writeFileSync(bf, 'bee\n');
  const log = new LogBuilder()
    .checkpoint('C1')
    .snap(a, v1!, 'before')
    .snap(a, v2!, 'after')
    .checkpoint('C2')
    .snap(bf, null, 'before')
    .snap(bf, b!, 'after');
  fs.writeFileSync(store.logFile, log.text());
  return { store, ws };
}

const summary = (p: PlainPlan) => p.files.map((f) => [path.basename(f.path), f.action, f.insertions, f.deletions]);
const nothing = () => Promise.reject(new Error('the fallback must not run'));

test('the protocol: requests carry only the options a worker understands, and both sides check shapes', () => {
  const r = planRequest(3, '/s', 'C1', { paths: ['/w/a'], noGit: true, records: [] } as never);
  assert.deepEqual(r, { type: 'plan', id: 3, storeDir: '/s', target: 'C1', options: { paths: ['/w/a'], noGit: true } });
  assert.ok(isToWorker(r));
  assert.ok(!isToWorker({ type: 'plan', id: '3', storeDir: '/s', target: 'C1', options: {} }));
  assert.ok(isToWorker({ type: 'gc', id: 4, storeDir: '/s', keepDays: 30, now: 1, limits: { maxBytes: 10 } }));
  assert.ok(!isToWorker({ type: 'gc', id: 4, storeDir: '/s', keepDays: '30', now: 1, limits: {} }));
  assert.ok(isToWorker({ type: 'usage', id: 5, storeDir: '/s', now: 1 }));
  assert.ok(!isToWorker({ type: 'usage', id: 5, now: 1 }));
  assert.ok(isFromWorker({ type: 'gc', id: 4, report: { bytesFreed: 0 } }));
  assert.ok(!isFromWorker({ type: 'usage', id: 5, usage: {} }));
  assert.ok(isFromWorker({ type: 'failed', id: 1, message: 'x' }));
  assert.ok(!isFromWorker({ type: 'plan', id: 1, plan: {} }));
  assert.ok(!isFromWorker(null));
});

test('the worker answers as the host plans (without the records), and names a missing checkpoint', () => {
  const { store } = scenario();
  const got = answer(planRequest(1, store.dir, 'C1', { noGit: true }));
  assert.equal(got.type, 'plan');
  const { records: _r, ...here } = makePlan(store, 'C1', { noGit: true });
  assert.deepEqual(got.type === 'plan' && got.plan, here);
  const missing = answer(planRequest(2, store.dir, 'nope', {}));
  assert.equal(missing.type, 'failed');
  assert.match(missing.type === 'failed' ? missing.message : '', /No checkpoint "nope"/);
});

test('a dry run to a checkpoint reads the timeline index, as `plan` does; one with a path filter reads the log, and both equal the host', () => {
  const { store, ws } = scenario();
  const idx = path.join(store.dir, 'timeline.idx');
  assert.ok(!fs.existsSync(idx));
  const got = answer(planRequest(1, store.dir, 'C1', { noGit: true }));
  const { records: _r, ...here } = makePlan(store, 'C1', { noGit: true });
  assert.deepEqual(got.type === 'plan' && got.plan, here);
  assert.ok(fs.existsSync(idx), 'the worker went through the index (written on its first read)');
  // Appended after the index: read from the log's tail.
  fs.appendFileSync(
    store.logFile,
    JSON.stringify({ t: 'checkpoint', id: 'C3', kind: 'prompt', label: 'C3', time: 2_000_000, session: 's1' }) + '\n',
  );
  const c3 = answer(planRequest(2, store.dir, 'C3', { noGit: true }));
  assert.deepEqual(c3.type === 'plan' && c3.plan.files, []);
  const paths = [path.join(ws, 'a.txt')];
  const filtered = answer(planRequest(3, store.dir, 'C1', { noGit: true, paths }));
  const { records: _r2, ...hereFiltered } = makePlan(store, 'C1', { noGit: true, paths });
  assert.deepEqual(filtered.type === 'plan' && filtered.plan, hereFiltered);
  assert.deepEqual(summary(hereFiltered), [['a.txt', 'restore', 0, 1]]);
});

test('the index request writes the timeline index a store only hooks wrote has none of, through the real worker, and again once it is behind', async () => {
  const { store } = scenario();
  const idx = path.join(store.dir, 'timeline.idx');
  assert.ok(!fs.existsSync(idx));
  assert.ok(isToWorker({ type: 'index', id: 1, storeDir: store.dir }) && !isToWorker({ type: 'index', id: 1 }));
  assert.ok(isFromWorker({ type: 'index', id: 1 }));
  const client = new WorkerClient(WORKER, () => {});
  try {
    await client.index(store.dir);
    assert.equal(client.answers, 1, 'the worker answered');
    assert.ok(client.upkeepPid, 'in a process of its own (reading the whole log leaves no memory in a worker thread)');
    assert.ok(fs.existsSync(idx), 'written ahead of the first dry run');
    const first = fs.statSync(idx).mtimeMs;
    // 300 KB appended (more than the index lets lines after it grow to): written again.
    const line = JSON.stringify({ t: 'call', tool: 'Bash', call: 'x', summary: 'y'.repeat(1000), effect: 'rewindable', time: 3 }) + '\n';
    fs.appendFileSync(store.logFile, line.repeat(300));
    await client.index(store.dir);
    assert.ok(fs.statSync(idx).mtimeMs > first, 'brought up to date');
    const { records: _r, ...viaIndex } = makePlan(store, 'C1', { noGit: true, viaIndex: true });
    const { records: _r2, ...whole } = makePlan(store, 'C1', { noGit: true });
    assert.deepEqual(viaIndex, whole);
  } finally {
    client.dispose();
  }
});

test("line statistics take the `from` side from the disk when it holds the recorded content (the store's copy is not read)", () => {
  const { store, ws } = scenario();
  const { records: _r, ...before } = makePlan(store, 'C1', { noGit: true });
  // The store's copies of what is on disk now (a.txt v2, b.txt) go: the plan still counts exactly, from the disk.
  const latest = (p: string) =>
    store
      .read()
      .records.filter((r) => r.t === 'snap' && r.path === path.join(ws, p))
      .pop() as { hash: string };
  for (const p of ['a.txt', 'b.txt']) fs.rmSync(store.blobs.pathOf(latest(p).hash));
  const { records: _r2, ...after } = makePlan(store, 'C1', { noGit: true });
  assert.deepEqual(summary(after), summary(before));
  assert.ok(!after.files.some((f) => f.approximate), 'exact counts');
  // The user changed a.txt since: its bytes are not the recorded `from`, so the store's copy is asked for (gone: approximate).
  fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\nthree\n');
  const { records: _r3, ...edited } = makePlan(store, 'C1', { noGit: true });
  assert.equal(edited.files.find((f) => f.path.endsWith('a.txt'))?.approximate, true);
});

test('through a real worker thread: plans, reads appended lines, and a newer request of the same kind cancels the older', async () => {
  const { store, ws } = scenario();
  const lines: string[] = [];
  const client = new WorkerClient(WORKER, (l) => lines.push(l));
  try {
    const p = await client.plan(store.dir, 'C1', { noGit: true }, nothing);
    assert.deepEqual(summary(p), [
      ['a.txt', 'restore', 0, 1],
      ['b.txt', 'delete', 0, 1],
    ]);
    // The worker keeps the log parsed: a checkpoint appended since is found.
    fs.appendFileSync(
      store.logFile,
      JSON.stringify({ t: 'checkpoint', id: 'C3', kind: 'prompt', label: 'C3', time: 2_000_000, session: 's1' }) + '\n',
    );
    const older = client.plan(store.dir, 'C1', { noGit: true }, nothing, undefined, 'preview');
    const other = client.plan(store.dir, 'C2', { noGit: true }, nothing); // another caller's: not superseded
    const newer = client.plan(store.dir, 'C3', { noGit: true }, nothing, undefined, 'preview');
    await assert.rejects(older, { code: 'worker-cancelled' });
    assert.equal((await other).files.length, 1);
    assert.deepEqual((await newer).files, [], 'nothing changed after C3');
    assert.equal((await newer).target.id, 'C3');
    // A failure in the worker is the caller's error, not a broken worker.
    await assert.rejects(client.plan(store.dir, 'nope', {}, nothing), /No checkpoint "nope"/);
    assert.ok(client.offHost);
    assert.deepEqual(lines, [], 'nothing to report');
    assert.ok(fs.existsSync(path.join(ws, 'b.txt')), 'a plan writes nothing');
  } finally {
    client.dispose();
  }
});

test("a caller's token cancels its own plan (closing the preview), already cancelled or later", async () => {
  const { store } = scenario();
  const client = new WorkerClient(WORKER, () => {});
  const listeners: (() => void)[] = [];
  const token = (cancelled: boolean): Cancellation => ({
    isCancellationRequested: cancelled,
    onCancellationRequested: (l) => (listeners.push(l), { dispose: () => {} }),
  });
  try {
    await assert.rejects(client.plan(store.dir, 'C1', {}, nothing, token(true)), { code: 'worker-cancelled' });
    const running = client.plan(store.dir, 'C1', {}, nothing, token(false));
    for (const l of listeners) l();
    await assert.rejects(running, { code: 'worker-cancelled' });
    // The worker still serves the next plan.
    assert.equal((await client.plan(store.dir, 'C2', { noGit: true }, nothing)).files.length, 1);
  } finally {
    client.dispose();
  }
});

test('a worker that cannot start, or dies: the plan runs on the host, said once in the output', async () => {
  const { store } = scenario();
  const here = async () => {
    const { records: _r, ...p } = makePlan(store, 'C1', { noGit: true });
    return p;
  };
  const lines: string[] = [];
  const missing = new WorkerClient(path.join(root, 'no-such-worker.js'), (l) => lines.push(l));
  assert.deepEqual(summary(await missing.plan(store.dir, 'C1', {}, here)), summary(await here()));
  assert.equal(missing.offHost, false);
  await missing.plan(store.dir, 'C1', {}, here);
  assert.equal(lines.length, 1, 'said once');
  assert.match(lines[0]!, /plan worker is not available .*planned on the extension host/);
  missing.dispose();

  // A worker that starts and exits without answering: the request it held is planned on the host.
  const dying = path.join(root, 'dying-worker.js');
  fs.writeFileSync(dying, "require('node:worker_threads').parentPort.once('message', () => process.exit(3));\n");
  const told: string[] = [];
  const client = new WorkerClient(dying, (l) => told.push(l));
  assert.deepEqual(summary(await client.plan(store.dir, 'C1', {}, here)), summary(await here()));
  assert.match(told.join('\n'), /exited \(code 3\)/);
  client.dispose();
});

/** Three checkpoints a year ago, so a clean-up with 30 days' retention has something to drop. */
function oldScenario(): Store {
  const { store } = scenario();
  fs.appendFileSync(
    store.logFile,
    JSON.stringify({ t: 'checkpoint', id: 'C3', kind: 'prompt', label: 'C3', time: 3, session: 's1' }) + '\n',
  );
  return store;
}
const YEAR_LATER = 365 * 86400000;

test('clean-up and storage counts in the worker equal the host’s own on the same store', async () => {
  const inWorker = oldScenario();
  const onHost = Store.open(fs.mkdtempSync(path.join(root, 'copy-')) + '/store', { create: true });
  fs.cpSync(inWorker.dir, onHost.dir, { recursive: true });
  const client = new WorkerClient(WORKER, () => {});
  try {
    const usage = await client.usage(inWorker.dir, YEAR_LATER, nothing);
    assert.deepEqual(usage, storageUse(onHost, YEAR_LATER));
    assert.ok(usage.sessions.length > 0, 'something counted');
    const report = await client.gc(inWorker.dir, 30, YEAR_LATER, {}, nothing);
    assert.deepEqual(report, gc(onHost, 30, YEAR_LATER));
    assert.ok(report.droppedCheckpoints > 0, 'something cleaned');
    assert.equal(fs.readFileSync(inWorker.logFile, 'utf8'), fs.readFileSync(onHost.logFile, 'utf8'));
    // The worker's parsed log was rewritten under it: its next plan reads it whole.
    await assert.rejects(client.plan(inWorker.dir, 'C1', { noGit: true }, nothing), /No checkpoint "C1"/);
  } finally {
    client.dispose();
  }
});

test('a clean-up under way when the client is disposed finishes (its lock released, the store sound)', async () => {
  const store = oldScenario();
  const before = fs.readFileSync(store.logFile, 'utf8');
  const client = new WorkerClient(WORKER, () => {});
  const cleaning = client.gc(store.dir, 30, YEAR_LATER, {}, nothing);
  // Disposed at once: the request is already the running one (sent to the starting worker).
  client.dispose();
  await assert.rejects(cleaning, { code: 'worker-cancelled' }, 'nobody is told: the window is going away');
  await waitUntil(() => fs.readFileSync(store.logFile, 'utf8') !== before, 'the clean-up to run to its end after dispose');
  await waitUntil(() => !fs.existsSync(path.join(store.dir, 'lock')), "the store's lock to be released");
  assert.deepEqual(verifyStore(store).errors, []);
});

test('a clean-up runs in a process of its own that ends when it answers (its memory given back); the thread stays', async () => {
  const store = oldScenario();
  const told: string[] = [];
  const client = new WorkerClient(WORKER, (l) => told.push(l));
  const threadOf = () => (client as unknown as { worker: { threadId: number } | undefined }).worker?.threadId;
  try {
    await client.usage(store.dir, YEAR_LATER, nothing);
    const thread = threadOf();
    assert.ok(thread, 'a worker thread answered the storage counts and stays for the next request');
    const report = await client.gc(store.dir, 30, YEAR_LATER, {}, nothing);
    assert.ok(report.droppedCheckpoints > 0, 'it cleaned');
    const pid = client.upkeepPid;
    assert.ok(pid && pid !== process.pid, 'in a child process');
    await waitUntil(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the clean-up’s process to exit');
    assert.equal(threadOf(), thread, 'the thread that plans was not the one that cleaned');
    assert.deepEqual(await client.usage(store.dir, YEAR_LATER, nothing), storageUse(store, YEAR_LATER), 'the thread answers on');
    // A second clean-up: a new process.
    await client.gc(store.dir, 30, YEAR_LATER, {}, nothing);
    assert.ok(client.upkeepPid && client.upkeepPid !== pid, 'a new process');
    assert.ok(client.offHost, 'its end was no failure');
    assert.deepEqual(told, [], 'nothing said');
  } finally {
    client.dispose();
  }
});
