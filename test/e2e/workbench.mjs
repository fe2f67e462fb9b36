// Page helpers for driving the VS Code workbench (code-server in Chromium) with playwright-core.
// They lean on roles and aria labels that VS Code itself sets, not on layout.
//
//   const wb = workbench(page);
//   await wb.ready();
//   await wb.openViewContainer('Agent Rewind');            // activity-bar tab, by title
//   const item = wb.treeItem(/Prompt: fix the tests/, { view: 'Files' });
//   await wb.clickInlineAction(item, 'Rewind Files to Here');
//   await wb.runCommand('Agent Rewind: Preview Rewind');    // command palette, exact label
//   const frame = await wb.webview({ has: 'text=What will not be undone' });   // inner webview document
//   await frame.getByRole('button', { name: 'Rewind' }).click();
//   await wb.screenshot('preview');                          // test-output/e2e/preview.png
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXTENSION_ID, repoRoot } from '../harness/harness.mjs';

export const screenshotDir = path.join(repoRoot, 'test-output/e2e');
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const asRe = (label, exact = false) => (label instanceof RegExp ? label : new RegExp(exact ? `^${escapeRe(label)}$` : escapeRe(label)));
/** A palette entry's accessible name: the label, then its keybinding or category after a comma. */
const paletteLabel = (label) => new RegExp(`^${escapeRe(label)}(,|$)`);
/** True once `locator` reaches `state` within `ms`, false if it does not (for retry loops: act, look, act again). */
const reaches = (locator, state, ms) =>
  locator.waitFor({ state, timeout: ms }).then(
    () => true,
    () => false,
  );

export function workbench(page) {
  const wb = {
    page,

    /** Waits for the workbench shell (activity bar, status bar) and a connected extension host. */
    async ready({ timeout = 90000 } = {}) {
      await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout });
      await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout });
      // The remote indicator says "Opening Remote..." until the server connection is up.
      await page.waitForFunction(
        () => {
          const el = document.querySelector('#status\\.host, [id="status.host"]');
          return !el || !/Opening Remote/i.test(el.textContent || '');
        },
        null,
        { timeout },
      );
    },

    /** The activity-bar tab of a view container, by its title (e.g. "Agent Rewind"). */
    activityTab(title) {
      return page.locator('.part.activitybar').getByRole('tab', { name: asRe(title) });
    },

    /**
     * Opens (shows, never toggles closed) a view container from the activity bar: the one way every test opens
     * the side bar. A click that lands before the workbench has restored its parts is dropped and the side bar
     * stays closed, so it clicks again until the container's title shows — only while the title is not shown
     * (a click on the open container would close it), each click given longer to take than the last.
     */
    async openViewContainer(title, { timeout = 60000 } = {}) {
      const end = Date.now() + timeout;
      const tab = wb.activityTab(title);
      const heading = page
        .locator('.part.sidebar .composite.title')
        .filter({ hasText: new RegExp(asRe(title).source, 'i') })
        .first();
      await tab.waitFor({ state: 'visible', timeout });
      // Already the selected container (a window restoring its side bar): give it the time a click would get first.
      if ((await tab.getAttribute('aria-selected')) === 'true' && (await reaches(heading, 'visible', 5000))) return;
      for (let clicks = 0, wait = 5000; !(await heading.isVisible()); clicks++, wait *= 2) {
        const left = end - Date.now();
        if (left <= 0) throw new Error(`the side bar did not show "${title}" within ${timeout} ms (${clicks} click(s) on its tab)`);
        await tab.click({ timeout: left });
        if (await reaches(heading, 'visible', Math.min(wait, Math.max(end - Date.now(), 1)))) return;
      }
    },

    /** A view's pane in the side bar, by view name ("Files", "Conversation"), expanded if collapsed. */
    async viewPane(name, { timeout = 30000 } = {}) {
      const header = page.locator('.part.sidebar .pane-header').filter({ has: page.locator('h3.title', { hasText: asRe(name, true) }) });
      await header.first().waitFor({ timeout });
      if ((await header.first().getAttribute('aria-expanded')) === 'false') await header.first().click();
      // `has` is matched inside the pane, so its locator must not start from the side bar again.
      return page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header h3.title', { hasText: asRe(name, true) }) });
    },

    /** A tree item (row) by its accessible label; scoped to a view when `view` is given. */
    treeItem(label, { view } = {}) {
      const scope = view
        ? page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header h3.title', { hasText: asRe(view, true) }) })
        : page;
      return scope.getByRole('treeitem', { name: asRe(label) });
    },

    /**
     * Expands a tree item (clicking the twistie only, so no command runs) and waits until it shows open. A row
     * can be drawn before it holds anything (a prompt's row before its turn's first edit is read) and a click can
     * land while a refresh draws the row again: this waits for the row to be expandable, and clicks again when
     * a click was lost. A row that never becomes expandable fails here, by its label, not later.
     */
    async expand(item, { timeout = 30000 } = {}) {
      const row = item.first();
      const end = Date.now() + timeout;
      await row.waitFor({ timeout });
      for (;;) {
        const state = await row.getAttribute('aria-expanded');
        if (state === 'true') return;
        if (Date.now() > end)
          throw new Error(`the row "${await row.getAttribute('aria-label')}" did not open within ${timeout} ms (aria-expanded: ${state})`);
        if (state === 'false') {
          await row.locator('.monaco-tl-twistie').click({ timeout: Math.max(end - Date.now(), 1) });
          if (await reaches(row.and(page.locator('[aria-expanded="true"]')), 'attached', 3000)) return;
        } else await reaches(row.and(page.locator('[aria-expanded]')), 'attached', Math.min(3000, Math.max(end - Date.now(), 1)));
      }
    },

    /** Hovers a tree row and clicks one of its inline actions (the icons that appear on hover), by title. */
    async clickInlineAction(item, title, { timeout = 15000 } = {}) {
      const row = item.first();
      await row.waitFor({ timeout });
      await row.hover();
      const action = row.locator('.actions .action-label').and(page.getByRole('button', { name: asRe(title) }));
      await action.first().waitFor({ state: 'visible', timeout });
      await action.first().click();
    },

    /**
     * Acts (a click that starts a command) until `outcome` shows, trying `tries` times. A click on a row that a
     * refresh is drawing again can land on the row instead of its action, or reach the extension host while the
     * tree's items are being fetched again (the command then gets no item): the user clicks again, and so does
     * this. Each miss is printed with what the screen showed instead, and a picker or editor the miss opened is
     * closed before the next try.
     */
    async actUntilShown(act, outcome, { tries = 3, wait = 10000 } = {}) {
      for (let i = 1; ; i++) {
        await act();
        if (await reaches(outcome.first(), 'visible', wait)) return outcome.first();
        const seen = await wb.whatShows();
        if (i >= tries) throw new Error(`${tries} tries and ${outcome} did not show; the screen showed: ${seen}`);
        console.log(`       try ${i} missed (the screen showed: ${seen}); trying again`);
        if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
      }
    },

    /** A line on what the workbench shows now (a picker, a dialog, the active editor, notifications), for failure messages. */
    async whatShows() {
      const picker = page.locator('.quick-input-widget');
      const parts = [];
      if (await picker.isVisible()) parts.push(`a picker "${(await picker.locator('input').first().getAttribute('placeholder')) ?? ''}"`);
      const dialog = page.locator('.monaco-dialog-box .dialog-message-text').first();
      if (await dialog.isVisible()) parts.push(`a dialog "${await dialog.innerText()}"`);
      const tab = page.locator('.part.editor .tab.active').first();
      if (await tab.isVisible()) parts.push(`the editor "${(await tab.getAttribute('aria-label')) ?? ''}"`);
      // Toasts can be hidden (a headless window, the center open): the screen reader's alerts hold their text too.
      const toasts = await page.locator('.notification-list-item-message').allInnerTexts();
      const alerts = await page.getByRole('alert').allTextContents();
      for (const t of new Set([...toasts, ...alerts].map((x) => x.trim().replace(/^(Info|Warning|Error): /, '')).filter(Boolean)))
        parts.push(`a notification "${t}"`);
      return parts.join(', ') || 'none of a picker, an editor or a notification';
    },

    /** Hovers a tree row until its tooltip (matching `text`) shows; returns the hover. A tree refresh that
     *  re-renders the row under a still mouse drops a pending hover for good, so the mouse leaves and comes back. */
    async tooltip(item, text, { timeout = 30000 } = {}) {
      // Markdown's appendText writes spaces as no-break spaces: a string matches with any white space between words.
      const re = text instanceof RegExp ? text : new RegExp(text.trim().split(/\s+/).map(escapeRe).join('\\s+'));
      const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: re });
      const end = Date.now() + timeout;
      for (;;) {
        await page.mouse.move(0, 0);
        await item.first().hover();
        if (await reaches(hover.first(), 'visible', 5000)) return hover.first();
        if (Date.now() > end) throw new Error(`no tooltip matching ${re} within ${timeout} ms of hovering the row`);
      }
    },

    /** Right-clicks a tree row and picks a context-menu entry by label. */
    async clickContextMenu(item, label, { timeout = 15000 } = {}) {
      await item.first().click({ button: 'right' });
      const entry = page.locator('.context-view .monaco-menu').getByRole('menuitem', { name: asRe(label) });
      await entry.first().waitFor({ state: 'visible', timeout });
      // VS Code's menu ignores a click that lands right after it opened (a guard against the opening
      // right-click's mouse-up): hover and click until the menu closes, which is what a click that counted does.
      const end = Date.now() + timeout;
      for (;;) {
        await entry.first().hover();
        await entry.first().click();
        if (await reaches(entry.first(), 'hidden', 2000)) return;
        if (Date.now() > end) throw new Error(`the context menu entry "${label}" did not take a click within ${timeout} ms`);
      }
    },

    /** Clicks an action in a view's title bar (e.g. "Refresh"), by title. */
    async clickViewTitleAction(viewName, title) {
      const header = page
        .locator('.part.sidebar .pane-header')
        .filter({ has: page.locator('h3.title', { hasText: asRe(viewName, true) }) })
        .first();
      await header.hover();
      await header
        .getByRole('button', { name: asRe(title) })
        .first()
        .click();
    },

    /** Opens the command palette and runs the command whose label is exactly `label`
     *  ("Category: Title", as shown in the palette). */
    async runCommand(label, { timeout = 15000 } = {}) {
      const option = await wb.paletteOption(label, { timeout });
      if (!option) throw new Error(`the command palette offered no "${label}" within ${timeout} ms (it was opened again each time)`);
      await option.click();
    },

    /**
     * The palette's entry labelled exactly `label`, or undefined when none shows within `timeout`. The palette
     * lists the commands known when it opens: one opened before an extension's commands arrived says "No matching
     * commands" for good, so it is opened again, each time given longer to show the entry.
     */
    async paletteOption(label, { timeout = 15000 } = {}) {
      const end = Date.now() + timeout;
      for (let wait = 2000; ; wait *= 2) {
        const list = await wb.palette(`>${label}`, { timeout: Math.max(end - Date.now(), 5000) });
        const option = list.getByRole('option', { name: paletteLabel(label) }).first();
        if (await reaches(option, 'visible', Math.max(Math.min(wait, end - Date.now()), 1))) return option;
        if (Date.now() >= end) return undefined;
      }
    },

    /**
     * Opens the command palette (closing whatever quick input was open) with `text` typed; returns its list.
     * Under load, a palette opened just after another one closed can still be the closing one, whose input is
     * inert: then it is opened again (three tries), and the text is known to be typed before it returns.
     */
    async palette(text, { timeout = 15000 } = {}) {
      const input = page.locator('.quick-input-widget .quick-input-box input');
      for (let i = 1; ; i++) {
        await page.keyboard.press('Escape');
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout });
        const typed = await input.fill(text, { timeout: 5000 }).then(
          async () => (await input.inputValue()) === text,
          () => false,
        );
        if (typed) return page.locator('.quick-input-widget .quick-input-list');
        if (i === 3) throw new Error(`the command palette took no text in 3 tries (its input was inert or closing)`);
      }
    },

    /** Whether the command palette offers the command labelled exactly `label` (closes the palette after). */
    async paletteHas(label, { timeout = 5000 } = {}) {
      const found = (await wb.paletteOption(label, { timeout })) !== undefined;
      await page.keyboard.press('Escape');
      return found;
    },

    /** Labels currently offered by the command palette for a filter text (closes the palette after): read once
     *  the list shows an entry and reads the same twice in a row (commands can still be arriving just after it opens). */
    async paletteLabels(filter, { timeout = 15000 } = {}) {
      const options = (await wb.palette(`>${filter}`)).getByRole('option');
      await options.first().waitFor({ state: 'visible', timeout });
      const read = () => options.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') || ''));
      let labels = await read();
      for (const end = Date.now() + timeout; ;) {
        await new Promise((r) => setTimeout(r, 200)); // the poll interval between two reads compared
        const again = await read();
        if (again.join('\n') === labels.join('\n') || Date.now() > end) break;
        labels = again;
      }
      await page.keyboard.press('Escape');
      return labels;
    },

    /** Picks an entry in an open quick pick (showQuickPick / createQuickPick) by label. */
    async pickQuickItem(label, { timeout = 15000 } = {}) {
      const option = page.locator('.quick-input-widget .quick-input-list').getByRole('option', { name: asRe(label) });
      await option.first().waitFor({ state: 'visible', timeout });
      await option.first().click();
    },

    /**
     * The document inside a webview (panel or view) — a playwright Frame to query and click in.
     * VS Code nests two iframes: the outer `iframe.webview` (src .../webview/browser/pre/index.html?...&extensionId=ID
     * &purpose=webviewView for views) hosts an inner `iframe#active-frame` holding the extension's HTML. We pick
     * the outer frames of `extensionId` that are visible, then the inner active frame, and (optionally) the one
     * that contains `has` (a selector, e.g. 'text=Preview' or '#rewind'). Retries until `timeout`.
     * `kind`: 'view' (webview views) | 'panel' (editor webviews) | undefined (either).
     * A webview that is hidden and shown again may be re-created: call webview() again after that.
     */
    async webview({ extensionId = EXTENSION_ID, has, kind, timeout = 30000 } = {}) {
      const end = Date.now() + timeout;
      let seen = 0;
      for (;;) {
        seen = 0;
        for (const outer of page.frames()) {
          const url = outer.url();
          if (!url.includes('/webview/browser/pre/index.html')) continue;
          const q = new URL(url).searchParams;
          if (extensionId && q.get('extensionId') !== extensionId) continue;
          const purpose = q.get('purpose');
          if (kind === 'view' && purpose !== 'webviewView') continue;
          if (kind === 'panel' && purpose === 'webviewView') continue;
          try {
            const el = await outer.frameElement();
            if (!(await el.isVisible())) continue;
            for (const inner of outer.childFrames()) {
              const innerEl = await inner.frameElement();
              if ((await innerEl.getAttribute('id')) !== 'active-frame') continue;
              seen++;
              if (has && (await inner.locator(has).count()) === 0) continue;
              return inner;
            }
          } catch {
            /* frame detached while we looked: try again */
          }
        }
        if (Date.now() > end) {
          throw new Error(
            `no visible webview of ${extensionId}${kind ? ` (${kind})` : ''}${has ? ` containing ${has}` : ''} within ${timeout} ms (${seen} candidate(s))`,
          );
        }
        await new Promise((r) => setTimeout(r, 250)); // the poll interval of this condition loop (deadline above)
      }
    },

    /** The editor tab with this title (a locator; `.click()` to activate it). */
    editorTab(title) {
      return page.locator('.part.editor .tabs-container').getByRole('tab', { name: asRe(title) });
    },

    /** Waits for a notification whose text matches, opening the notification centre when it is not shown
     *  as a toast (info messages are only announced to screen readers in this headless workbench). */
    async notification(text, { timeout = 15000 } = {}) {
      const re = asRe(text);
      const toast = page.locator('.notifications-toasts .notification-list-item').filter({ hasText: re });
      const alert = page.getByRole('alert').filter({ hasText: re });
      await Promise.race([toast.first().waitFor({ timeout }), alert.first().waitFor({ state: 'attached', timeout })]);
      if (await toast.first().isVisible()) return toast.first();
      const center = page.locator('.notifications-center .notification-list-item').filter({ hasText: re });
      if (!(await center.first().isVisible())) await page.locator('[id="status.notifications"]').first().click();
      await center.first().waitFor({ state: 'visible', timeout });
      return center.first();
    },

    /** Clicks a button (e.g. "Undo") on a notification returned by notification(). */
    async clickNotificationButton(notification, label) {
      await notification.hover();
      await notification
        .getByRole('button', { name: asRe(label) })
        .first()
        .click();
    },

    /** Saves a full-page screenshot as test-output/e2e/<name>.png; returns the path. */
    async screenshot(name) {
      fs.mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path: file });
      return file;
    },
  };
  return wb;
}
