// Run by bench/timelineScale.mjs (node --import tsx) on its 10,000-checkpoint store: what the daily clean-up costs the extension host's memory at
// rest. The extension runs it in a child process of its own (dist/offHostWorker.js, the real bundle, started by
// workerClient.ts), which exits when it answers: a worker thread's heap was the host process's memory, and ending the
// thread did not give it back on Node 24 (211 → 340 MiB at rest). Prints JSON, in MiB
// of the process's resident set: before (a worker that answered storage counts), the peak while cleaning, and after
// the answer once the worker is gone.
import * as path from 'node:path';
import { WorkerClient } from '../src/extension/offHost/workerClient';

const [storeDir] = process.argv.slice(2);
const mib = () => process.memoryUsage().rss / 2 ** 20;
const never = () => Promise.reject(new Error('the worker must answer'));
const client = new WorkerClient(path.resolve(__dirname, '../dist/offHostWorker.js'), () => {});
const settle = () => new Promise((r) => setTimeout(r, 3000));
async function main(): Promise<void> {
  await client.usage(storeDir!, Date.now(), never);
  await settle();
  const before = mib();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, mib())), 20);
  // Nothing is old enough to drop (a day's retention in the log's own year): the clean-up still reads the log and every blob.
  await client.gc(storeDir!, 36500, Date.now(), {}, never);
  clearInterval(sampler);
  await settle();
  const after = mib();
  client.dispose();
  process.stdout.write(JSON.stringify({ before, peak, after }));
}

void main();
