// Run by bench/timelineScale.mjs (node --import tsx): what the Conversation view's refresh costs
// after an agent appended 10 lines to a big Claude Code transcript — the follower (only the new
// lines: TranscriptFollower) against a whole re-read (readTimeline, what every refresh did before).
// The transcript is the real fixture repeated with fresh ids to `mb` MB. Prints JSON: medians in ms.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readTimeline, TranscriptFollower } from '../src/agents/claude/transcriptTimeline';

const [mbArg, runsArg] = process.argv.slice(2);
const mb = Number(mbArg || 20);
const runs = Number(runsArg || 9);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const FIXTURE = path.resolve(__dirname, '../test/fixtures/transcripts/real-2.1.332-two-prompts.jsonl');
const base = fs.readFileSync(FIXTURE, 'utf8');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
let copy = 0;
/** The fixture's lines with every id made unique to this copy (a longer conversation, not the same one again). */
const fresh = (text: string) => {
  const n = (copy++).toString(16).padStart(12, '0');
  return text.replace(UUID, (u) => u.slice(0, 24) + n);
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-bench-transcript-'));
try {
  const file = path.join(dir, 'e1e7006b-3f22-4b47-a20b-3938f3f558ab.jsonl');
  const parts: string[] = [];
  for (let size = 0; size < mb * 1e6; size += base.length) parts.push(fresh(base));
  fs.writeFileSync(file, parts.join(''));
  const last10 = base.split('\n').slice(-11, -1).join('\n') + '\n';
  const follower = new TranscriptFollower(file);
  follower.timeline();
  const tail: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < runs; i++) {
    fs.appendFileSync(file, fresh(last10));
    let t = performance.now();
    const a = follower.timeline();
    tail.push(performance.now() - t);
    if (follower.lastRead !== 'tail') throw new Error('the follower read the whole transcript');
    t = performance.now();
    const b = readTimeline(file);
    full.push(performance.now() - t);
    if (a.prompts.length !== b.prompts.length || a.leaf !== b.leaf) throw new Error('the follower and a whole read disagree');
  }
  process.stdout.write(JSON.stringify({ tail: median(tail), full: median(full), mb: fs.statSync(file).size / 1e6 }));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
