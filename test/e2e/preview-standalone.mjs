#!/usr/bin/env node
// The Preview webview on its own, in headless Chromium: the real page from previewHtml() (with its
// CSP), the built dist/webview/preview.js and media/preview.css, served from a fake webview origin;
// `acquireVsCodeApi` stubbed to record what the page posts; VS Code theme variables for a dark, a
// light and a high-contrast theme. Sends models, clicks and types, asserts the posted messages and
// that hostile agent output never became markup. Screenshots go to test-output/preview/.
//
//   node scripts/build.mjs && node test/e2e/preview-standalone.mjs [--grep RE] [--headed]
//
// Exit: 0 all passed, 1 failures, 2 set-up error. Not a *.e2e.mjs file: test/e2e/run.mjs (the
// workbench tier) does not pick it up; it needs no VS Code.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { themes } from '../fixtures/preview/themes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(root, 'test-output/preview');
const ORIGIN = 'https://webview.preview.test';
const argv = process.argv.slice(2);
const grepArg = argv.includes('--grep') ? argv[argv.indexOf('--grep') + 1] : process.env.PREVIEW_GREP;
const grep = grepArg ? new RegExp(grepArg) : null;
const headed = argv.includes('--headed');

// ------------------------------------------------------------------ set-up

function fail(msg) {
  console.error(`preview-standalone: ${msg}`);
  process.exit(2);
}

const scriptFile = path.join(root, 'dist/webview/preview.js');
const styleFile = path.join(root, 'media/preview.css');
if (!fs.existsSync(scriptFile)) fail('dist/webview/preview.js is missing: run `node scripts/build.mjs` first.');
{
  const srcDir = path.join(root, 'src/webview');
  const newest = Math.max(
    ...[...fs.readdirSync(srcDir).map((f) => path.join(srcDir, f)), path.join(root, 'src/shared/messages.ts')].map(
      (f) => fs.statSync(f).mtimeMs,
    ),
  );
  if (newest > fs.statSync(scriptFile).mtimeMs)
    console.warn('preview-standalone: warning: src/webview is newer than dist/webview/preview.js; run `node scripts/build.mjs`.');
}

async function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    const { ensureChromium } = await import('../../scripts/tools.mjs');
    return (await ensureChromium()).chromium;
  } catch (e) {
    for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (fs.existsSync(p)) return p;
    throw e;
  }
}

// The page's HTML and the fixtures are TypeScript (the fixtures are typed PreviewModels): tsx loads them.
const { tsImport } = await import('tsx/esm/api');
const { previewHtml } = await tsImport('../../src/extension/preview/previewHtml.ts', import.meta.url);
const M = await tsImport('../fixtures/preview/models.ts', import.meta.url);
const { chromium } = await import('playwright-core');

const html = () =>
  previewHtml({
    cspSource: ORIGIN,
    scriptUri: `${ORIGIN}/dist/webview/preview.js`,
    styleUri: `${ORIGIN}/media/preview.css`,
    // As the host passes it; the file is absent until @vscode/codicons is shipped, and the page copes.
    codiconUri: `${ORIGIN}/dist/webview/codicon.css`,
  });

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-rewind-preview-chromium-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: await chromiumPath(),
  headless: !headed,
  args: [
    ...(headed ? [] : ['--headless']),
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--no-default-browser-check',
  ],
  viewport: { width: 980, height: 900 },
  deviceScaleFactor: 1,
  locale: 'en-US',
  timezoneId: 'UTC',
  reducedMotion: 'reduce',
});
let closed = false;
async function cleanup() {
  if (closed) return;
  closed = true;
  await context.close().catch(() => {});
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

// Every request is answered here: the page, its script and stylesheet; anything else is recorded
// (an injected <img src=x> would show up) and refused.
const stray = [];
let serveCodicons = false;
await context.route('**/*', async (route) => {
  const url = new URL(route.request().url());
  if (url.origin === ORIGIN && url.pathname === '/index.html')
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html() });
  if (url.origin === ORIGIN && url.pathname === '/dist/webview/preview.js')
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: fs.readFileSync(scriptFile) });
  if (url.origin === ORIGIN && url.pathname === '/media/preview.css')
    return route.fulfill({ status: 200, contentType: 'text/css', body: fs.readFileSync(styleFile) });
  if (url.origin === ORIGIN && url.pathname === '/dist/webview/codicon.css') {
    // Absent by default (as until @vscode/codicons ships); one test serves a stand-in with codicon-like rules.
    return serveCodicons
      ? route.fulfill({
          status: 200,
          contentType: 'text/css',
          body: '.codicon{display:inline-block}.codicon-add:before{content:"+"}.codicon-discard:before{content:"r"}',
        })
      : route.fulfill({ status: 404, body: '' });
  }
  stray.push(url.href);
  return route.abort();
});

// Runs in the page before its own script: the VS Code API stub (state kept in sessionStorage so a
// reload revives it, like a hidden webview), and recorders for alerts and CSP violations.
await context.addInitScript(() => {
  const w = window;
  w.__posted = [];
  w.__alerts = [];
  w.__csp = [];
  w.alert =
    w.confirm =
    w.prompt =
      (m) => {
        w.__alerts.push(String(m));
      };
  let calls = 0;
  w.acquireVsCodeApi = () => {
    if (++calls > 1) throw new Error('acquireVsCodeApi called twice');
    return {
      postMessage: (m) => w.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => JSON.parse(sessionStorage.getItem('vscodeState') || 'null') ?? undefined,
      setState: (s) => sessionStorage.setItem('vscodeState', JSON.stringify(s)),
    };
  };
  document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
});

// ------------------------------------------------------------------ page helpers

async function open(theme = 'dark', { keepState = false } = {}) {
  const page = await context.newPage();
  page.__errors = [];
  page.__dialogs = [];
  page.on('pageerror', (e) => page.__errors.push(String(e)));
  page.on('console', (m) => {
    // codicon.css is absent on purpose (see html()); anything else logged as an error counts.
    if (m.type() === 'error' && !m.location().url.endsWith('/codicon.css')) page.__errors.push(m.text());
  });
  page.on('dialog', (d) => {
    page.__dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`${ORIGIN}/index.html`);
  if (!keepState) await page.evaluate(() => sessionStorage.clear());
  await setTheme(page, theme);
  await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  return page;
}

async function setTheme(page, name) {
  const t = themes[name];
  await page.evaluate(({ vars, bodyClass, kind }) => {
    // As VS Code does: variables on <html> through the CSSOM (a style attribute would break the CSP).
    const s = document.documentElement.style;
    for (const k of [...s]) if (k.startsWith('--vscode-')) s.removeProperty(k);
    for (const [k, v] of Object.entries(vars)) s.setProperty(k, v);
    document.body.classList.remove('vscode-dark', 'vscode-light', 'vscode-high-contrast');
    document.body.classList.add(bodyClass);
    document.body.dataset.vscodeThemeKind = kind;
  }, t);
}

const send = (page, msg) => page.evaluate((m) => window.postMessage(m, '*'), msg);
async function model(page, m) {
  await send(page, { type: 'model', model: m });
  await page.waitForSelector('footer.actions');
}
const posted = (page) => page.evaluate(() => window.__posted);
const lastPosted = async (page) => (await posted(page)).at(-1);
const clearPosted = (page) =>
  page.evaluate(() => {
    window.__posted.length = 0;
  });
const rewindButton = (page) => page.locator('footer.actions button[data-key="rewind"]');
const text = (loc) => loc.evaluate((el) => el.textContent.replace(/\s+/g, ' ').trim());

async function shot(page, name) {
  fs.mkdirSync(outDir, { recursive: true });
  // The hover state of wherever the mouse was would show in the picture; move it away first.
  await page.mouse.move(0, 0);
  // The whole page in one viewport, so the sticky Rewind bar sits at the end as it does when scrolled there.
  const size = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
  await page.screenshot({ path: path.join(outDir, `${name}.png`) });
  await page.setViewportSize(size);
}

async function sectionTitles(page) {
  return page.$$eval('main h2', (hs) => hs.map((h) => [...h.childNodes].find((n) => n.nodeType === 3).textContent.trim()));
}

/** No script, handler, image or frame came from the data; no alert, no CSP violation, no stray request. */
async function assertClean(page, label) {
  const r = await page.evaluate(() => ({
    scripts: document.querySelectorAll('script').length,
    bad: document.querySelectorAll('img, iframe, object, embed, style, b, i, a, time, main svg:not(.icon), main script').length,
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
    alerts: window.__alerts,
    csp: window.__csp,
  }));
  assert.equal(r.scripts, 1, `${label}: only the page's own script element`);
  assert.equal(r.bad, 0, `${label}: no element made from data`);
  assert.equal(r.handlers, 0, `${label}: no inline event handler attribute`);
  assert.deepEqual(r.alerts, [], `${label}: no alert ran`);
  assert.deepEqual(page.__dialogs, [], `${label}: no dialog opened`);
  assert.deepEqual(r.csp, [], `${label}: no CSP violation`);
  assert.deepEqual(page.__errors, [], `${label}: no page error`);
  assert.deepEqual(stray, [], `${label}: no request outside the page's own files`);
}

// ------------------------------------------------------------------ tests

const tests = [];
const test = (name, run) => tests.push({ name, run });

test('handshake: ready once, a loading line, styles and script allowed by the CSP', async () => {
  const page = await open('dark');
  assert.deepEqual(await posted(page), [{ type: 'ready' }]);
  assert.equal(await text(page.locator('main .loading')), 'Preparing the preview…');
  const maxWidth = await page.evaluate(() => getComputedStyle(document.querySelector('.app')).maxWidth);
  assert.equal(maxWidth, '880px', 'media/preview.css is applied');
  const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]').content);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-[A-Za-z0-9+/=]+'/);
  assert.equal(await page.locator('svg.icon').count(), 0, 'nothing drawn before the model');
  await assertClean(page, 'handshake');
  await page.close();
});

test('empty "not undone": the plain sentence, sections in order, Rewind N files', async () => {
  const page = await open('dark');
  await model(page, M.empty);
  assert.deepEqual(await sectionTitles(page), ['What will not be undone', 'What to rewind', 'Files', 'Conflicts and warnings']);
  assert.equal(
    await text(page.locator('.not-undone .note')),
    'Nothing outside your files needs undoing: no commands with effects beyond this workspace were recorded after this point.',
  );
  assert.equal(await page.locator('.compensations').count(), 0, 'no compensations section without compensations');
  assert.equal(await text(rewindButton(page)), 'Rewind 2 files');
  assert.equal(await rewindButton(page).getAttribute('aria-disabled'), 'false');
  // Scopes that are not offered are disabled, with the reason in words.
  assert.equal(await page.locator('#scope-files').isChecked(), true);
  assert.equal(await page.locator('#scope-conversation').isDisabled(), true);
  assert.equal(await page.locator('#scope-both').isDisabled(), true);
  assert.match(await text(page.locator('#scope-conversation-d')), /^Not available: Open the preview from a prompt/);
  await rewindButton(page).click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'files', compensations: [], force: false });
  await shot(page, 'empty-dark');
  await setTheme(page, 'light');
  await shot(page, 'empty-light');
  await assertClean(page, 'empty');
  await page.close();
});

test('many calls not undone: known first, unknown ones quieter; compensations opt-in; scope changes the button', async () => {
  const page = await open('dark');
  await model(page, M.rich);
  assert.deepEqual(await sectionTitles(page), [
    'What will not be undone',
    'Compensations',
    'What to rewind',
    'Files',
    'Conflicts and warnings',
  ]);
  // (a) first, every item, high severity before low.
  const items = page.locator('.nu-item');
  assert.equal(await items.count(), 7);
  const sev = await items.evaluateAll((els) => els.map((e) => (e.classList.contains('sev-low') ? 'low' : 'high')));
  assert.deepEqual(sev, ['high', 'high', 'high', 'high', 'high', 'low', 'low']);
  assert.match(await text(items.nth(5)), /Unknown command, may have effects outside your files/);
  assert.match(await text(items.nth(1)), /git push origin feature\/checkout.*Irreversible/);
  assert.equal(await text(page.locator('#h-not-undone .badge')), '7');
  const lowColor = await items
    .nth(5)
    .locator('.tool')
    .evaluate((e) => getComputedStyle(e).fontWeight);
  const highColor = await items
    .nth(0)
    .locator('.tool')
    .evaluate((e) => getComputedStyle(e).fontWeight);
  assert.ok(Number(lowColor) < Number(highColor), 'low severity is styled less loudly');
  // (b) compensations: unchecked by default, with where they run.
  const boxes = page.locator('.comp-item input[type=checkbox]');
  assert.equal(await boxes.count(), 2);
  assert.deepEqual(await boxes.evaluateAll((b) => b.map((x) => x.checked)), [false, false]);
  assert.match(await text(page.locator('.compensations .intro')), /visible terminal after the files are restored/);
  assert.match(await text(page.locator('.compensations .intro')), /rewrites your branch history/);
  // Default scope "both" from the model.
  assert.equal(await page.locator('#scope-both').isChecked(), true);
  assert.equal(await text(rewindButton(page)), 'Rewind 6 files and conversation');
  assert.equal(await page.locator('.conversation').isVisible(), true);
  assert.equal(await page.locator('.conversation .keeping').isVisible(), false, 'files keeping edits: conversation-only');
  await shot(page, 'rich-dark');
  // Check one compensation by its label; Space on the other toggles it on and off again.
  await page.locator('label[for="comp-6"]').click();
  await page.locator('#comp-0').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  assert.equal(await page.locator('#comp-0').isChecked(), false);
  assert.equal(await page.locator('#comp-6').isChecked(), true);
  assert.match(await text(page.locator('#action-summary')), /runs 1 compensating command in a terminal/);
  await rewindButton(page).click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'both', compensations: ['toolu_06'], force: false });
  // Files only.
  await page.locator('label[for="scope-files"]').click();
  assert.equal(await text(rewindButton(page)), 'Rewind 6 files');
  assert.equal(await page.locator('.conversation').isVisible(), false);
  await rewindButton(page).click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'files', compensations: ['toolu_06'], force: false });
  // Conversation only: files stay, compensations (a file-rewind step) are off, edits kept are listed.
  await page.locator('#scope-conversation').check();
  assert.equal(await text(rewindButton(page)), 'Rewind conversation');
  assert.equal(await page.locator('#comp-6').isDisabled(), true);
  // Conversation only writes no file: the Files section is not shown at all.
  assert.equal(await page.locator('.files').first().isVisible(), false, 'no Files section for a conversation-only rewind');
  assert.equal(await page.locator('.conversation .keeping').isVisible(), true);
  assert.match(await text(page.locator('.conversation')), /keeps 6 prompts and drops 3/);
  await shot(page, 'rich-conversation-dark');
  await rewindButton(page).click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'conversation', compensations: [], force: false });
  // Arrow keys move within the radio group (native radios).
  await page.locator('#scope-conversation').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('#scope-both').isChecked(), true);
  await page.locator('#scope-files').check();
  await setTheme(page, 'light');
  await shot(page, 'rich-light');
  await setTheme(page, 'hc');
  await shot(page, 'rich-hc');
  await assertClean(page, 'rich');
  await page.close();
});

test('files: restore / delete / recreate with counts, binary, reasons in words, Open diff per file', async () => {
  const page = await open('dark');
  await model(page, M.rich);
  const rows = page.locator('.files > .file-list > .file-row');
  assert.equal(await rows.count(), 6);
  const words = await rows.locator('.action-word').allTextContents();
  assert.deepEqual(words, ['Restore', 'Delete', 'Restore', 'Recreate', 'Restore', 'Restore']);
  assert.equal(await rows.nth(0).locator('.path-name').textContent(), 'page.tsx');
  assert.equal(await rows.nth(0).locator('.path-folder').textContent(), 'src/checkout');
  assert.equal(await text(rows.nth(0).locator('.counts')), '+12−40');
  assert.equal(await text(rows.nth(4).locator('.counts')), 'binary');
  assert.equal(await text(rows.nth(5).locator('.counts')), '≈+1200−980');
  assert.equal(await rows.locator('svg.icon.action-icon').count(), 6, 'an icon per row');
  const diff = rows.nth(1).getByRole('button', { name: 'Open diff: src/checkout/stripe.ts' });
  await diff.click();
  assert.deepEqual(await lastPosted(page), { type: 'openDiff', path: '/home/dev/shop/src/checkout/stripe.ts' });
  await rows.nth(3).locator('button').focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await lastPosted(page), { type: 'openDiff', path: '/home/dev/shop/src/legacy/cart-v1.ts' });
  const reasons = await page.locator('.not-restorable .problem-reason').allTextContents();
  assert.match(reasons[0], /^Too large/);
  assert.match(reasons[1], /^Outside the workspace/);
  assert.match(reasons[2], /^Unknown at this point/);
  assert.match(await text(page.locator('.warnings')), /Saved again with the same content/);
  assert.match(await text(page.locator('.uncommitted')), /Git: 2 affected files with uncommitted changes/);
  await assertClean(page, 'files');
  await page.close();
});

test('blocked + dirty: Rewind stopped, Save All, Open diff, Rewind anyway snapshots first', async () => {
  const page = await open('dark');
  await model(page, M.blocked);
  const rw = rewindButton(page);
  assert.equal(await rw.getAttribute('aria-disabled'), 'true');
  assert.match(await text(page.locator('#action-why')), /unsaved changes/);
  await clearPosted(page);
  await rw.click({ force: true });
  assert.deepEqual(await posted(page), [], 'a stopped Rewind posts nothing');
  assert.match(await text(page.locator('.blocked')), /Stopped: 2 files changed outside the agent/);
  assert.match(await text(page.locator('.blocked')), /Changed outside the agent since its last recorded write/);
  assert.match(await text(page.locator('.blocked')), /Created outside the agent/);
  await page.locator('.blocked').getByRole('button', { name: 'Open diff: src/checkout/page.tsx' }).click();
  assert.deepEqual(await lastPosted(page), { type: 'openDiff', path: '/home/dev/shop/src/checkout/page.tsx' });
  assert.match(await text(page.locator('label[for="force"]')), /snapshots their current content/);
  await page.getByRole('button', { name: 'Save All' }).click();
  assert.deepEqual(await lastPosted(page), { type: 'saveAll' });
  await page.locator('#force').check();
  assert.equal(await rw.getAttribute('aria-disabled'), 'true', 'unsaved editors still stop it: Rewind anyway covers disk changes only');
  await shot(page, 'blocked-dark');
  await setTheme(page, 'light');
  await shot(page, 'blocked-light');
  // After Save All the host sends the model again: the choice of "Rewind anyway" is kept.
  await model(page, M.blockedSaved);
  assert.equal(await page.locator('#force').isChecked(), true);
  assert.equal(await rw.getAttribute('aria-disabled'), 'false');
  assert.equal(await text(rw), 'Rewind 3 files');
  assert.match(await text(page.locator('#action-summary')), /snapshotted first/);
  await rw.click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'files', compensations: [], force: true });
  // Unchecking stops it again; conversation only writes no file, so it is never stopped.
  await page.locator('label[for="force"]').click();
  assert.equal(await rw.getAttribute('aria-disabled'), 'true');
  await page.locator('#scope-conversation').check();
  assert.equal(await rw.getAttribute('aria-disabled'), 'false');
  await rw.click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'conversation', compensations: [], force: false });
  await assertClean(page, 'blocked');
  await page.close();
});

test('several sessions: grouped, rewind only one session, conflicts listed plainly', async () => {
  const page = await open('dark');
  await model(page, M.sessions);
  const groups = page.locator('.session-group');
  assert.equal(await groups.count(), 4, 'two sessions, the shared group and the rest (an earlier rewind is no session)');
  assert.deepEqual(await groups.locator('h3').allTextContents(), [
    'Session 3f2a9c1e',
    'Session b7e4d210',
    'Changed by more than one session',
    'Other changes',
  ]);
  assert.equal(await groups.nth(0).locator('.file-row').count(), 2);
  assert.equal(await groups.nth(2).locator('.file-row').count(), 1);
  assert.equal(await groups.nth(3).locator('.file-row').count(), 1);
  await shot(page, 'sessions-dark');
  await groups.nth(0).getByRole('button', { name: 'Rewind only the changes of Session 3f2a9c1e' }).click();
  assert.deepEqual(await lastPosted(page), { type: 'setSession', session: M.sessions.sessions[0] });
  await model(page, M.sessionsOnlyA);
  assert.match(await text(page.locator('.files .note.info')), /Only the changes of Session 3f2a9c1e are rewound/);
  const conflicts = page.locator('.conflicts .file-row');
  assert.equal(await conflicts.count(), 2);
  assert.match(await text(conflicts.nth(0)), /money\.ts.*Session 3f2a9c1e, Session b7e4d210/);
  assert.match(await text(page.locator('.conflicts')), /left as they are/);
  assert.equal(await text(rewindButton(page)), 'Rewind 2 files');
  await shot(page, 'sessions-only-one-dark');
  await setTheme(page, 'light');
  await shot(page, 'sessions-only-one-light');
  await page.getByRole('button', { name: 'Rewind every session' }).click();
  assert.deepEqual(await lastPosted(page), { type: 'setSession', session: null });
  await assertClean(page, 'sessions');
  await page.close();
});

test('a step target: the header names the step, Conversation and Both are off with the reason on the page', async () => {
  const page = await open('dark');
  await model(page, {
    ...M.rich,
    target: { ...M.rich.target, kind: 'before-call', step: { step: 7, of: 15, tool: 'Edit', summary: `src/${M.XSS_IMG}` } },
    scope: { default: 'files', available: ['files'], unavailableReason: 'this point is in the middle of a turn.' },
    conversation: null,
  });
  assert.equal(await text(page.locator('.target-label')), `Before step 7 of 15: Edit src/${M.XSS_IMG}`, 'the step, as text');
  assert.match(await text(page.locator('.target-meta')), /in the middle of a turn/);
  assert.equal(await page.locator('#scope-files').isChecked(), true);
  assert.equal(await page.locator('#scope-conversation').isDisabled(), true);
  assert.equal(await page.locator('#scope-both').isDisabled(), true);
  assert.match(await text(page.locator('#scope-conversation-d')), /^Not available: this point is in the middle of a turn\./);
  await shot(page, 'step-target-dark');
  await rewindButton(page).click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'files', compensations: [], force: false });
  await assertClean(page, 'step');
  await page.close();
});

test('hostile agent output stays text: no element, no script, no alert, bidi shown, long names cut', async () => {
  const page = await open('dark');
  await model(page, M.hostile);
  await send(page, { type: 'error', message: '<img src=x onerror=alert(13)> failed' });
  await page.waitForSelector('#alert .alert-message');
  // Any injected element would fire its handler once loaded or failed: wait until every image (if any) is done
  // and two frames have been painted after that, then check that nothing ran.
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await assertClean(page, 'hostile');
  const body = await page.evaluate(() => document.body.innerText);
  assert.ok(body.includes(M.XSS_IMG), 'the markup is shown as text');
  assert.ok(body.includes(M.SCRIPT), 'the script tag is shown as text');
  assert.ok(body.includes(M.SHELL));
  assert.ok(body.includes('<img src=x onerror=alert(13)> failed'));
  assert.ok(!body.includes('\u202E'), 'no raw right-to-left override reaches the page');
  assert.ok(body.includes('invoice⟨U+202E⟩gnp.exe'), 'the override is shown');
  // The very long path is cut by CSS, its full text kept in the tooltip, and nothing overflows the page.
  assert.equal(await page.locator('#comp-1').isDisabled(), true, 'conversation only (the default here): no compensation');
  await page.locator('#scope-files').check(); // the fixture defaults to Conversation, which hides the files
  const long = page.locator('.file-row .path').filter({ hasText: 'very-long-directory' }).first();
  const cut = await long.evaluate((el) => ({
    name: el.querySelector('.path-name').scrollWidth > el.querySelector('.path-name').clientWidth,
    title: el.title,
  }));
  assert.ok(cut.name, 'the long name is truncated visually');
  assert.equal(cut.title, `${M.LONG}\n/home/dev/shop/${M.LONG}`, 'the full relative and absolute path in the tooltip');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px)`);
  // Buttons built from data carry it only as text in their accessible name.
  const diff = page.getByRole('button', { name: `Open diff: src/${M.XSS_IMG}` }).first();
  await diff.click();
  assert.deepEqual(await lastPosted(page), { type: 'openDiff', path: `/home/dev/shop/src/${M.XSS_IMG}` });
  await page.locator('label[for="comp-1"]').click();
  await page.locator('#force').check();
  await rewindButton(page).click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'files', compensations: ['toolu_01'], force: true });
  await shot(page, 'hostile-dark');
  await setTheme(page, 'light');
  await shot(page, 'hostile-light');
  await assertClean(page, 'hostile after clicks');
  await page.close();
});

test('busy and error: live regions, Rewind held while busy, Refresh and dismiss', async () => {
  const page = await open('dark');
  await model(page, M.empty);
  await send(page, { type: 'busy', busy: true, message: 'Rewinding…' });
  await page.waitForSelector('#status.visible');
  assert.equal(await page.locator('#status').getAttribute('role'), 'status');
  assert.equal(await page.locator('#status').getAttribute('aria-live'), 'polite');
  assert.equal(await text(page.locator('#status')), 'Rewinding…');
  assert.equal(await page.locator('main').getAttribute('aria-busy'), 'true');
  assert.equal(await rewindButton(page).getAttribute('aria-disabled'), 'true');
  await shot(page, 'busy-dark');
  await clearPosted(page);
  await rewindButton(page).click({ force: true });
  assert.deepEqual(await posted(page), [], 'no second rewind while busy');
  await send(page, { type: 'busy', busy: false });
  await page.waitForSelector('#status:not(.visible)', { state: 'attached' });
  assert.equal(await rewindButton(page).getAttribute('aria-disabled'), 'false');
  await send(page, { type: 'error', message: 'The safety check refused the rewind: 1 file changed.' });
  await page.waitForSelector('#alert-banner.visible');
  assert.equal(await page.locator('#alert').getAttribute('role'), 'alert');
  assert.equal(await text(page.locator('#alert')), 'The safety check refused the rewind: 1 file changed.');
  await shot(page, 'error-dark');
  await page.locator('#alert-actions').getByRole('button', { name: 'Refresh' }).click();
  assert.deepEqual(await lastPosted(page), { type: 'refresh' });
  await page.getByRole('button', { name: 'Dismiss the error' }).click();
  assert.equal(await page.locator('#alert-banner.visible').count(), 0);
  // A malformed model is refused with an error, not rendered.
  await send(page, { type: 'model', model: { target: 'x' } });
  await page.waitForSelector('#alert-banner.visible');
  assert.match(await text(page.locator('#alert')), /cannot show/);
  await assertClean(page, 'busy');
  await page.close();
});

test('keyboard: everything reachable with Tab, visible focus ring, Enter activates, Escape cancels', async () => {
  const page = await open('dark');
  await model(page, M.rich);
  const expected = await page.evaluate(() =>
    [...document.querySelectorAll('main button, main input')]
      .filter((e) => !e.disabled && !(e.type === 'radio' && !e.checked))
      .map((e) => e.dataset.key),
  );
  const seen = [];
  for (let i = 0; i < expected.length + 5; i++) {
    await page.keyboard.press('Tab');
    const k = await page.evaluate(() => document.activeElement?.dataset?.key ?? document.activeElement?.tagName);
    if (seen.includes(k)) break;
    seen.push(k);
  }
  for (const k of expected) assert.ok(seen.includes(k), `Tab reaches ${k}`);
  // Focus is visible on the focused control.
  await page.locator('[data-key="rewind"]').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const ring = await page.evaluate(() => {
    const s = getComputedStyle(document.activeElement);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor, key: document.activeElement.dataset.key };
  });
  assert.equal(ring.key, 'rewind');
  assert.notEqual(ring.style, 'none');
  assert.ok(ring.width >= 1);
  assert.equal(ring.color, 'rgb(0, 120, 212)', 'the theme focus border');
  await shot(page, 'focus-dark');
  await page.keyboard.press('Enter');
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'both', compensations: [], force: false });
  // Enter also toggles a checkbox; icon buttons have names.
  await page.locator('#comp-0').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#comp-0').isChecked(), true);
  const unnamed = await page.$$eval('button', (bs) => bs.filter((b) => !(b.getAttribute('aria-label') || b.textContent.trim())).length);
  assert.equal(unnamed, 0, 'every button has a name');
  await page.keyboard.press('Escape');
  assert.deepEqual(await lastPosted(page), { type: 'cancel' });
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.deepEqual(await lastPosted(page), { type: 'cancel' });
  await page.getByRole('button', { name: 'Refresh the preview' }).click();
  assert.deepEqual(await lastPosted(page), { type: 'refresh' });
  await assertClean(page, 'keyboard');
  await page.close();
});

test('state survives the webview being hidden (setState), and resets for another target', async () => {
  const page = await open('dark');
  await model(page, M.rich);
  await page.locator('#comp-0').check();
  await page.locator('#scope-files').check();
  await page.reload();
  await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  await setTheme(page, 'dark');
  await model(page, M.rich);
  assert.equal(await page.locator('#comp-0').isChecked(), true);
  assert.equal(await page.locator('#scope-files').isChecked(), true);
  // The host re-plans (say, for one session) and the indexes shift: the choice follows the call, not the number.
  await page.locator('#comp-6').check();
  const shifted = { ...M.rich, notUndone: M.rich.notUndone.slice(1) };
  await model(page, shifted);
  assert.equal(await page.locator('#comp-5').isChecked(), true, 'the ui commit, now index 5, stays chosen');
  assert.equal(await page.locator('#comp-0').count(), 0, 'the first commit is gone from this plan');
  await rewindButton(page).click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'files', compensations: ['toolu_06'], force: false });
  // "Rewind anyway" was agreed for one set of files; another set asks again.
  await model(page, M.blockedSaved);
  await page.locator('#force').check();
  await model(page, M.blockedSaved);
  assert.equal(await page.locator('#force').isChecked(), true, 'same blocked files: still chosen');
  await model(page, {
    ...M.blockedSaved,
    blocked: [
      ...M.blockedSaved.blocked,
      { path: '/home/dev/shop/src/cart/total.ts', rel: 'src/cart/total.ts', reason: 'modified-outside' },
    ],
  });
  assert.equal(await page.locator('#force').isChecked(), false, 'a newly blocked file: asked again');
  assert.equal(await rewindButton(page).getAttribute('aria-disabled'), 'true');
  await model(page, { ...M.rich, target: { ...M.rich.target, id: 'cp-other' } });
  assert.equal(await page.locator('#comp-0').isChecked(), false);
  assert.equal(await page.locator('#scope-both').isChecked(), true);
  await assertClean(page, 'state');
  await page.close();
});

test('choose files and hunks: checkboxes count on the button, unticked files left alone, Keep mine and your lines', async () => {
  const page = await open('dark');
  await model(page, M.hunks);
  const rw = rewindButton(page);
  const W = '/home/dev/shop';
  const pick = (rel) => page.locator(`input[data-key="pick:${W}/${rel}"]`);
  const hunk = (rel, id) => page.locator(`input[data-key="hunk:${W}/${rel}#${id}"]`);
  assert.equal(await page.locator('.file-row input.pick:checked').count(), 4, 'every file starts chosen');
  assert.equal(await text(rw), 'Rewind 4 files');
  assert.equal(await rw.getAttribute('aria-disabled'), 'true', 'tax.ts changed outside the agent stops it');
  // Keep mine: tax.ts merges cleanly, so the whole rewind goes with it.
  assert.match(await text(page.locator('.blocked')), /Keep mine merges it cleanly/);
  await page.locator('label[for="keep-mine"]').click();
  assert.equal(await rw.getAttribute('aria-disabled'), 'false');
  await clearPosted(page);
  await rw.click();
  assert.deepEqual(await lastPosted(page), { type: 'rewind', scope: 'files', compensations: [], force: false, keepMine: true });

  // The hunks of page.tsx: shown by the toggle (keyboard), each with its lines.
  const toggle = page.locator(`button[data-key="hunks:${W}/src/checkout/page.tsx"]`);
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await hunk('src/checkout/page.tsx', 'e5f6a7b8').isVisible(), false);
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  const lines = page.locator(`#${await toggle.getAttribute('aria-controls')} .hunk-lines`);
  assert.equal(await lines.count(), 2);
  assert.equal(
    await text(lines.nth(1)),
    '− const total = cart.total * (1 + TAX); − return <Pay total={total} />; + return <Pay total={cart.total} />;',
  );
  assert.match(await text(page.locator('.hunk-label').nth(1)), /^Lines 40–41\s*\+1\s*−2$/);
  // Unticking one hunk (Space on the focused checkbox): the file is partly chosen, the button counts hunks.
  await hunk('src/checkout/page.tsx', 'e5f6a7b8').focus();
  await page.keyboard.press('Space');
  assert.equal(await hunk('src/checkout/page.tsx', 'e5f6a7b8').isChecked(), false);
  assert.equal(await pick('src/checkout/page.tsx').evaluate((b) => b.indeterminate && b.checked), true);
  assert.equal(await text(rw), 'Rewind 4 of 4 files, 4 hunks');
  // Unticking a whole file: one fewer, listed as left alone with the shared words.
  await page.locator(`label[for="${await pick('src/cart/total.ts').getAttribute('id')}"]`).click();
  assert.equal(await text(rw), 'Rewind 3 of 4 files, 3 hunks');
  assert.match(
    await text(page.locator('.not-chosen')),
    /Left alone: not chosen.*You did not choose these files: the rewind leaves them as they are now\..*total\.ts/,
  );
  // In tax.ts keep only the hunk that touches your lines: Keep mine refuses it, with the reason.
  await page.locator(`button[data-key="hunks:${W}/src/cart/tax.ts"]`).click();
  assert.equal(await page.locator('.hunk .row-tag.warning').count(), 1, 'the hunk over your lines says so');
  await hunk('src/cart/tax.ts', '8b8b8b8b').uncheck();
  assert.equal(await rw.getAttribute('aria-disabled'), 'true');
  assert.match(await text(page.locator('#action-why')), /in src\/cart\/tax\.ts, a chosen hunk touches lines you changed/);
  await shot(page, 'hunks-refused-dark');
  // The agent's hunk instead: allowed; the message names each chosen file and its hunks when not all are.
  await hunk('src/cart/tax.ts', '7a7a7a7a').uncheck();
  await hunk('src/cart/tax.ts', '8b8b8b8b').check();
  assert.equal(await text(rw), 'Rewind 3 of 4 files, 2 hunks');
  assert.equal(await rw.getAttribute('aria-disabled'), 'false');
  await shot(page, 'hunks-dark');
  await setTheme(page, 'light');
  await shot(page, 'hunks-light');
  await clearPosted(page);
  await rw.click();
  const sent = (await posted(page)).filter((m) => m.type === 'rewind');
  assert.deepEqual(sent, [
    {
      type: 'rewind',
      scope: 'files',
      compensations: [],
      force: false,
      keepMine: true,
      files: [
        { path: `${W}/src/checkout/page.tsx`, hunks: ['a1b2c3d4'] },
        { path: `${W}/src/checkout/stripe.ts` },
        { path: `${W}/src/cart/tax.ts`, hunks: ['8b8b8b8b'] },
      ],
    },
  ]);
  // The choices outlive a refreshed model (same hunks); ticking the partial file's box ticks all its hunks.
  await model(page, M.hunks);
  assert.equal(await text(rewindButton(page)), 'Rewind 3 of 4 files, 2 hunks');
  await pick('src/checkout/page.tsx').click();
  assert.equal(await hunk('src/checkout/page.tsx', 'e5f6a7b8').isChecked(), true);
  // Nothing ticked: nothing to rewind, and why.
  // tax.ts is chosen in part: its first click ticks every hunk, the second unticks the file.
  await pick('src/cart/tax.ts').click();
  assert.equal(await pick('src/cart/tax.ts').evaluate((b) => b.checked && !b.indeterminate), true);
  for (const rel of ['src/checkout/page.tsx', 'src/checkout/stripe.ts', 'src/cart/tax.ts']) await pick(rel).uncheck();
  assert.equal(await text(rewindButton(page)), 'Nothing to rewind');
  assert.equal(await text(page.locator('#action-why')), 'No file is chosen: tick the files to rewind.');
  await assertClean(page, 'hunks');
  await page.close();
});

test('a file Keep mine cannot merge: side by side, the agent’s version on request, its ways out by keyboard', async () => {
  const page = await open('dark');
  await model(page, M.conflict);
  const W = '/home/dev/shop';
  const view = page.locator(`section.conflict[data-path="${W}/src/cart/tax.ts"]`);
  assert.equal(await page.locator('section.conflict').count(), 1, 'only the conflicting file (page.tsx merges cleanly)');
  assert.match(await text(view.locator('h4')), /^Where your changes and the agent’s meet in src\/cart\/tax\.ts$/);
  // Each region: yours now and the rewind point's, named with the exact ranges the plan gives.
  const regions = view.locator('.conflict-region');
  assert.equal(await regions.count(), 2);
  const captions = (r) => r.locator('figcaption').evaluateAll((els) => els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
  assert.deepEqual(await captions(regions.nth(0)), ['Yours, on disk now Lines 40–41', 'At the rewind point Line 40']);
  assert.deepEqual(await captions(regions.nth(1)), ['Yours, on disk now After line 52', 'At the rewind point Line 51']);
  assert.equal(await text(regions.nth(0).locator('.conflict-side.side-target pre')), 'export const rate = () => 0;');
  assert.equal(await text(regions.nth(1).locator('.conflict-side.side-mine pre')), '(no lines)');
  assert.equal(await regions.nth(0).getAttribute('aria-label'), 'Conflict at Lines 40–41');
  // Side by side at the default width: the two columns share one row.
  const [a, b] = await regions
    .nth(0)
    .locator('figure')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
  assert.equal(a, b, 'the columns sit side by side');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'nothing overflows the width');
  await shot(page, 'conflict-dark');

  // The agent's version (the merge base): a toggle, by keyboard.
  const base = view.locator(`button[data-key="conflict-base:${W}/src/cart/tax.ts"]`);
  assert.equal(await base.getAttribute('aria-pressed'), 'false');
  await base.focus();
  await page.keyboard.press('Enter');
  assert.equal(await base.getAttribute('aria-pressed'), 'true');
  assert.deepEqual(await captions(regions.nth(0)), [
    'Yours, on disk now Lines 40–41',
    'At the rewind point Line 40',
    'The agent’s (what it left) Line 40',
  ]);
  assert.equal(await text(regions.nth(0).locator('.conflict-side.side-base pre')), 'export const rate = () => 0.2;');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.key), `conflict-base:${W}/src/cart/tax.ts`, 'focus stays');
  await shot(page, 'conflict-base-dark');
  await setTheme(page, 'light');
  await shot(page, 'conflict-base-light');
  await setTheme(page, 'hc');
  await shot(page, 'conflict-base-hc');

  // Open in Diff Editor: asks the host, with the file.
  await clearPosted(page);
  await view.locator(`button[data-key="conflict-diff:${W}/src/cart/tax.ts"]`).focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await lastPosted(page), { type: 'openConflict', path: `${W}/src/cart/tax.ts` });

  // Leave it out: the file is unticked (Space), the rest can be rewound with Keep mine; the message leaves it out.
  const rw = rewindButton(page);
  await page.locator('label[for="keep-mine"]').click();
  assert.equal(await rw.getAttribute('aria-disabled'), 'true', 'the conflicting file still stops the whole rewind');
  const leave = view.locator(`button[data-key="conflict-leave:${W}/src/cart/tax.ts"]`);
  await leave.focus();
  await page.keyboard.press('Space');
  assert.equal(await leave.getAttribute('aria-pressed'), 'true');
  assert.equal(await text(leave), 'Include It Again');
  assert.match(await text(view.locator('.conflict-left')), /^Left out: src\/cart\/tax\.ts stays as it is; the other files are rewound\.$/);
  assert.equal(await page.locator(`input[data-key="pick:${W}/src/cart/tax.ts"]`).isChecked(), false, 'its file checkbox follows');
  assert.equal(await text(rw), 'Rewind 3 of 4 files, 3 hunks');
  assert.equal(await rw.getAttribute('aria-disabled'), 'false');
  await clearPosted(page);
  await rw.click();
  assert.deepEqual(await lastPosted(page), {
    type: 'rewind',
    scope: 'files',
    compensations: [],
    force: false,
    keepMine: true,
    files: [{ path: `${W}/src/checkout/page.tsx` }, { path: `${W}/src/cart/total.ts` }, { path: `${W}/src/checkout/stripe.ts` }],
    stamp: '7',
  });
  // And back in: the file is chosen again.
  await leave.click();
  assert.equal(await text(leave), 'Leave It Out');
  assert.equal(await text(rw), 'Rewind 4 files');
  await setTheme(page, 'dark');
  await assertClean(page, 'conflict');
  await page.close();
});

test('a click that found the files changed: the new plan says so first, and the next click names it', async () => {
  const page = await open('dark');
  await model(page, {
    ...M.conflict,
    stamp: '8',
    notice: 'src/cart/tax.ts changed on disk after this preview was made — check the new plan. Nothing was written.',
  });
  const notice = page.locator('.stale-notice');
  assert.equal(await notice.getAttribute('role'), 'alert');
  assert.equal(
    await text(notice),
    'src/cart/tax.ts changed on disk after this preview was made — check the new plan. Nothing was written.',
  );
  const box = await notice.boundingBox();
  const dryRun = await page.locator('.dry-run').boundingBox();
  assert.ok(box.y < dryRun.y, 'above the rest of the page');
  await shot(page, 'stale-notice-dark');
  await page.locator('label[for="force"]').click();
  await clearPosted(page);
  await rewindButton(page).click();
  assert.equal((await lastPosted(page)).stamp, '8', 'the rewind names the plan shown now');
  await assertClean(page, 'stale');
  await page.close();
});

test('codicons: used when codicon.css loads, own drawings when it does not', async () => {
  let page = await open('dark');
  await model(page, M.rich);
  assert.ok((await page.locator('main svg.icon').count()) > 10, 'drawn icons without the codicon font');
  assert.equal(await page.locator('main .codicon').count(), 0);
  await page.close();
  serveCodicons = true;
  try {
    page = await open('dark');
    await model(page, M.rich);
    assert.equal(await page.locator('main svg').count(), 0, 'no drawn icon with the codicon font');
    assert.equal(await page.locator('.file-row .codicon.codicon-discard[aria-hidden="true"]').count(), 4);
    assert.equal(await page.locator('.file-row .codicon-diff').count(), 6);
    await assertClean(page, 'codicons');
    await page.close();
  } finally {
    serveCodicons = false;
  }
});

// ------------------------------------------------------------------ run

let passed = 0;
const failures = [];
try {
  for (const t of tests) {
    if (grep && !grep.test(t.name)) continue;
    const t0 = Date.now();
    try {
      await t.run();
      passed++;
      console.log(`  ✔ ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
    } catch (e) {
      failures.push(t.name);
      console.log(
        `  ✘ ${t.name}\n      ${String(e?.stack || e)
          .split('\n')
          .slice(0, 10)
          .join('\n      ')}`,
      );
    } finally {
      stray.length = 0;
      for (const p of context.pages()) await p.close().catch(() => {});
    }
  }
} finally {
  await cleanup();
}
console.log(`\nScreenshots: ${path.relative(process.cwd(), outDir) || '.'}/`);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
