// Finer than a turn, clicked: a turn of three writes recorded through the real hook path; in the
// Conversation view a step lists its own file, and the step's inline "Rewind Files to Before This
// Step" opens the preview headed "Before step 2 of 3: Write …" with the conversation choices
// disabled and the reason on screen; rewinding keeps the first write and undoes the later ones.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hookSession } from './hookSession.mjs';

export const options = {};

let ctx;

export const tests = [
  {
    name: 'a step lists its own files; its inline action opens the "before step N of M" preview, files only',
    async run({ wb, session, store }) {
      const ws = session.workspace;
      const s = hookSession(store, ws);
      s.start();
      s.prompt('Write three step files');
      s.write('steps/one.txt', 'one\n');
      s.write('steps/two.txt', 'two\n');
      s.edit('steps/one.txt', 'one', 'one, then three');
      ctx = { ws };
      await wb.openViewContainer('Agent Rewind');
      await wb.viewPane('Conversation');
      await wb.expand(wb.treeItem(/Write three step files/, { view: 'Conversation' }).first());
      await wb.expand(wb.treeItem(/Write three step files/, { view: 'Conversation' }).nth(1));
      const second = wb.treeItem(/^Write: steps\/two\.txt/, { view: 'Conversation' }).first();
      await second.waitFor();
      await wb.expand(second);
      await wb
        .treeItem(/^two\.txt/, { view: 'Conversation' })
        .first()
        .waitFor();
      await wb.actUntilShown(() => wb.clickInlineAction(second, 'Rewind Files to Before This Step'), wb.editorTab(/Rewind Preview/));
      const frame = await wb.webview({ has: 'text=Before step 2 of 3' });
      ctx.frame = frame;
      await frame.getByText('Before step 2 of 3: Write steps/two.txt').first().waitFor();
      assert.equal(await frame.getByRole('radio', { name: /^Conversation/ }).isDisabled(), true, 'no conversation cut mid-turn');
      assert.equal(await frame.getByRole('radio', { name: /^Both/ }).isDisabled(), true);
      await frame
        .getByText(/middle of a turn/)
        .first()
        .waitFor();
      await wb.screenshot('step-preview');
    },
  },
  {
    name: 'rewinding to before the step keeps the first write and undoes the second and third',
    async run({ wb }) {
      const { frame, ws } = ctx;
      await frame
        .getByRole('button', { name: /^Rewind \d+ files?/ })
        .first()
        .click();
      const note = await wb.notification(/Rewound 2 files to the moment just before Write steps\/two\.txt \(step 2 of 3\)/);
      assert.equal(fs.readFileSync(path.join(ws, 'steps/one.txt'), 'utf8'), 'one\n', 'the first write stays');
      assert.equal(fs.existsSync(path.join(ws, 'steps/two.txt')), false, 'the second write is undone');
      await wb.clickNotificationButton(note, 'Undo');
      await wb.notification(/Undid the rewind to /);
      assert.equal(fs.readFileSync(path.join(ws, 'steps/one.txt'), 'utf8'), 'one, then three\n');
      assert.equal(fs.readFileSync(path.join(ws, 'steps/two.txt'), 'utf8'), 'two\n');
    },
  },
  {
    name: 'a step’s file: Restore This File to Before This Step asks, then rewinds only that file',
    async run({ page, wb }) {
      const { ws } = ctx;
      const third = wb.treeItem(/^Edit: steps\/one\.txt/, { view: 'Conversation' }).first();
      await wb.expand(third);
      // The row as drawn once its counts are in (it is drawn again when they come).
      const fileRow = wb.treeItem(/^one\.txt.*\+1 −1/, { view: 'Conversation' }).first();
      await fileRow.waitFor();
      const dialog = page.locator('.monaco-dialog-box');
      await wb.actUntilShown(
        () => wb.clickInlineAction(fileRow, 'Restore This File to Before This Step'),
        dialog.getByText(/Restore steps\/one\.txt to how it was before step 3 of 3/),
      );
      await wb.screenshot('step-restore-file');
      await dialog.getByRole('button', { name: 'Restore' }).click();
      await wb.notification(/Rewound 1 file to the moment just before Edit steps\/one\.txt \(step 3 of 3\)/);
      assert.equal(fs.readFileSync(path.join(ws, 'steps/one.txt'), 'utf8'), 'one\n', 'the file is as it was before the step');
      assert.equal(fs.readFileSync(path.join(ws, 'steps/two.txt'), 'utf8'), 'two\n', 'no other file changes');
    },
  },
];
