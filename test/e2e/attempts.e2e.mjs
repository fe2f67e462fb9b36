// Attempts, clicked: prompt, rewind, prompt differently (recorded through the real hook path, the
// rewind by the CLI); the Files view shows the second prompt on the line and the first attempt as one
// row; its inline Compare with Current opens the multi-file diff editor; Take Files from This
// Attempt… takes one file after a confirmation; the notification's Undo takes it away again.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../harness/harness.mjs';
import { hookSession } from './hookSession.mjs';

export const options = {};

let ctx;

function rewindTo(store, label) {
  const records = fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const cp = records.find((r) => r.t === 'checkpoint' && r.kind === 'prompt' && r.label === label);
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'rewind', '--to', cp.id, '--store', store], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
}

export const tests = [
  {
    name: 'the first attempt is one row, "Attempt 1 · 1 prompt · 2 files · left …", with its prompt inside',
    async run({ wb, session, store }) {
      const ws = session.workspace;
      const s = hookSession(store, ws);
      s.start();
      s.prompt('Add a greeting to the app');
      s.write('app/main.txt', 'start\nhello, world\n');
      s.write('app/greet.txt', 'export const greet = (name) => `hello, ${name}`;\n');
      rewindTo(store, 'Add a greeting to the app');
      // Prompted differently in a new conversation (the first one would be told of the rewind first).
      const s2 = hookSession(store, ws, `${s.session}-2`);
      s2.start();
      s2.prompt('Add a farewell instead');
      s2.write('app/main.txt', 'start\ngoodbye\n');
      s2.write('app/bye.txt', 'export const bye = () => "goodbye";\n');
      ctx = { ws };
      await wb.openViewContainer('Agent Rewind');
      await wb.viewPane('Files');
      const row = wb.treeItem(/^Attempt 1/, { view: 'Files' }).first();
      await row.waitFor({ timeout: 30000 });
      assert.match(await row.innerText(), /1 prompt · 2 files · left \d/);
      await wb
        .treeItem(/Add a farewell instead/, { view: 'Files' })
        .first()
        .waitFor();
      await wb.expand(row);
      await wb
        .treeItem(/Add a greeting to the app/, { view: 'Files' })
        .first()
        .waitFor();
      await wb.tooltip(row, 'work a rewind set aside');
      await wb.screenshot('attempts-files-view');
    },
  },
  {
    name: 'its inline Compare with Current opens the multi-file diff editor: the attempt’s files against the current ones',
    async run({ page, wb }) {
      const row = wb.treeItem(/^Attempt 1/, { view: 'Files' }).first();
      await page.mouse.move(0, 0);
      await wb.clickInlineAction(row, 'Compare with Current');
      const tab = page.locator('.tabs-container .tab').filter({ hasText: 'Attempt 1 ↔ Current' });
      await tab.first().waitFor({ timeout: 30000 });
      const editor = page.locator('.part.editor');
      for (const name of ['main.txt', 'greet.txt', 'bye.txt']) await editor.getByText(name, { exact: false }).first().waitFor();
      await editor.getByText('hello, world').first().waitFor();
      await editor.getByText('goodbye').first().waitFor();
      await page.mouse.move(900, 700); // the row's tooltip off the editor
      await page.locator('.monaco-hover, .workbench-hover').first().waitFor({ state: 'hidden' });
      await wb.screenshot('attempts-compare-multi-diff');
    },
  },
  {
    name: 'Take Files from This Attempt… takes one file after a confirmation; Undo takes it away again',
    async run({ page, wb }) {
      const { ws } = ctx;
      const row = wb.treeItem(/^Attempt 1/, { view: 'Files' }).first();
      await wb.clickContextMenu(row, 'Take Files from This Attempt…');
      // A multi-select pick: clicking a row ticks it; OK takes the ticked ones.
      const list = page.locator('.quick-input-widget .quick-input-list');
      await list.getByText('app/greet.txt').first().click();
      await page.locator('.quick-input-widget').getByText('1 Selected').waitFor();
      await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.getByText(/Take app\/greet\.txt from Attempt 1\?/).waitFor();
      await wb.screenshot('attempts-take-file');
      await dialog.getByRole('button', { name: 'Take' }).click();
      const note = await wb.notification(/Took 1 file from Attempt 1; every file verified/);
      assert.equal(fs.readFileSync(path.join(ws, 'app/greet.txt'), 'utf8'), 'export const greet = (name) => `hello, ${name}`;\n');
      assert.equal(fs.readFileSync(path.join(ws, 'app/main.txt'), 'utf8'), 'start\ngoodbye\n', 'only that file');
      await wb.screenshot('attempts-took-file');
      await wb.clickNotificationButton(note, 'Undo');
      await wb.notification(/Undid taking files from Attempt 1: 1 file put back/);
      // The take's own row says what it was.
      await wb
        .treeItem(/^Before taking files from Attempt 1/, { view: 'Files' })
        .first()
        .waitFor();
      assert.equal(fs.existsSync(path.join(ws, 'app/greet.txt')), false);
      assert.equal(fs.readFileSync(path.join(ws, 'app/bye.txt'), 'utf8'), 'export const bye = () => "goodbye";\n');
    },
  },
];
