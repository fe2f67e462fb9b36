// `npm run bench`: every benchmark, medians and ratios measured in the same run.
//   BENCH_RUNS=<n> (default 25) repetitions per measurement; BENCH_ONLY=hooks|resident|watcher|shapes|fallbacks|observe|scan|timeline|vscode (vscode: not in the default run — real VS Code launches, minutes)
import { runHookBench } from './hooks.mjs';

// Every suite measures hooks that record by themselves (cold) unless it says otherwise: a resident
// recorder one of them started would serve the others. bench/resident.mjs measures warm against cold.
process.env.AGENT_REWIND_RESIDENT ??= '0';

const only = process.env.BENCH_ONLY;
const suites = [];
if (!only || only === 'hooks') suites.push(runHookBench);
if (!only || only === 'resident') suites.push((await import('./resident.mjs')).runResidentBench);
if (!only || only === 'watcher') suites.push((await import('./watcher.mjs')).runWatcherBench);
if (!only || only === 'shapes') suites.push((await import('./shapes.mjs')).runShapesBench);
if (!only || only === 'fallbacks') suites.push((await import('./fallbacks.mjs')).runFallbacksBench);
if (!only || only === 'observe') suites.push((await import('./observe.mjs')).runObserveBench);
if (!only || only === 'scan') suites.push((await import('./scan.mjs')).runScanBench);
if (!only || only === 'timeline') suites.push((await import('./timelineScale.mjs')).runTimelineScaleBench);
// Real VS Code launches take minutes and need code-server and Chromium: only when asked for.
if (only === 'vscode') suites.push((await import('./vscodeScale.mjs')).runVscodeScaleBench);
for (const suite of suites) {
  const r = await suite();
  console.log(`\n## ${r.title}`);
  for (const row of r.rows)
    console.log(
      `  ${row.name.padEnd(48)} ${Number.isFinite(row.ms) ? `${row.ms.toFixed(1)} ms`.padStart(10) : ''.padStart(10)}   ${row.vs ?? ''}`,
    );
}
