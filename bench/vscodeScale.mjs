/* global document -- the functions passed to waitForFunction run in the page */
// The extension at 10,000 checkpoints in a real VS Code (code-server + Chromium through the e2e
// harness), against a 10-checkpoint store in the same run (BENCH_ONLY=vscode; needs `npm run build`).
// Each launch is a fresh window on a fresh store (bench/scaleStore.mjs, 200 files) and measures, as a
// user meets them:
//   - first Files row: the click on the activity-bar icon (which activates the extension: the
//     workspace has no agent configuration) until a checkpoint row shows in the Files view;
//   - hook → row: a prompt hook of a new session exits (dist/cli.js, one process, as Claude Code
//     runs it) until its row shows;
//   - preview: the pick of a checkpoint in "Preview Rewind" until the preview has its plan
//     (aria-busy false); "Prompt 1" (the oldest prompt: every file the store has changed since) and,
//     on the big store, a prompt as far from the newest as the small store's oldest (the same files);
//   - the extension host's memory (RSS and PSS of its process, worker threads included), sampled each
//     500 ms: just before the daily clean-up (29 s after activation); at rest after it (SETTLE_S after
//     activation, the host quiet, then REST_S seconds with nothing asked); at rest again after the
//     previews (the plan worker's share); and its peak.
// Launches alternate small and large (BENCH_VSCODE_ROUNDS, default 3, each a small and a large one);
// rows are medians, ratios are of the medians; the load average before each launch is printed.
// BENCH_VSCODE_EXTENSION=<dir>: load the extension from that folder (a built copy of another commit, to
// compare) instead of this checkout.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { median } from './lib.mjs';
import { buildScaleStore } from './scaleStore.mjs';
import * as H from '../test/harness/harness.mjs';
import { ensureChromium, ensureCodeServer } from '../scripts/tools.mjs';
import { workbench } from '../test/e2e/workbench.mjs';
import { hookSession } from '../test/e2e/hookSession.mjs';
import { require as tsxRequire } from 'tsx/cjs/api';

const { workspaceStoreName } = tsxRequire('../src/core/storeFiles/workspaceStore.ts', import.meta.url);

const ROUNDS = Number(process.env.BENCH_VSCODE_ROUNDS || 3);
const LARGE = Number(process.env.BENCH_CHECKPOINTS || 10000);
const SMALL = 10;
const FILES = 200;
/** Seconds after activation by which the daily clean-up has started (extension.ts: 30 s) and had time to end. */
const SETTLE_S = Number(process.env.BENCH_VSCODE_SETTLE || 75);
/** Seconds with nothing asked before the memory at rest is read. */
const REST_S = 20;

const log = (...a) => console.log('  [vscode bench]', ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The processes of a process group (ours: code-server's, the browser's), with their command lines. */
function groupProcesses(pgid) {
  const out = [];
  for (const line of execFileSync('ps', ['-e', '-o', 'pid=,pgid=,args='], { encoding: 'utf8' }).split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (m && Number(m[2]) === pgid) out.push({ pid: Number(m[1]), args: m[3] });
  }
  return out;
}

/** The extension host of a code-server we started: the process in its group whose command line says so. */
function extensionHostPid(csPid) {
  return groupProcesses(csPid).find((p) => /--type=extensionHost/.test(p.args))?.pid;
}

function memMiB(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
    return { rss: kb('Rss') / 1024, pss: kb('Pss') / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Waits until the Files view shows a row whose accessible name matches `source`, checked on every frame in the page:
 * a locator's waitFor polls at 0, 20, 50, 100, 100 ms and then every 500 ms, so a row that took longer than ~270 ms
 * was timed at the next poll (every 10,000-checkpoint hook→row read ~850 ms whatever the row's real time).
 */
async function filesRowShown(page, source) {
  await page.waitForFunction(
    (re) => {
      const name = new RegExp(re);
      for (const pane of document.querySelectorAll('.part.sidebar .pane')) {
        if (!/^Files$/i.test(pane.querySelector('.pane-header h3.title')?.textContent?.trim() ?? '')) continue;
        for (const row of pane.querySelectorAll('[role="treeitem"]'))
          if (name.test(row.getAttribute('aria-label') ?? '') && row.getClientRects().length) return true;
      }
      return false;
    },
    source,
    { polling: 'raf', timeout: 120000 },
  );
}

/** CPU seconds a process used so far (utime + stime). */
function cpuS(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // clock ticks (USER_HZ: 100 on Linux)
}

/** CPU seconds the processes of a process group used so far (the browser: its renderers, GPU and utility processes). */
function groupCpuS(pgid) {
  let s = 0;
  for (const { pid } of groupProcesses(pgid)) {
    try {
      s += cpuS(pid);
    } catch {
      /* ended meanwhile */
    }
  }
  return s;
}

/**
 * Waits until `pid` used less than 5% of a core over a second (the window has finished starting up), at most `ms`;
 * with `browser` (a process group), the browser's processes count too.
 */
async function quiet(pid, ms = 60000, browser = undefined) {
  const used = () => cpuS(pid) + (browser === undefined ? 0 : groupCpuS(browser));
  const end = Date.now() + ms;
  for (let before = used(); Date.now() < end;) {
    await sleep(1000);
    const now = used();
    if (now - before < 0.05) return;
    before = now;
  }
}

async function oneLaunch(checkpoints) {
  const runDir = H.makeRunDir({ prefix: `agent-rewind-bench-vscode-${checkpoints}-` });
  const storeParent = path.join(runDir.dir, 'stores');
  const workspace = H.prepareWorkspace({ dest: path.join(runDir.dir, 'workspace') });
  const store = path.join(storeParent, workspaceStoreName(workspace));
  // Recent checkpoints (about 63 s apart, 10,000 of them in 7.3 days): the daily clean-up 30 s after activation keeps
  // them all under the default 30 retention days, and reads the whole store as it does for a user.
  const built = buildScaleStore(store, workspace, { checkpoints, files: FILES, start: Date.now() - checkpoints * 64_000 - 3_600_000 });
  const load = os.loadavg()[0];
  const session = await H.launch({
    ...(process.env.BENCH_VSCODE_EXTENSION ? { extensionDir: path.resolve(process.env.BENCH_VSCODE_EXTENSION) } : {}),
    runDir,
    workspace,
    settings: { 'agentRewind.storeDirectory': storeParent },
    env: { AGENT_REWIND_TEST_STORE: storeParent },
  });
  const r = { checkpoints, lines: built.lines, load };
  const samples = [];
  let timer;
  try {
    const page = session.page;
    page.setDefaultTimeout(120000);
    const wb = workbench(page);
    await wb.ready();
    let host;
    for (const end = Date.now() + 60000; !(host = extensionHostPid(session.cs.pid)) && Date.now() < end;) await sleep(200);
    if (!host) throw new Error('no extension host process found');
    // The workbench restores its parts for seconds after it shows: a click meanwhile timed the workbench (a
    // 10-checkpoint store's first row took 0.5–4 s), so the browser is let settle too.
    await quiet(host, 60000, session.chromium.pid);
    timer = setInterval(() => {
      const m = memMiB(host);
      if (m) samples.push({ t: Date.now(), ...m });
    }, 500);

    // First row: the click on the activity-bar icon until a checkpoint row shows in the Files view.
    // One click; a click the workbench dropped (under load, before it restored its parts) is clicked again and
    // the time taken from that click (the row's time is the extension's, not the workbench's start).
    const tab = wb.activityTab('Agent Rewind');
    const heading = page
      .locator('.part.sidebar .composite.title')
      .filter({ hasText: /Agent Rewind/i })
      .first();
    await tab.waitFor({ state: 'visible' });
    let t = performance.now();
    let activated = Date.now();
    r.clicks = 0;
    for (;;) {
      t = performance.now();
      activated = Date.now();
      await tab.click();
      r.clicks++;
      if (
        await heading.waitFor({ state: 'visible', timeout: 15000 }).then(
          () => true,
          () => false,
        )
      )
        break;
      if (r.clicks === 4) throw new Error('the side bar did not open after 4 clicks on its tab');
    }
    r.sideBar = performance.now() - t;
    await filesRowShown(page, 'Prompt \\d+:');
    r.firstRow = performance.now() - t;

    // Hook → row: a new session's prompt; its row (or its session's group, named by it) shows at the top.
    await quiet(host, 30000);
    const s = hookSession(store, workspace, `bench-${checkpoints}-${Date.now().toString(36)}`);
    s.start();
    await quiet(host, 30000);
    const text = `Bench prompt ${Date.now().toString(36)}`;
    s.prompt(text);
    t = performance.now();
    await filesRowShown(page, text);
    r.hookRow = performance.now() - t;

    // At rest: past the clean-up's start (30 s after activation), then REST_S seconds with nothing asked.
    const restAt = Math.max(activated + SETTLE_S * 1000, Date.now() + REST_S * 1000);
    await sleep(restAt - Date.now());
    await quiet(host, 60000);
    await sleep(REST_S * 1000);
    const rest = memMiB(host);
    r.restRss = rest.rss;
    r.restPss = rest.pss;
    const before = samples.filter((x) => x.t < activated + 29000);
    r.beforeCleanupRss = before.length ? before[before.length - 1].rss : NaN;

    // Previews: the oldest prompt, and (big store) one as far from the newest as the small store's oldest.
    const preview = async (label) => {
      await quiet(host, 30000);
      await wb.runCommand('Agent Rewind: Preview Rewind', { timeout: 60000 });
      await page.locator('.quick-input-widget .quick-input-box input').fill(`${label}: refactor`);
      const option = page.locator('.quick-input-widget .quick-input-list').getByRole('option', { name: new RegExp(`${label}: refactor`) });
      await option.first().waitFor({ state: 'visible' });
      t = performance.now();
      await option.first().click();
      // The preview's frame, then its plan checked on every frame (the frame search polls every 250 ms).
      const frame = await wb.webview({ kind: 'panel', timeout: 120000 });
      await frame.waitForFunction(() => document.querySelector('main#app')?.getAttribute('aria-busy') === 'false', undefined, {
        polling: 'raf',
        timeout: 120000,
      });
      const ms = performance.now() - t;
      const listed = await frame.locator('body').innerText();
      const n = /(\d+) files?/.exec(listed)?.[1];
      await page.keyboard.press('Escape');
      await wb.runCommand('View: Close All Editors', { timeout: 60000 });
      return { ms, files: n ? Number(n) : undefined };
    };
    r.previewOldest = await preview('Prompt 1');
    if (checkpoints > SMALL) r.previewNear = await preview(`Prompt ${checkpoints - SMALL + 1}`);

    // And at rest again after the previews (the plan worker's share).
    await quiet(host, 60000);
    await sleep(REST_S * 1000);
    r.afterPreviewRss = memMiB(host).rss;
    r.peakRss = Math.max(...samples.map((x) => x.rss), r.afterPreviewRss);
  } finally {
    clearInterval(timer);
    await session.close();
    H.cleanup();
  }
  return r;
}

export async function runVscodeScaleBench() {
  H.assertBuilt();
  await ensureChromium();
  await ensureCodeServer();
  const runs = { [SMALL]: [], [LARGE]: [] };
  for (let i = 0; i < ROUNDS; i++)
    for (const n of i % 2 ? [LARGE, SMALL] : [SMALL, LARGE]) {
      // A launch the loaded workbench failed (a palette that did not open in time) is said and tried again (three tries).
      let r;
      for (let attempt = 1; !r; attempt++)
        r = await oneLaunch(n).catch((e) => {
          log(`${n} checkpoints: launch ${attempt} failed: ${String(e?.message ?? e).split('\n')[0]}`);
          if (attempt === 3) throw e;
        });
      log(
        `${n} checkpoints (load ${r.load.toFixed(2)}): first row ${r.firstRow.toFixed(0)} ms (${r.clicks} click(s); the side bar open at ${r.sideBar.toFixed(0)} ms), hook→row ${r.hookRow.toFixed(0)} ms, preview Prompt 1 ${r.previewOldest.ms.toFixed(0)} ms (${r.previewOldest.files} files)` +
          (r.previewNear ? `, preview near ${r.previewNear.ms.toFixed(0)} ms (${r.previewNear.files} files)` : '') +
          `, host RSS before clean-up ${r.beforeCleanupRss.toFixed(0)} MiB, at rest after it ${r.restRss.toFixed(0)} MiB (PSS ${r.restPss.toFixed(0)}), after the previews ${r.afterPreviewRss.toFixed(0)} MiB, peak ${r.peakRss.toFixed(0)} MiB`,
      );
      runs[n].push(r);
    }
  const med = (n, f) => median(runs[n].map(f).filter(Number.isFinite));
  const rows = [];
  const pair = (name, f, unit = 'ms') => {
    const s = med(SMALL, f);
    const l = med(LARGE, f);
    rows.push({
      name: `${name} at ${LARGE}`,
      ms: unit === 'ms' ? l : undefined,
      vs: `${unit === 'ms' ? '' : `${l.toFixed(0)} ${unit} `}${(l / s).toFixed(2)}× the ${SMALL}-checkpoint store (${s.toFixed(unit === 'ms' ? 1 : 0)} ${unit})`,
    });
  };
  pair('first Files row after the activity-bar click', (r) => r.firstRow);
  pair('a prompt hook exits → its row shows', (r) => r.hookRow);
  pair(
    `preview of Prompt 1 (big: ${med(LARGE, (r) => r.previewOldest.files)} files; small: ${med(SMALL, (r) => r.previewOldest.files)})`,
    (r) => r.previewOldest.ms,
  );
  rows.push({
    name: `preview ${SMALL} prompts from the newest at ${LARGE} (${med(LARGE, (r) => r.previewNear.files)} files)`,
    ms: med(LARGE, (r) => r.previewNear.ms),
    vs: `${(med(LARGE, (r) => r.previewNear.ms) / med(SMALL, (r) => r.previewOldest.ms)).toFixed(2)}× the small store's Prompt 1`,
  });
  pair('extension host RSS at rest (after the clean-up)', (r) => r.restRss, 'MiB');
  pair('extension host PSS at rest (after the clean-up)', (r) => r.restPss, 'MiB');
  pair('extension host RSS before the clean-up', (r) => r.beforeCleanupRss, 'MiB');
  pair('extension host RSS at rest after the previews', (r) => r.afterPreviewRss, 'MiB');
  pair('extension host RSS peak', (r) => r.peakRss, 'MiB');
  const loads = [...runs[SMALL], ...runs[LARGE]].map((r) => r.load);
  return {
    title: `VS Code at ${LARGE} checkpoints vs ${SMALL} (real code-server + Chromium; median of ${ROUNDS} launches each, alternating; 1-min load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${os.cpus().length} cores)`,
    rows,
  };
}
