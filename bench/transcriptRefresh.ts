// Run by bench/timelineScale.mjs (node --import tsx): what the Conversation view costs the extension
// host with a big Claude Code transcript, read as the extension reads it — in the transcript worker
// (the built bundle, dist/offHostWorker.js), the host applying the change it sends back — against
// parsing on the host: following the file there (only the new lines: what the extension did before
// the worker) and a whole re-read. "Host busy" is the main thread's event-loop active time over the
// read (performance.eventLoopUtilization), so the worker's own work is not counted, but receiving
// and applying its answer is. The transcript is the real fixture repeated as one conversation to `mb` MB.
// Prints JSON: medians in ms.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readTimeline, TranscriptFollower } from '../src/agents/claude/transcriptTimeline';
import { TranscriptReader } from '../src/extension/offHost/transcriptReader';
import { WorkerClient } from '../src/extension/offHost/workerClient';

const [mbArg, runsArg] = process.argv.slice(2);
const mb = Number(mbArg || 20);
const runs = Number(runsArg || 9);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const FIXTURE = path.resolve(__dirname, '../test/fixtures/transcripts/real-2.1.332-two-prompts.jsonl');
const WORKER = path.resolve(__dirname, '../dist/offHostWorker.js');
const base = fs.readFileSync(FIXTURE, 'utf8');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const SESSION = 'e1e7006b-3f22-4b47-a20b-3938f3f558ab';
let copy = 0;
let last = '';
/**
 * The fixture's lines with every id made unique to this copy, its first message following the
 * previous copy's last: one long conversation (every prompt on the current chain), not copies side by side.
 */
const fresh = (text: string) => {
  const n = (copy++).toString(16).padStart(12, '0');
  let out = text.replace(UUID, (u) => (u === SESSION ? u : u.slice(0, 24) + n));
  if (last) out = out.replace('"parentUuid":null', `"parentUuid":"${last}"`);
  for (const m of out.matchAll(/"type":"(?:user|assistant)"[^\n]*?"uuid":"([^"]+)"/g)) last = m[1]!;
  return out;
};

/** Wall time and the main thread's busy time of `work`. */
async function measured<T>(work: () => Promise<T> | T): Promise<{ value: T; wall: number; busy: number }> {
  const elu = performance.eventLoopUtilization();
  const t = performance.now();
  const value = await work();
  const wall = performance.now() - t;
  return { value, wall, busy: performance.eventLoopUtilization(elu).active };
}

async function main(): Promise<void> {
  if (!fs.existsSync(WORKER)) throw new Error('dist/offHostWorker.js is missing: run `npm run build` first.');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-bench-transcript-'));
  const client = new WorkerClient(WORKER, (l) => process.stderr.write(l + '\n'), { name: 'transcript', fallback: '' });
  try {
    const file = path.join(dir, `${SESSION}.jsonl`);
    const parts: string[] = [];
    for (let size = 0; size < mb * 1e6; size += base.length) parts.push(fresh(base));
    fs.writeFileSync(file, parts.join(''));
    // The conversation goes on: each refresh follows the next 10 lines of a further copy.
    let pending: string[] = [];
    const next10 = () => {
      if (pending.length < 10) pending = [...pending, ...fresh(base).split('\n').filter(Boolean)];
      return pending.splice(0, 10).join('\n') + '\n';
    };
    const reader = new TranscriptReader(client);
    // Warm the worker (its start and module load are once per window), then the first read of this transcript.
    await reader.read(FIXTURE, []);
    const first = await measured(() => reader.read(file, []));
    const firstOnHost = await measured(() => readTimeline(file));
    const follower = new TranscriptFollower(file);
    follower.timeline();
    const r = { worker: [] as number[], workerWall: [] as number[], follower: [] as number[], full: [] as number[] };
    for (let i = 0; i < runs; i++) {
      fs.appendFileSync(file, next10());
      const w = await measured(() => reader.read(file, []));
      r.worker.push(w.busy);
      r.workerWall.push(w.wall);
      const f = await measured(() => follower.timeline());
      r.follower.push(f.busy);
      if (follower.lastRead !== 'tail') throw new Error('the follower read the whole transcript');
      const whole = await measured(() => readTimeline(file));
      r.full.push(whole.busy);
      if (w.value?.prompts.length !== whole.value.prompts.length || f.value.prompts.length !== whole.value.prompts.length)
        throw new Error('the worker, the follower and a whole read disagree');
    }
    if (!client.offHost) throw new Error('the transcript worker did not run');
    process.stdout.write(
      JSON.stringify({
        mb: fs.statSync(file).size / 1e6,
        prompts: first.value?.prompts.length,
        firstBusy: first.busy,
        firstWall: first.wall,
        firstOnHost: firstOnHost.busy,
        worker: median(r.worker),
        workerWall: median(r.workerWall),
        follower: median(r.follower),
        full: median(r.full),
      }),
    );
  } finally {
    client.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
