// The main job, clicked in a real browser: a session recorded through the real hook path fills
// both views; expanding a checkpoint and clicking its inline rewind action opens the preview,
// which lists what will not be undone, the files and a conflict; rewinding anyway changes the
// disk, and the notification's Undo brings everything back — the user's own edit included.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hookSession } from './hookSession.mjs';

export const options = {};

let ctx;

export const tests = [
  {
    name: 'a recorded session fills the Files and Conversation views',
    async run({ wb, session, store }) {
      const ws = session.workspace;
      const s = hookSession(store, ws);
      s.start();
      s.prompt('Add a farewell next to the greeting');
      s.write('src/farewell.js', "'use strict';\n\nmodule.exports = { bye: (n) => `Bye, ${n}!` };\n");
      s.edit('src/greet.js', 'Hello', 'Hi');
      s.prompt('Update the notes and push the branch');
      s.edit('notes.txt', 'Remember to rewind.', 'Remember to rewind.\nShipped the farewell.');
      s.tool('Bash', { command: 'git push origin main' });
      s.tool('Read', { file_path: path.join(ws, 'README.md') });
      ctx = { ws, original: { greet: fs.readFileSync(path.join(ws, 'src/greet.js'), 'utf8') } };
      await wb.openViewContainer('Agent Rewind');
      await wb.viewPane('Files');
      await wb.viewPane('Conversation');
      await wb
        .treeItem(/Add a farewell next to the greeting/, { view: 'Files' })
        .first()
        .waitFor();
      // One row per prompt: the checkpoint before the push sits inside its turn; the session start is a row of its
      // own at the top level, below (before) the first prompt — never nested under a later one.
      const start = wb.treeItem(/Session started/, { view: 'Files' }).first();
      await start.waitFor();
      assert.equal(await start.getAttribute('aria-level'), '1', "the session start is at its session's level");
      assert.equal(
        await wb
          .treeItem(/Add a farewell next to the greeting/, { view: 'Files' })
          .first()
          .getAttribute('aria-level'),
        '1',
      );
      await wb.expand(wb.treeItem(/Update the notes and push the branch/, { view: 'Files' }).first());
      await wb
        .treeItem(/Before Bash: git push origin main/, { view: 'Files' })
        .first()
        .waitFor();
      // The turn's own edit shows under its prompt.
      await wb
        .treeItem(/notes\.txt/, { view: 'Files' })
        .first()
        .waitFor();
      const sessionRow = wb.treeItem(/Add a farewell/, { view: 'Conversation' }).first();
      await wb.expand(sessionRow);
      const promptRow = wb.treeItem(/Update the notes and push the branch/, { view: 'Conversation' }).first();
      await wb.expand(promptRow);
      await wb
        .treeItem(/Bash: git push origin main/, { view: 'Conversation' })
        .first()
        .waitFor();
      await wb.expand(wb.treeItem(/Add a farewell next to the greeting/, { view: 'Files' }));
      await wb
        .treeItem(/farewell\.js/, { view: 'Files' })
        .first()
        .waitFor();
      // A file row is drawn at once and its counts (made in the view worker) replace "+… −…" when they are in.
      await wb
        .treeItem(/greet\.js.*\+1 −1/, { view: 'Files' })
        .first()
        .waitFor();
      await wb
        .treeItem(/notes\.txt.*\+1 −0/, { view: 'Files' })
        .first()
        .waitFor();
      await wb.screenshot('sidebar');
      // At the default sidebar width: the push row leads with "not undoable", and it is inside the visible part of the
      // row; no row shows two ellipses (a label we cut, then cut again by the tree).
      const push = wb.treeItem(/not undoable · Bash: git push origin main/, { view: 'Conversation' }).first();
      await push.waitFor();
      const seen = await push.evaluate((row) => {
        const name = row.querySelector('.label-name');
        const box = row.querySelector('.monaco-icon-label-container').getBoundingClientRect();
        const range = document.createRange();
        // The label may be drawn in spans (the tag is highlighted): its first text node holds the tag.
        const text = document.createTreeWalker(name, NodeFilter.SHOW_TEXT).nextNode();
        range.setStart(text, 0);
        range.setEnd(text, Math.min(text.length, 'not undoable'.length));
        return {
          tagRight: range.getBoundingClientRect().right,
          rowRight: box.right,
          sidebar: document.querySelector('.part.sidebar').getBoundingClientRect().width,
        };
      });
      assert.ok(seen.tagRight <= seen.rowRight, `"not undoable" is visible (ends at ${seen.tagRight}px, the row at ${seen.rowRight}px)`);
      const doubled = await wb.page.locator('.part.sidebar .monaco-list-row').evaluateAll((rows) =>
        rows
          .map((row) => {
            const c = row.querySelector('.monaco-icon-label-container');
            const label = row.querySelector('.label-name')?.textContent ?? '';
            return { label, cutByTree: !!c && c.scrollWidth > c.clientWidth, cutByUs: label.endsWith('…') };
          })
          .filter((r) => r.cutByTree && r.cutByUs)
          .map((r) => r.label),
      );
      assert.deepEqual(doubled, [], 'no row is cut by us and by the tree');
      await wb.screenshot(`sidebar-default-width-${Math.round(seen.sidebar)}px`);
    },
  },
  {
    name: 'the inline rewind action opens the preview: not undone, files, conflicts',
    async run({ wb }) {
      // The user edits a file the agent changed: the rewind must notice.
      fs.writeFileSync(path.join(ctx.ws, 'notes.txt'), 'My own notes, typed after the agent.\n');
      await wb.actUntilShown(
        () => wb.clickInlineAction(wb.treeItem(/Add a farewell next to the greeting/, { view: 'Files' }), 'Rewind Files to Here'),
        wb.editorTab(/Rewind Preview/),
      );
      const frame = await wb.webview({ has: 'text=What will not be undone' });
      ctx.frame = frame;
      // The row and the preview count the same thing: what this rewind changes.
      const row = await wb
        .treeItem(/Add a farewell next to the greeting/, { view: 'Files' })
        .first()
        .innerText();
      assert.match(row, /3 files to rewind/, row);
      await frame
        .getByText(/^3 files will change/)
        .first()
        .waitFor();
      await frame.getByText('git push origin main').first().waitFor();
      await frame
        .getByText(/farewell\.js/)
        .first()
        .waitFor();
      await frame
        .getByText(/changed outside/i)
        .first()
        .waitFor();
      const rewind = frame.getByRole('button', { name: /^Rewind/ }).first();
      assert.equal(await rewind.isDisabled(), true, 'Rewind is disabled while a file changed outside the agent');
      await wb.screenshot('preview');
    },
  },
  {
    name: 'rewinding anyway writes the disk; Undo in the notification brings everything back',
    async run({ wb }) {
      const { ws } = ctx;
      await ctx.frame.getByRole('checkbox', { name: /Rewind anyway/i }).check();
      // Escape closes the preview; opened again, it still has "Rewind anyway" ticked.
      await ctx.frame.locator('body').press('Escape');
      await wb.editorTab(/Rewind Preview/).waitFor({ state: 'detached' });
      await wb.actUntilShown(
        () => wb.clickInlineAction(wb.treeItem(/Add a farewell next to the greeting/, { view: 'Files' }), 'Rewind Files to Here'),
        wb.editorTab(/Rewind Preview/),
      );
      const frame = await wb.webview({ has: 'text=What will not be undone' });
      const force = frame.getByRole('checkbox', { name: /Rewind anyway/i });
      await force.waitFor();
      assert.equal(await force.isChecked(), true, 'the ticked "Rewind anyway" survived Escape');
      await wb.screenshot('reopened-after-escape');
      await frame
        .getByRole('button', { name: /^Rewind \d+ files?/ })
        .first()
        .click();
      // The result notification comes once the whole edit is applied and verified: check the disk then.
      const note = await wb.notification(/Rewound \d+ files? to/);
      assert.equal(fs.existsSync(path.join(ws, 'src/farewell.js')), false, 'the file the agent created is deleted');
      assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'Remember to rewind.\n');
      assert.match(fs.readFileSync(path.join(ws, 'src/greet.js'), 'utf8'), /Hello, /);
      await wb.screenshot('rewound');
      await wb.clickNotificationButton(note, 'Undo');
      // The undo is one more rewind, worded as an undo (never "Rewound … to "Before rewind…"), offering Redo.
      const undone = await wb.notification(/Undid the rewind to "/);
      assert.doesNotMatch(await undone.innerText(), /Before rewind/);
      await wb.screenshot('undone');
      assert.ok(fs.existsSync(path.join(ws, 'src/farewell.js')), 'the undo recreates the file');
      assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'My own notes, typed after the agent.\n', 'the user text is back');
      assert.equal(fs.readFileSync(path.join(ws, 'src/greet.js'), 'utf8'), ctx.original.greet);
      await wb
        .treeItem(/Before undo of rewind to/, { view: 'Files' })
        .first()
        .waitFor();
      assert.equal(await wb.treeItem(/Before rewind to "Before/, { view: 'Files' }).count(), 0, 'no nested label');
    },
  },
];
