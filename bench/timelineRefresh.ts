// Run by bench/timelineScale.mjs (node --import tsx): what the extension's refresh costs after an
// agent appended 10 lines to a big files.jsonl — the incremental reader (core/storeFiles/logTail.ts) against a
// full re-read and parse (what every refresh did before). Prints JSON: medians in ms.
import * as fs from 'node:fs';
import { readLog } from '../src/core/storeFiles/fileLog';
import { IncrementalLog } from '../src/core/storeFiles/logTail';

const [log, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 9);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const lines = fs.readFileSync(log, 'utf8').split('\n').slice(-11, -1).join('\n') + '\n';
const inc = new IncrementalLog(log);
inc.read();
const tail: number[] = [];
const full: number[] = [];
for (let i = 0; i < runs; i++) {
  fs.appendFileSync(log, lines);
  let t = performance.now();
  const r = inc.read();
  tail.push(performance.now() - t);
  if (inc.lastRead !== 'tail') throw new Error('the incremental reader read the whole log');
  t = performance.now();
  const f = readLog(log);
  full.push(performance.now() - t);
  if (f.records.length !== r.records.length) throw new Error('the incremental read and the full read disagree');
}
process.stdout.write(JSON.stringify({ tail: median(tail), full: median(full) }));
