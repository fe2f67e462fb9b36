// `npm test`: every tier, in order, stopping at the first that fails. Each tier installs what it
// needs itself (scripts/tools.mjs), so this works on a fresh machine.
//   node scripts/test.mjs [tier ...]     tiers: build lint unit cli faults webview integration smoke-oldest e2e package compat
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Hooks run by the tests record by themselves: a resident recorder they started would outlive the
// test (it exits only when idle). The resident's own tests turn it on and stop every one they start.
process.env.AGENT_REWIND_RESIDENT ??= '0';

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...testFiles(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

const nodeTest =
  (dir, extra = []) =>
  () => {
    const files = testFiles(dir);
    if (files.length === 0) return { status: 1, why: `no tests found in ${dir}` };
    // The spec for the reader, TAP into a file for the counts: a tier that ran no test, or skipped one
    // on the platform it runs on (a test that never runs here proves nothing here), has failed.
    const tmp = mkdtempSync(join(tmpdir(), 'agent-rewind-tap-'));
    const tap = join(tmp, 'results.tap');
    try {
      const reporters = [
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        '--test-reporter=tap',
        `--test-reporter-destination=${tap}`,
      ];
      const failed = run(process.execPath, ['--import', 'tsx', '--test', ...reporters, ...extra, ...files]);
      if (failed) return failed;
      return countsFailure(dir, existsSync(tap) ? readFileSync(tap, 'utf8') : '');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  };

/** The run's last summary (`# tests N`, `# skipped N`, `# todo N`): null when it ran tests and skipped none. */
function countsFailure(dir, tap) {
  const count = (name) => {
    const all = [...tap.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))];
    return all.length ? Number(all[all.length - 1][1]) : NaN;
  };
  const [tests, skip, todo] = [count('tests'), count('skipped'), count('todo')];
  if ([tests, skip, todo].some(Number.isNaN)) return { status: 1, why: `${dir}: the test runner's summary (TAP) has no counts` };
  console.log(`${dir}: ${tests} tests, ${skip} skipped, ${todo} todo`);
  if (tests === 0) return { status: 1, why: `${dir} ran no test` };
  if (skip > 0 || todo > 0) {
    const which = tap
      .split('\n')
      .filter((l) => /^\s*(not )?ok \d+ .* # (SKIP|TODO)\b/.test(l))
      .map((l) => l.trim());
    return { status: 1, why: `${dir} skipped ${skip + todo} on this platform: ${which.join('; ')}` };
  }
  return null;
}

const TIERS = {
  build: () => run(process.execPath, ['scripts/build.mjs']) || run(process.execPath, ['node_modules/typescript/bin/tsc', '-b']),
  // The layering (eslint no-restricted-imports; the compiler checks it too) and the formatting.
  lint: () =>
    run(process.execPath, ['node_modules/eslint/bin/eslint.js', '.']) ||
    run(process.execPath, ['node_modules/prettier/bin/prettier.cjs', '--check', '.']),
  unit: nodeTest('test/unit'),
  cli: nodeTest('test/cli'),
  faults: nodeTest('test/faults', ['--test-concurrency=1']),
  webview: () => run(process.execPath, ['test/e2e/preview-standalone.mjs']),
  integration: () => run(process.execPath, ['test/integration/run.mjs']),
  // The oldest VS Code package.json claims (engines.vscode): activation, one preview, one rewind and its undo.
  'smoke-oldest': () => run(process.execPath, ['test/integration/run.mjs', '--oldest']),
  e2e: () => run(process.execPath, ['test/e2e/run.mjs']),
  package: () => run(process.execPath, ['test/package/run.mjs']),
  compat: () => run(process.execPath, ['test/compat/run.mjs']),
};

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  return r.status === 0 ? 0 : { status: r.status ?? 1, why: `${args.slice(0, 3).join(' ')} exited ${r.status ?? r.signal}` };
}

const wanted = process.argv.slice(2);
const tiers = wanted.length ? wanted : Object.keys(TIERS);
const timings = [];
for (const t of tiers) {
  const fn = TIERS[t];
  if (!fn) {
    console.error(`Unknown test tier "${t}"; tiers: ${Object.keys(TIERS).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${t} ===`);
  const t0 = Date.now();
  const r = fn();
  timings.push(`${t} ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  if (r) {
    console.error(`\nTier "${t}" failed: ${r.why}.`);
    console.error(`Timings: ${timings.join(', ')}`);
    process.exit(1);
  }
}
console.log(`\nAll tiers passed: ${timings.join(', ')}`);
