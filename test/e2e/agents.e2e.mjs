// Every agent on one timeline, clicked in a real browser.
// 1. "Connect Agents…" from the command palette: a multi-select quick pick where the agents detected in this
//    workspace (.cursor, .gemini folders with the user's own config) are pre-selected with their evidence;
//    confirming writes each agent's own file in its own format, merged with the user's settings; "Disconnect
//    Agents…" puts both files back byte for byte. Screenshot: agents-connect-pick.png.
// 2. Sessions of three agents recorded through real `hook <agent>` processes (Claude Code by its payloads,
//    Cursor and Cline by their fixture payloads): the Conversation view names each session's agent with its
//    icon, files-only agents say so and why; the Files view says whose each prompt was.
//    Screenshots: agents-conversation.png, agents-files-only-tooltip.png, agents-files.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../harness/harness.mjs';
import { agentFixtureHooks } from '../harness/agentFixtureHooks.mjs';
import { hookSession } from './hookSession.mjs';

// The user's own config, with formatting a rewrite would lose; Disconnect must give these bytes back.
const USER_CURSOR = '{\n\t"version": 1,\n\t"hooks": {\n\t\t"stop": [{ "command": "./audit.sh" }]\n\t}\n}\n';
const USER_GEMINI = '{\n    // my theme\n    "ui": { "theme": "GitHub" }\n}\n';

export const options = {
  prepare({ workspace }) {
    fs.mkdirSync(path.join(workspace, '.cursor'));
    fs.writeFileSync(path.join(workspace, '.cursor/hooks.json'), USER_CURSOR);
    fs.mkdirSync(path.join(workspace, '.gemini'));
    fs.writeFileSync(path.join(workspace, '.gemini/settings.json'), USER_GEMINI);
  },
};

const poll = async (what, fn, ms = 60000) => {
  for (const end = Date.now() + ms; ;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

/** Every `command` string anywhere in a parsed config. */
const commands = (v) =>
  Array.isArray(v)
    ? v.flatMap(commands)
    : v && typeof v === 'object'
      ? Object.entries(v).flatMap(([k, x]) => (k === 'command' && typeof x === 'string' ? [x] : commands(x)))
      : [];
/** Every hook handler object (one with a `command`) anywhere in a parsed config. */
const handlers = (v) =>
  Array.isArray(v)
    ? v.flatMap(handlers)
    : v && typeof v === 'object'
      ? [...('command' in v ? [v] : []), ...Object.values(v).flatMap(handlers)]
      : [];
const stripComments = (s) => s.replace(/^\s*\/\/.*$/gm, '');

export const tests = [
  {
    name: 'Connect Agents… pre-selects the detected agents with their evidence, writes both formats; Disconnect (nothing pre-selected) restores them',
    async run({ page, wb, session }) {
      const ws = session.workspace;
      await wb.openViewContainer('Agent Rewind');
      await wb.runCommand('Agent Rewind: Connect Agents…');
      const widget = page.locator('.quick-input-widget');
      // In a multi-select quick pick each row is a checkbox; its text is the label, the evidence and the file.
      const boxes = widget.locator('.quick-input-list').getByRole('checkbox');
      const box = (name) => boxes.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${name}\\s*$`) }) }).first();
      const rowText = (name) => box(name).innerText();
      for (const [name, evidence] of [
        ['Cursor', 'found: .cursor in this workspace'],
        ['Gemini CLI', 'found: .gemini in this workspace'],
      ]) {
        await box(name).waitFor({ state: 'visible' });
        assert.ok((await rowText(name)).includes(evidence), `${name} shows its evidence: ${await rowText(name)}`);
        assert.equal(await box(name).isChecked(), true, `${name} is detected, so pre-selected`);
      }
      await wb.screenshot('agents-connect-pick');
      // Keep exactly the two detected agents: anything else this machine has on PATH is unticked.
      // The rows (a row's own checkbox control is a checkbox too, without the label).
      const rows = boxes.filter({ has: page.locator('.label-name') });
      const ticked = async () => {
        const out = [];
        for (let i = 0; i < (await rows.count()); i++)
          if (await rows.nth(i).isChecked()) out.push((await rows.nth(i).locator('.label-name').first().innerText()).trim());
        return out;
      };
      for (const name of await ticked()) {
        if (name === 'Cursor' || name === 'Gemini CLI') continue;
        await box(name).click();
        await poll(`${name} unticked`, async () => !(await box(name).isChecked()));
      }
      assert.deepEqual((await ticked()).sort(), ['Cursor', 'Gemini CLI'], 'the two detected agents are selected, nothing else');
      await widget.getByRole('button', { name: 'OK' }).first().click();
      await wb.notification(/Connected (Cursor, Gemini CLI|Gemini CLI, Cursor) in/);

      const cursorFile = path.join(ws, '.cursor/hooks.json');
      const geminiFile = path.join(ws, '.gemini/settings.json');
      await poll(
        'both files written',
        () => fs.readFileSync(cursorFile, 'utf8') !== USER_CURSOR && fs.readFileSync(geminiFile, 'utf8') !== USER_GEMINI,
      );
      const cursorText = fs.readFileSync(cursorFile, 'utf8');
      const cursor = JSON.parse(cursorText);
      assert.ok(cursorText.includes('\t"version": 1'), "Cursor's file keeps the user's tabs");
      assert.equal(cursor.version, 1);
      assert.deepEqual(
        commands(cursor.hooks.stop),
        ['./audit.sh', ...commands(cursor.hooks.stop).slice(1)],
        "the user's stop hook is kept first",
      );
      for (const e of ['sessionStart', 'beforeSubmitPrompt', 'afterFileEdit'])
        assert.ok(
          commands(cursor.hooks[e]).some((c) => / hook cursor /.test(c)),
          `.cursor/hooks.json runs "hook cursor" at ${e}: ${JSON.stringify(cursor.hooks[e])}`,
        );
      const geminiText = fs.readFileSync(geminiFile, 'utf8');
      assert.ok(geminiText.includes('// my theme'), "Gemini's settings keep the user's comment");
      const gemini = JSON.parse(stripComments(geminiText));
      assert.equal(gemini.ui.theme, 'GitHub', "the user's setting is kept");
      const ours = handlers(gemini.hooks).filter((h) => / hook gemini /.test(h.command));
      assert.ok(ours.length >= 3, `.gemini/settings.json has our handlers: ${JSON.stringify(gemini.hooks)}`);
      assert.ok(
        ours.every((h) => h.timeout >= 1000),
        `Gemini's timeouts are in milliseconds: ${ours.map((h) => h.timeout)}`,
      );
      assert.ok(
        commands(gemini.hooks.BeforeAgent).some((c) => / hook gemini /.test(c)),
        'BeforeAgent (the prompt) is hooked',
      );

      await wb.runCommand('Agent Rewind: Disconnect Agents…');
      // Disconnect pre-selects nothing (disconnecting one agent must not mean unticking the others): tick both.
      for (const name of ['Cursor', 'Gemini CLI']) {
        await box(name).waitFor({ state: 'visible' });
        assert.equal(await box(name).isChecked(), false, `connected ${name} is offered, not pre-selected`);
        await box(name).click();
        await poll(`${name} ticked`, async () => await box(name).isChecked());
      }
      await widget.getByRole('button', { name: 'OK' }).first().click();
      await wb.notification(/Disconnected (Cursor, Gemini CLI|Gemini CLI, Cursor) in/);
      await poll(
        'both files restored',
        () => fs.readFileSync(cursorFile, 'utf8') === USER_CURSOR && fs.readFileSync(geminiFile, 'utf8') === USER_GEMINI,
      );
    },
  },
  {
    name: 'sessions of Claude Code, Cursor and Cline show their agent; files-only agents say why',
    async run({ page, wb, session, store }) {
      const ws = session.workspace;
      const write = (rel, s) => {
        fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
        fs.writeFileSync(path.join(ws, rel), s);
      };
      write('src/net/client.ts', 'const MAX = 3\nretryOnce(1)\n');

      const claude = hookSession(store, ws);
      claude.start();
      claude.prompt('Add a farewell next to the greeting');
      claude.write('src/farewell.js', 'module.exports = { bye: (n) => `Bye, ${n}!` };\n');

      const cursor = agentFixtureHooks({ repoRoot, store, workspace: ws, agent: 'cursor', session: 'e2e-cursor-session' });
      cursor('cursor/session-start.json');
      cursor('cursor/prompt.json', (p) => (p.prompt = 'Move the retry constant into its own module'));
      write('src/net/client.ts', "import { MAX } from './retry'\nretryOnce(1)\n");
      cursor('cursor/after-file-edit.json');
      write('src/net/retry.ts', 'export const MAX = 3\n');
      cursor('cursor/after-file-edit-create.json');
      cursor('cursor/stop.json');

      const cline = agentFixtureHooks({ repoRoot, store, workspace: ws, agent: 'cline', session: '1796300000042' });
      cline('cline/vscode-4.1/task-start.json');
      cline('cline/vscode-4.1/prompt.json', (p) => (p.userPromptSubmit.prompt = 'Retry twice before giving up'));
      cline('cline/vscode-4.1/pre-editor-edit.json', (p) =>
        Object.assign(p.preToolUse.parameters, { old_text: 'retryOnce(1)', new_text: 'retry(2)' }),
      );
      write('src/net/client.ts', "import { MAX } from './retry'\nretry(2)\n");
      cline('cline/vscode-4.1/post-editor-edit.json', (p) =>
        Object.assign(p.postToolUse.parameters, { old_text: 'retryOnce(1)', new_text: 'retry(2)' }),
      );
      cline('cline/vscode-4.1/task-complete.json');

      await page.keyboard.press('Escape');
      await wb.openViewContainer('Agent Rewind');
      await wb.viewPane('Conversation');
      const rows = {
        'Claude Code': wb.treeItem(/^Claude Code session: Add a farewell/, { view: 'Conversation' }).first(),
        Cursor: wb.treeItem(/^Cursor session: Move the retry constant.*, files only$/, { view: 'Conversation' }).first(),
        Cline: wb.treeItem(/^Cline session: Retry twice.*, files only$/, { view: 'Conversation' }).first(),
      };
      const icons = { 'Claude Code': 'sparkle', Cursor: 'inspect', Cline: 'robot' };
      for (const [name, row] of Object.entries(rows)) {
        await row.waitFor({ timeout: 60000 });
        const label = await row.locator('.label-name').first().innerText();
        assert.match(label, new RegExp(`^${name} · `), `${name}'s row names its agent first: "${label}"`);
        const description = await row.locator('.label-description').first().innerText();
        assert.equal(
          /^files only · /.test(description),
          name !== 'Claude Code',
          `only files-only agents say "files only": "${description}"`,
        );
        assert.equal(await row.locator(`.codicon-${icons[name]}`).count(), 1, `${name}'s row shows its icon (codicon-${icons[name]})`);
      }
      await wb.screenshot('agents-conversation');

      // The files-only agent's row says plainly why, on hover.
      const hover = await wb.tooltip(rows.Cursor, /Conversation\srewind\sis\snot\savailable\sfor\sCursor/);
      assert.match(await hover.innerText(), /Cursor\skeeps\sits\schats\sin\sits\sown\sdatabase.*Files\scan\sstill\sbe\srewound/s);
      await wb.screenshot('agents-files-only-tooltip');
      await page.keyboard.press('Escape');

      // Its prompt offers no conversation rewind: the context menu has only the files action.
      await wb.expand(rows.Cursor);
      const prompt = wb.treeItem(/^Move the retry constant into its own module/, { view: 'Conversation' }).first();
      await prompt.click({ button: 'right' });
      const menu = page.locator('.context-view .monaco-menu');
      await menu
        .getByRole('menuitem', { name: /Rewind Files/ })
        .first()
        .waitFor({ state: 'visible' });
      assert.equal(
        await menu.getByRole('menuitem', { name: /Conversation|Both/ }).count(),
        0,
        'no conversation action for a files-only agent',
      );
      await page.keyboard.press('Escape');

      // The Files view says whose each prompt was.
      await wb.viewPane('Files');
      for (const [label, name] of [
        [/^Add a farewell next to the greeting/, 'Claude Code'],
        [/^Move the retry constant into its own module/, 'Cursor'],
        [/^Retry twice before giving up/, 'Cline'],
      ]) {
        const row = wb.treeItem(label, { view: 'Files' }).first();
        await row.waitFor({ timeout: 60000 });
        assert.match(await row.locator('.label-description').first().innerText(), new RegExp(`· ${name}$`), `the Files row says ${name}`);
        assert.equal(await row.locator(`.codicon-${icons[name]}`).count(), 1, `the Files row shows ${name}'s icon`);
      }
      await wb.screenshot('agents-files');
    },
  },
];
