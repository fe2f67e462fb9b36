#!/usr/bin/env node
// End-to-end tier: real clicks in the VS Code workbench (code-server + Debian Chromium, playwright-core),
// with this checkout loaded as a development extension. Screenshots go to test-output/e2e/.
//
//   node test/e2e/run.mjs [--grep RE] [--keep] [FILE.e2e.mjs ...]
//
// Each test/e2e/*.e2e.mjs file gets its own fresh code-server + Chromium + workspace copy + store, and exports
//   export const options = { settings?, fixture?, git?, probe?, prepare? }   // probe: also load test/e2e/probe-ext
//   export const tests = [{ name, run: async ({ page, wb, session, store, log }) => { ... } }]
// `store` is this workspace's store (`<storeDirectory>/<name>-<id>/`, the setting is its parent); `prepare({ store,
// workspace })` runs before VS Code starts (e.g. to leave a damaged store there).
// Tests in a file run in order in the same window. A failing test leaves <file>--<test>--FAILED.png.
// Each test has AGENT_REWIND_E2E_TEST_TIMEOUT seconds (default 120).
// Exit: 0 all passed, 1 failures, 2 harness error. Needs `npm run build` first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as H from '../harness/harness.mjs';
import { ensureChromium, ensureCodeServer } from '../../scripts/tools.mjs';
import { workbench, screenshotDir } from './workbench.mjs';
import { require as tsxRequire } from 'tsx/cjs/api';

const { workspaceStoreName } = tsxRequire('../../src/core/storeFiles/workspaceStore.ts', import.meta.url);

const argv = process.argv.slice(2);
const opt = (n) => {
  const i = argv.indexOf(n);
  return i >= 0 ? argv[i + 1] : undefined;
};
if (argv.includes('--keep')) process.env.AGENT_REWIND_KEEP_RUN = '1';
const grep = opt('--grep') || process.env.AGENT_REWIND_E2E_GREP;
const e2eDir = path.join(H.repoRoot, 'test/e2e');
const probeExt = path.join(e2eDir, 'probe-ext');
const testTimeoutSec = Number(process.env.AGENT_REWIND_E2E_TEST_TIMEOUT || 120);

async function runFile(file, counts) {
  const mod = await import(pathToFileURL(file).href);
  const base = path.basename(file, '.e2e.mjs');
  const tests = (mod.tests || []).filter((t) => !grep || new RegExp(grep).test(`${base} ${t.name}`));
  if (!tests.length) return;
  const o = mod.options || {};
  const runDir = H.makeRunDir({ prefix: `agent-rewind-e2e-${base}-` });
  const storeParent = path.join(runDir.dir, 'stores');
  const workspace = H.prepareWorkspace({ fixture: o.fixture, dest: path.join(runDir.dir, 'workspace'), git: !!o.git });
  const store = path.join(storeParent, workspaceStoreName(workspace));
  await o.prepare?.({ store, workspace });
  console.log(`\n${base}`);
  const session = await H.launch({
    runDir,
    workspace,
    extraExtensionDirs: o.probe ? [probeExt] : [],
    settings: { 'agentRewind.storeDirectory': storeParent, ...(o.settings || {}) },
    env: { AGENT_REWIND_TEST_STORE: storeParent, ...(o.env || {}) },
  });
  const page = session.page;
  page.setDefaultTimeout(30000);
  const wb = workbench(page);
  const log = (...a) => console.log('      ', ...a);
  try {
    await wb.ready();
    for (const t of tests) {
      const t0 = Date.now();
      try {
        let timer;
        await Promise.race([
          t.run({ page, wb, session, store, log }),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`test timed out after ${testTimeoutSec}s`)), testTimeoutSec * 1000);
          }),
        ]).finally(() => clearTimeout(timer));
        counts.passed++;
        console.log(`  ✔ ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
      } catch (e) {
        counts.failed++;
        const shot = await wb.screenshot(`${base}--${t.name}--FAILED`).catch(() => null);
        // CI shows the end of the output: the summary line says what was on screen when the test failed.
        const seen = await wb.whatShows().catch(() => 'unknown (the page did not answer)');
        console.log(
          `  ✘ ${t.name}\n      ${String(e?.stack || e)
            .split('\n')
            .slice(0, 12)
            .join('\n      ')}${shot ? `\n      screenshot: ${path.relative(H.repoRoot, shot)}` : ''}`,
        );
        counts.failures.push(`${base}: ${t.name} (the screen showed: ${seen})`);
      }
    }
  } finally {
    const act = await H.activationStatus(session.runDir, { wait: false });
    if (act.error)
      console.log(
        `      NOTE: activating agent-rewind.agent-rewind failed in this window:\n        ${act.error.split('\n').join('\n        ')}`,
      );
    if (counts.failed && session.logLines?.length) {
      const errs = session.logLines.filter((l) => /^\[(error|pageerror)\]/.test(l)).slice(-10);
      if (errs.length) console.log(`      workbench errors:\n      ${errs.join('\n      ')}`);
    }
    await session.close();
  }
}

async function main() {
  const t0 = Date.now();
  try {
    H.assertBuilt();
  } catch (e) {
    console.error(`[e2e] ${e.message}`);
    return 2;
  }
  await ensureChromium();
  await ensureCodeServer();
  H.startMemSampler();
  fs.mkdirSync(screenshotDir, { recursive: true });
  for (const f of fs.readdirSync(screenshotDir)) if (f.endsWith('--FAILED.png')) fs.rmSync(path.join(screenshotDir, f));
  // Named files: as given, or by bare name in test/e2e/.
  const files = argv
    .filter((a) => a.endsWith('.e2e.mjs'))
    .map((a) => (fs.existsSync(a) ? path.resolve(a) : path.join(e2eDir, path.basename(a))));
  for (const f of files)
    if (!fs.existsSync(f)) {
      console.error(`[e2e] no such test file: ${f}`);
      return 2;
    }
  if (!files.length)
    files.push(
      ...fs
        .readdirSync(e2eDir)
        .filter((f) => f.endsWith('.e2e.mjs'))
        .sort()
        .map((f) => path.join(e2eDir, f)),
    );
  const counts = { passed: 0, failed: 0, failures: [] };
  for (const f of files) await runFile(f, counts);
  console.log(`\nscreenshots in ${path.relative(H.repoRoot, screenshotDir)}/; peak memory: ${H.memReport()}`);
  for (const f of counts.failures) console.log(`FAILED: ${f}`);
  console.log(`e2e: ${counts.passed} passed, ${counts.failed} failed`);
  H.log(`e2e tier ${counts.failed ? 'FAILED' : 'passed'} in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  if (counts.passed + counts.failed === 0) {
    console.error('[e2e] no tests ran');
    return 2;
  }
  return counts.failed ? 1 : 0;
}

main().then(
  async (code) => {
    await H.cleanup();
    process.exit(code);
  },
  async (e) => {
    console.error(`[e2e] harness error: ${e?.stack || e}`);
    await H.cleanup();
    process.exit(2);
  },
);
