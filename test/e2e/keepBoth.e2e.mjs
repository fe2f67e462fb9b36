// Choosing files and hunks in the real preview, clicked in the workbench: the file and hunk
// checkboxes change what the Rewind button counts, the unticked file is listed as left alone, and
// the rewind writes exactly the chosen hunk (disk bytes checked). Screenshots of the preview with
// its checkboxes at the default width, in the harness's default light theme and in Dark Modern. Then a file
// Keep mine cannot merge: its conflict side by side (both themes, looked at), left out, the rest rewound.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hookSession } from './hookSession.mjs';

export const options = {};

const lines = (n, p = 'line') => Array.from({ length: n }, (_, i) => `${p} ${i + 1}\n`);

export const tests = [
  {
    name: 'the preview’s file and hunk checkboxes change the count and what is written',
    async run({ wb, session, store }) {
      const ws = session.workspace;
      const s = hookSession(store, ws);
      const base = lines(30);
      s.start();
      s.prompt('Write the settings');
      s.write('settings.txt', base.join(''));
      s.write('limits.txt', 'max=1\n');
      s.prompt('Tune the settings');
      s.edit('settings.txt', 'line 3\n', 'agent 3\n');
      s.edit('settings.txt', 'line 25\n', 'agent 25\n');
      s.edit('limits.txt', 'max=1', 'max=9');
      const agent = fs.readFileSync(path.join(ws, 'settings.txt'), 'utf8');

      await wb.openViewContainer('Agent Rewind');
      await wb.viewPane('Files');
      const row = wb.treeItem(/Tune the settings/, { view: 'Files' }).first();
      await row.waitFor();
      await wb.actUntilShown(() => wb.clickInlineAction(row, 'Rewind Files to Here'), wb.editorTab(/Rewind Preview/));
      const frame = await wb.webview({ has: 'text=What will not be undone' });
      const rewind = frame.getByRole('button', { name: /^(Rewind|Nothing)/ }).first();
      const label = () => rewind.innerText().then((t) => t.trim());
      await frame.getByRole('button', { name: 'Rewind 2 files' }).waitFor();

      // The hunks of settings.txt, shown by their toggle; the one at line 3 unticked.
      await frame.getByRole('button', { name: /Show the 2 hunks of settings\.txt/ }).click();
      const line3 = frame.getByRole('checkbox', { name: /^Line 3\b/ });
      await line3.waitFor();
      assert.equal(await line3.isChecked(), true);
      await line3.uncheck();
      assert.equal(await label(), 'Rewind 2 of 2 files, 2 hunks');
      // limits.txt unticked as a whole: left alone, and listed so.
      await frame.getByRole('checkbox', { name: 'Rewind limits.txt' }).uncheck();
      assert.equal(await label(), 'Rewind 1 of 2 files, 1 hunk');
      await frame.getByText('Left alone: not chosen').waitFor();
      await wb.screenshot('keep-both-preview-light');

      // The same page in a dark theme. The palette's Escape closes the preview; opened again, it has the same
      // choices (the host keeps them for this target), and the checkboxes and hunk lines follow the theme.
      await wb.runCommand('Preferences: Color Theme');
      await wb.pickQuickItem(/^Dark Modern/);
      await wb.page.locator('.monaco-workbench.vs-dark').waitFor();
      await wb.actUntilShown(() => wb.clickInlineAction(row, 'Rewind Files to Here'), wb.editorTab(/Rewind Preview/));
      const dark = await wb.webview({ has: 'text=Left alone: not chosen' });
      await dark.locator('body.vscode-dark').waitFor();
      await dark.getByRole('button', { name: 'Rewind 1 of 2 files, 1 hunk' }).waitFor();
      await wb.screenshot('keep-both-preview-dark');

      await dark.getByRole('button', { name: 'Rewind 1 of 2 files, 1 hunk' }).click();
      await wb.notification(/Rewound 1 file to/);
      assert.equal(
        fs.readFileSync(path.join(ws, 'settings.txt'), 'utf8'),
        agent.replace('agent 25\n', 'line 25\n'),
        'only the chosen hunk is rewound',
      );
      assert.equal(fs.readFileSync(path.join(ws, 'limits.txt'), 'utf8'), 'max=9\n', 'the unticked file is as it was');
    },
  },
  {
    name: 'a file Keep mine cannot merge: side by side in both themes, left out, the rest rewound',
    async run({ wb, session, store }) {
      const ws = session.workspace;
      const s = hookSession(store, ws);
      s.start();
      s.prompt('Write the rates');
      s.write('rates.txt', lines(30).join(''));
      s.write('notes.txt', 'first\n');
      s.prompt('Tune the rates');
      s.edit('rates.txt', 'line 12\n', 'agent 12\n');
      s.edit('notes.txt', 'first', 'agent');
      // The user changes the agent's line afterwards (and the one under it): Keep mine cannot merge it.
      const rates = path.join(ws, 'rates.txt');
      const mine = fs
        .readFileSync(rates, 'utf8')
        .replace('agent 12\n', 'my 12: keep the old rate for the finance team until the quarter closes, then drop it\n')
        .replace('line 13\n', 'my 13\n');
      fs.writeFileSync(rates, mine);

      // The first test's notification would cover the view in the pictures.
      await wb.runCommand('Notifications: Clear All Notifications');
      await wb.openViewContainer('Agent Rewind');
      await wb.viewPane('Files');
      const row = wb.treeItem(/Tune the rates/, { view: 'Files' }).first();
      await row.waitFor();
      await wb.actUntilShown(() => wb.clickInlineAction(row, 'Rewind Files to Here'), wb.editorTab(/Rewind Preview/));
      let frame = await wb.webview({ has: 'text=Where your changes and the agent’s meet in rates.txt' });
      const view = () => frame.locator('section.conflict');
      const captions = () =>
        view()
          .locator('figcaption')
          .evaluateAll((els) => els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
      assert.deepEqual(await captions(), ['Yours, on disk now Lines 12–13', 'At the rewind point Lines 12–13']);
      // The whole view in the picture, above the sticky Rewind bar.
      const toTop = () => view().evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await toTop();
      await wb.screenshot('keep-both-conflict-dark');

      // The light theme (the palette's Escape closes the preview: opened again), with the agent's version shown.
      await wb.runCommand('Preferences: Color Theme');
      await wb.pickQuickItem(/^Light Modern/);
      await wb.page.locator('.monaco-workbench.vs').waitFor();
      await wb.actUntilShown(() => wb.clickInlineAction(row, 'Rewind Files to Here'), wb.editorTab(/Rewind Preview/));
      frame = await wb.webview({ has: 'text=Where your changes and the agent’s meet in rates.txt' });
      await frame.locator('body.vscode-light').waitFor();
      await view().getByRole('button', { name: 'Show the agent’s version' }).click();
      assert.deepEqual(await captions(), [
        'Yours, on disk now Lines 12–13',
        'At the rewind point Lines 12–13',
        'The agent’s (what it left) Lines 12–13',
      ]);
      await toTop();
      await wb.screenshot('keep-both-conflict-light');

      // Leave it out, with Keep mine: the rest is rewound; rates.txt stays byte for byte.
      await frame.locator('label[for="keep-mine"]').click();
      await view().getByRole('button', { name: 'Leave It Out' }).click();
      await view().getByText('Left out: rates.txt stays as it is; the other files are rewound.').waitFor();
      const rewind = frame.getByRole('button', { name: /^Rewind 1 of 2 files/ });
      await rewind.click();
      await wb.notification(/Rewound 1 file to/);
      assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'first\n', 'the other file is rewound');
      assert.equal(fs.readFileSync(rates, 'utf8'), mine, 'the conflicting file is left byte for byte');
    },
  },
];
