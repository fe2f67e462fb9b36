// Self-test of the page helpers (workbench.mjs) on real VS Code UI: a tiny probe extension (probe-ext/)
// with a tree + inline and context actions, a webview panel, a webview view and a notification.
// Keeps the helpers honest before Agent Rewind's own views exist, and shows how to use them.
import * as assert from 'node:assert/strict';

export const options = { probe: true };
const probe = 'agent-rewind-test.rewind-probe';

/** The page's next click reaches nothing (its pointer events are eaten); `window.clicksDropped` says it happened. */
const dropNextClick = (page) =>
  page.evaluate(() => {
    const kinds = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
    const eat = (e) => {
      e.stopImmediatePropagation();
      e.preventDefault();
      if (e.type !== 'click') return;
      for (const k of kinds) window.removeEventListener(k, eat, true);
      window.clicksDropped = 1;
    };
    for (const k of kinds) window.addEventListener(k, eat, true);
  });

export const tests = [
  {
    name: 'tree item inline action, context menu and tooltip',
    async run({ wb }) {
      await wb.openViewContainer('Rewind Probe');
      await wb.viewPane('Probe Items');
      const alpha = wb.treeItem(/^Alpha 0\b/, { view: 'Probe Items' });
      await alpha.waitFor();
      await wb.clickInlineAction(alpha, 'Bump');
      await wb.treeItem(/^Alpha 1\b/, { view: 'Probe Items' }).waitFor();
      await wb.clickContextMenu(wb.treeItem(/^Alpha 1\b/), 'Bump');
      await wb.treeItem(/^Alpha 2\b/, { view: 'Probe Items' }).waitFor();
      assert.equal(await wb.treeItem(/^Beta 0\b/, { view: 'Probe Items' }).count(), 1, 'Beta untouched');
      // The row was re-rendered by two refreshes: its tooltip still comes, with the new count.
      const tip = await wb.tooltip(wb.treeItem(/^Alpha 2\b/, { view: 'Probe Items' }), 'Alpha was bumped 2 time(s)');
      assert.match(await tip.innerText(), /Alpha\swas\sbumped\s2\stime\(s\)/);
    },
  },
  {
    name: 'webview panel: reach into the nested iframes, click, see the reply',
    async run({ wb }) {
      await wb.runCommand('Rewind Probe: Open Probe Panel');
      await wb.editorTab('Probe Panel').waitFor();
      const frame = await wb.webview({ extensionId: probe, kind: 'panel', has: 'h2:text("Probe Panel")' });
      assert.equal(await frame.locator('#status').textContent(), 'ready');
      await frame.getByRole('button', { name: 'Ping' }).click();
      await frame.locator('#status', { hasText: 'pong 1' }).waitFor();
      // theme variables reach the webview
      const fg = await frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--vscode-foreground'));
      assert.ok(fg.trim(), 'webview sees --vscode-foreground');
      await wb.screenshot('helpers-webview-panel');
    },
  },
  {
    name: 'webview view in the side bar',
    async run({ wb }) {
      await wb.openViewContainer('Rewind Probe');
      await wb.viewPane('Probe View');
      const frame = await wb.webview({ extensionId: probe, kind: 'view', has: 'h2:text("Probe View")' });
      await frame.getByRole('button', { name: 'Ping' }).click();
      await frame.locator('#status', { hasText: 'pong 1' }).waitFor();
    },
  },
  {
    name: 'notification and its button',
    async run({ wb }) {
      await wb.runCommand('Rewind Probe: Say Hi');
      const n = await wb.notification('Probe says hi');
      await wb.clickNotificationButton(n, 'Again');
      await wb.notification('Probe says hi again');
      await wb.screenshot('helpers-notification');
    },
  },
  {
    name: 'command palette lists contributed commands by category',
    async run({ wb }) {
      const labels = await wb.paletteLabels('Rewind Probe:');
      assert.ok(
        labels.some((l) => l.startsWith('Rewind Probe: Open Probe Panel')),
        labels.join(' | '),
      );
      assert.ok(!labels.some((l) => l.startsWith('Rewind Probe: Bump')), 'hidden from the palette by its when clause');
    },
  },
  {
    name: 'actUntilShown clicks again when a click is lost, and says what the screen showed when it never works',
    async run({ page, wb }) {
      await wb.openViewContainer('Rewind Probe');
      await wb.viewPane('Probe Items');
      const alpha = wb.treeItem(/^Alpha \d+\b/, { view: 'Probe Items' });
      const before = Number(/Alpha (\d+)/.exec(await alpha.first().innerText())[1]);
      // The next click reaches nothing (a row drawn again under the mouse): the first try misses.
      await dropNextClick(page);
      let tries = 0;
      const bumped = wb.treeItem(new RegExp(`^Alpha ${before + 1}\\b`), { view: 'Probe Items' });
      const act = async () => {
        tries++;
        await wb.clickInlineAction(alpha, 'Bump');
      };
      await wb.actUntilShown(act, bumped, { wait: 3000 });
      assert.equal(await page.evaluate(() => window.clicksDropped), 1, 'the first click was lost');
      assert.equal(tries, 2, 'a second try, and no third');
      const never = wb.treeItem(/^Alpha never\b/, { view: 'Probe Items' });
      await assert.rejects(
        wb.actUntilShown(async () => {}, never, { tries: 2, wait: 500 }),
        /2 tries and .* did not show; the screen showed: /,
      );
    },
  },
  {
    name: 'expand waits for a row to become expandable and opens it; a row that never does fails by its label',
    async run({ wb }) {
      await wb.openViewContainer('Rewind Probe');
      await wb.viewPane('Probe Items');
      const beta = wb.treeItem(/^Beta \d+\b/, { view: 'Probe Items' });
      assert.equal(await beta.first().getAttribute('aria-expanded'), null, 'Beta holds nothing yet');
      // Asked to open before it holds anything; it gains a row meanwhile (the bump draws it again).
      const opening = wb.expand(beta);
      await wb.clickInlineAction(beta, 'Bump');
      await opening;
      await wb
        .treeItem(/^Beta child\b/, { view: 'Probe Items' })
        .first()
        .waitFor();
      const alpha = wb.treeItem(/^Alpha \d+\b/, { view: 'Probe Items' });
      await assert.rejects(
        wb.expand(alpha, { timeout: 2000 }),
        /the row "Alpha \d+.*" did not open within 2000 ms \(aria-expanded: null\)/,
      );
    },
  },
  {
    // Last: a side bar closed and opened again re-creates its webview views (the webview view test above would look for a new one).
    name: 'openViewContainer opens a closed side bar though its first click is dropped, and never toggles an open one closed',
    async run({ page, wb }) {
      const title = page.locator('.part.sidebar .composite.title').filter({ hasText: /Rewind Probe/i });
      await wb.openViewContainer('Rewind Probe');
      await wb.activityTab('Rewind Probe').click(); // the open container's tab: closes the side bar
      await page.locator('.part.sidebar').waitFor({ state: 'hidden' });
      // The next click reaches nothing of the workbench, as a click before it is ready: the helper must click again.
      await dropNextClick(page);
      await wb.openViewContainer('Rewind Probe');
      assert.equal(await page.evaluate(() => window.clicksDropped), 1, 'the first click was dropped');
      await wb.openViewContainer('Rewind Probe');
      assert.equal(await title.first().isVisible(), true, 'still shown after opening it twice');
    },
  },
];
