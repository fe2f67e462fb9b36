// The workbench loads with Agent Rewind as a development extension, and what package.json contributes to the
// UI shows up: activity-bar container with its views, commands in the palette. Written against package.json,
// so it tightens as contributions land. Screenshots: test-output/e2e/workbench.png (+ agent-rewind-views.png).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { activationStatus, repoRoot } from '../harness/harness.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const contributes = manifest.contributes || {};
const text = (v) => (typeof v === 'string' ? v : v?.value);

export const options = {};

export const tests = [
  {
    name: 'workbench loads the fixture workspace with the extension in development mode',
    async run({ page, wb, session }) {
      assert.match(await page.title(), /\[Extension Development Host\]/);
      await wb.openViewContainer('Explorer');
      await wb.treeItem(/^README\.md/).waitFor();
      await wb.treeItem(/^notes\.txt/).waitFor();
      const failed = session.logLines.filter((l) => /agent-rewind\.agent-rewind/.test(l) && /fail|error/i.test(l));
      assert.deepEqual(failed, [], 'no activation errors for agent-rewind.agent-rewind');
      const file = await wb.screenshot('workbench');
      assert.ok(fs.statSync(file).size > 10000, 'screenshot written');
    },
  },
  {
    name: 'activity-bar containers and views from package.json are shown',
    async run({ wb }) {
      const containers = contributes.viewsContainers?.activitybar || [];
      assert.ok(containers.length > 0, 'package.json contributes an activity-bar container');
      for (const c of containers) {
        await wb.openViewContainer(c.title);
        for (const v of contributes.views?.[c.id] || []) await wb.viewPane(v.name);
        await wb.screenshot(`views-${c.id}`);
      }
    },
  },
  {
    name: 'the extension activates without an error (extension host log)',
    async run({ session, log }) {
      const events = manifest.activationEvents || [];
      const views = Object.values(contributes.views || {}).flat();
      // Startup events activate it by now; otherwise the previous test opened its views (onView:…).
      assert.ok(events.some((e) => e === '*' || e === 'onStartupFinished') || views.length > 0, 'something activates it from the UI');
      const st = await activationStatus(session.runDir, { wait: true });
      assert.ok(st.activated, 'the extension host never activated agent-rewind.agent-rewind');
      log(`activated by ${st.event}`);
      assert.equal(st.error, null, `activation failed:\n${st.error}`);
    },
  },
  {
    name: 'contributed commands are offered in the command palette',
    async run({ wb }) {
      const hidden = new Set((contributes.menus?.commandPalette || []).filter((m) => m.when === 'false').map((m) => m.command));
      const cmds = (contributes.commands || []).filter((c) => !hidden.has(c.command));
      assert.ok(cmds.length > 0, 'package.json contributes commands');
      // Commands that follow a state offer themselves only in it: this fixture is not connected, not
      // filtered and its store is usable, so Disconnect, Clear Filter and the store's ways out are not offered.
      const whenOf = (id) => (contributes.menus?.commandPalette || []).find((m) => m.command === id)?.when || '';
      for (const c of cmds) {
        const label = text(c.category) ? `${text(c.category)}: ${text(c.title)}` : text(c.title);
        const when = whenOf(c.command);
        const offered = !/(^|&& )agentRewind\.(claudeConnected|filtered|storeUnusable)\b/.test(when);
        assert.equal(
          await wb.paletteHas(label, offered ? {} : { timeout: 1500 }),
          offered,
          offered ? `palette offers "${label}"` : `palette does not offer "${label}" in this state (${when})`,
        );
      }
    },
  },
];
