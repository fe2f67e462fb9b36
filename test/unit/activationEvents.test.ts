// The activation contract of package.json: the extension starts only where it has something to do — on its
// views and commands (implicit since VS Code 1.74), or in a workspace holding a connected agent's hook
// config (so the status bar is there from startup) — never in every workspace ever opened. The real-VS-Code
// side (not active until a view is opened) is test/integration/suite/activation.test.ts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CLAUDE_SETTINGS_FILE } from '../../src/agents/claude/settings';
import { CLINE_HOOKS_REL } from '../../src/agents/cline/connect';
import { CODEX_HOOKS_FILE } from '../../src/agents/codex/connect';
import { CURSOR_HOOKS_REL } from '../../src/agents/cursor/connect';
import { GEMINI_SETTINGS_FILE } from '../../src/agents/gemini/settings';
import { VSCODE_HOOKS_REL } from '../../src/agents/vscode/connect';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  engines: { vscode: string };
  activationEvents: string[];
  contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]> };
};

test('no startup activation; a workspaceContains event for every file a connector writes, and nothing else', () => {
  const events = manifest.activationEvents;
  assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), `startup activation in ${events.join(', ')}`);
  const posix = (p: string) => p.split(path.sep).join('/');
  const expected = [
    posix(CLAUDE_SETTINGS_FILE),
    '.claude/settings.json', // VS Code's agent hooks and Claude Code both read it; a user may have put ours there
    VSCODE_HOOKS_REL,
    posix(CODEX_HOOKS_FILE),
    posix(GEMINI_SETTINGS_FILE),
    posix(CURSOR_HOOKS_REL),
    `${CLINE_HOOKS_REL}/*`,
  ].map((f) => `workspaceContains:${f}`);
  assert.deepEqual([...events].sort(), [...expected].sort());
});

test('the engine is new enough that contributed views and commands activate the extension without onView/onCommand events', () => {
  const m = /^\^?(\d+)\.(\d+)/.exec(manifest.engines.vscode);
  assert.ok(m, manifest.engines.vscode);
  assert.ok(Number(m[1]) > 1 || Number(m[2]) >= 74, `engines.vscode ${manifest.engines.vscode} is older than 1.74`);
  assert.ok(manifest.contributes.commands.length > 0);
  assert.ok(Object.values(manifest.contributes.views).flat().length > 0);
});
