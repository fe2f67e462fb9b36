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
      ctx = { ws, s, original: { greet: fs.readFileSync(path.join(ws, 'src/greet.js'), 'utf8') } };
      await wb.openViewContainer('Agent Rewind');
      await wb.viewPane('Files');
      await wb.viewPane('Conversation');
      await wb
        .treeItem(/Add a farewell next to the greeting/, { view: 'Files' })
        .first()
        .waitFor();
      // One row per prompt: the checkpoint before the push sits inside its turn; the session start, identical to the
      // first prompt's files, is folded into that prompt's row (named in its tooltip), never a row of its own.
      assert.equal(await wb.treeItem(/Session started/, { view: 'Files' }).count(), 0, 'the start is folded into its prompt');
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
  {
    name: 'after a rewind, its undo and a new prompt, at the default width: every prompt row shows its count; no file list twice',
    async run({ wb }) {
      const { s } = ctx;
      s.prompt('Log the farewell too');
      s.write('src/log.js', "'use strict';\n\nmodule.exports = () => console.log('bye');\n");
      const newest = wb.treeItem(/Log the farewell too/, { view: 'Files' }).first();
      await newest.waitFor({ timeout: 30000 });
      // Open every prompt row: their files, and the steps inside their turns.
      for (const re of [/Log the farewell too/, /Update the notes and push the branch/, /Add a farewell next to the greeting/])
        await wb.expand(wb.treeItem(re, { view: 'Files' }).first());
      await wb
        .treeItem(/log\.js/, { view: 'Files' })
        .first()
        .waitFor();
      const files = wb.page
        .locator('.part.sidebar .pane')
        .filter({ has: wb.page.locator('.pane-header h3.title', { hasText: /^Files$/ }) });
      const rows = await files.locator('.monaco-list-row').evaluateAll((rows) =>
        rows.map((row) => {
          const name = row.querySelector('.label-name');
          const box = row.querySelector('.monaco-icon-label-container').getBoundingClientRect();
          const text = name ? document.createTreeWalker(name, NodeFilter.SHOW_TEXT).nextNode() : null;
          // What must survive the width: a row's leading count, or a rewind's row's action ("Before undo").
          const count = /^(\d+ files? to rewind|nothing to rewind|Before (?:rewind|undo|redo))/.exec(name?.textContent ?? '');
          let countRight = null;
          if (text && count) {
            const range = document.createRange();
            range.setStart(text, 0);
            range.setEnd(text, Math.min(text.length, count[0].length));
            countRight = range.getBoundingClientRect().right;
          }
          return {
            label: name?.textContent ?? '',
            level: row.getAttribute('aria-level'),
            expandable: row.getAttribute('aria-expanded') !== null,
            icon: row.querySelector('.custom-view-tree-node-item-icon, .codicon')?.className ?? '',
            countRight,
            rowRight: box.right,
          };
        }),
      );
      // Prompt rows (a rewind's bookkeeping row quotes a prompt too: "Before rewind to "Add a farewell…"").
      const prompts = rows.filter(
        (r) => /Log the farewell too|Update the notes and push|Add a farewell next to/.test(r.label) && !/^Before /.test(r.label),
      );
      assert.equal(prompts.length, 3, rows.map((r) => r.label).join(' | '));
      for (const r of prompts) {
        assert.ok(r.countRight !== null, `"${r.label}" leads with its count`);
        assert.ok(
          r.countRight <= r.rowRight,
          `the count of "${r.label}" is visible (ends at ${r.countRight}px, the row at ${r.rowRight}px)`,
        );
      }
      // A rewind's bookkeeping rows lead with their action, which the default width shows whole (the count is after it).
      const bookkeeping = rows.filter((r) => /^Before (rewind|undo of rewind) to /.test(r.label));
      assert.ok(bookkeeping.length >= 2, `the rewind's and the undo's rows: ${rows.map((r) => r.label).join(' | ')}`);
      for (const r of bookkeeping)
        assert.ok(
          r.countRight !== null && r.countRight <= r.rowRight,
          `the action of "${r.label}" is visible (${r.countRight}px, row ${r.rowRight}px)`,
        );
      // A step inside a turn holds nothing: the turn's files are listed once, under its prompt.
      const steps = rows.filter((r) => r.level === '2' && /Before /.test(r.label));
      assert.ok(steps.length >= 1, 'the step before the push is shown inside its turn');
      assert.ok(
        steps.every((r) => !r.expandable),
        'no step row repeats its turn’s files',
      );
      // Each row lists a file once (another checkpoint may list the same file: its own change).
      let under = '';
      const fileRows = [];
      for (const r of rows) {
        if (r.level === '1') under = r.label;
        else if (!/ · /.test(r.label)) fileRows.push(`${under} / ${r.label}`);
      }
      assert.equal(new Set(fileRows).size, fileRows.length, `each file once under its row: ${fileRows.join(', ')}`);
      await wb.screenshot('story-after-rewind-undo-prompt');
    },
  },
];
