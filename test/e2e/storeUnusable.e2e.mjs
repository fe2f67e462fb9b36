// A damaged store (store.json cut off mid-write): the extension says so in the status bar, in the Files
// view (and the Conversation view points there), with Reveal Folder and Move Aside and Start Fresh; moving aside
// renames the folder (nothing deleted) and the reloaded window starts empty (the next recorded event makes the
// new store). Screenshots: store-unusable.png, store-fresh.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const DAMAGED = '{\n  "format": 1,\n  "created": 17';

export const options = {
  prepare({ store }) {
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, 'store.json'), DAMAGED);
    fs.writeFileSync(path.join(store, 'files.jsonl'), '');
  },
};

const poll = async (what, fn, ms = 60000) => {
  for (const end = Date.now() + ms; ;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

export const tests = [
  {
    name: 'a damaged store.json shows "store unusable" with a way out, not "open a folder first"',
    async run({ page, wb, store }) {
      await wb.openViewContainer('Agent Rewind');
      const files = await wb.viewPane('Files');
      const conversation = await wb.viewPane('Conversation');
      assert.equal(await files.count(), 1, 'one Files pane');
      assert.equal(await conversation.count(), 1, 'one Conversation pane');
      await files
        .locator('.welcome-view-content')
        .filter({ hasText: /Agent Rewind cannot use this workspace/ })
        .first()
        .waitFor();
      await page.locator('.statusbar-item').filter({ hasText: 'store unusable' }).first().waitFor();
      assert.equal(await files.getByText(/open a folder/i).count(), 0);
      await files.locator('.welcome-view-content').getByRole('button', { name: 'Reveal Folder' }).first().waitFor();
      // The Conversation view says why it is empty, instead of VS Code's "no data provider registered".
      await conversation
        .locator('.welcome-view-content')
        .filter({ hasText: /No sessions can be shown: this workspace.s store is unusable/ })
        .first()
        .waitFor();
      // VS Code keeps its message in the page, hidden while a welcome text is shown.
      assert.equal(
        await conversation
          .getByText(/no data provider/i)
          .first()
          .isVisible(),
        false,
      );
      await wb.screenshot('store-unusable');
      await page.locator('.welcome-view-content').getByRole('button', { name: 'Move Aside and Start Fresh' }).first().click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.getByText(/Move the damaged store aside/).waitFor();
      // The window reloads: the helpers below must look at the new page, not the old one still showing.
      const reloaded = page.waitForEvent('load', { timeout: 90000 });
      await dialog.getByRole('button', { name: 'Move Aside and Start Fresh' }).click();
      // Renamed beside it, content intact; the reloaded window makes a fresh store in its place.
      const parent = path.dirname(store);
      const aside = await poll('the store moved aside', () =>
        fs.readdirSync(parent).find((n) => n.startsWith(`${path.basename(store)}.damaged-`)),
      );
      assert.equal(fs.readFileSync(path.join(parent, aside, 'store.json'), 'utf8'), DAMAGED);
      await reloaded;
      await wb.ready();
      await wb.openViewContainer('Agent Rewind');
      await page
        .locator('.welcome-view-content')
        .filter({ hasText: /Nothing recorded yet/ })
        .first()
        .waitFor();
      assert.equal(await page.locator('.statusbar-item').filter({ hasText: 'store unusable' }).count(), 0);
      // A fresh store is made by the next recorded event, not by the window (the store is created lazily).
      assert.equal(fs.existsSync(store), false, 'the reloaded window created the store folder');
      await wb.screenshot('store-fresh');
    },
  },
];
