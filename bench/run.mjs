// `npm run bench`: every benchmark, medians and ratios measured in the same run.
//   BENCH_RUNS=<n> (default 25) repetitions per measurement; BENCH_ONLY=hooks|observe|scan|timeline
import { runHookBench } from './hooks.mjs';

const only = process.env.BENCH_ONLY;
const suites = [];
if (!only || only === 'hooks') suites.push(runHookBench);
if (!only || only === 'observe') suites.push((await import('./observe.mjs')).runObserveBench);
if (!only || only === 'scan') suites.push((await import('./scan.mjs')).runScanBench);
if (!only || only === 'timeline') suites.push((await import('./timelineScale.mjs')).runTimelineScaleBench);
for (const suite of suites) {
  const r = await suite();
  console.log(`\n## ${r.title}`);
  for (const row of r.rows)
    console.log(
      `  ${row.name.padEnd(48)} ${Number.isFinite(row.ms) ? `${row.ms.toFixed(1)} ms`.padStart(10) : ''.padStart(10)}   ${row.vs ?? ''}`,
    );
}
