// Connect / Disconnect for every config format, on real files in temp folders: merged into the
// user's own file with its hooks, comments and indentation kept; twice = no change; Disconnect gives
// back the original bytes and removes a file (and folders) Connect created; Cline's scripts are
// executable and, run by /bin/sh with a payload on stdin, reach the real CLI and its store; and the
// double-recording rule (Claude's file serves VS Code and Copilot CLI; no second file of ours).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { hooksDisabledWords, notPlainJsonWords } from '../../src/agents/claude/connect';
import { CONNECT_MARKER } from '../../src/agents/common/hookCommand';
import { CLINE_HOOK_EVENTS } from '../../src/agents/cline/connect';
import type { AgentConnector, HookTarget } from '../../src/agents/common/connector';
import { agentStates, connectAgents, CONNECTORS, connectorFor, disconnectAgents } from '../../src/agents/connectors';
import { CURSOR_HOOK_EVENTS } from '../../src/agents/cursor/connect';
import { VSCODE_HOOK_EVENTS } from '../../src/agents/vscode/connect';
import { agentCapabilities, conversationUnavailableText } from '../../src/agents/capabilities';
import { bundleLocalizer, ENGLISH } from '../../src/shared/l10n';
import { CLI } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { registry } from '../../src/agents/registry';

const claudeConnector = registry.connector('claude')!;
const clineConnector = registry.connector('cline')!;
const cursorConnector = registry.connector('cursor')!;
const vscodeConnector = registry.connector('vscode')!;

const TARGET: HookTarget = { node: '/usr/bin/node', cli: '/opt/agent-rewind/0.1.0/dist/cli.js', store: '/home/ana/.store' };
const TARGET2: HookTarget = { ...TARGET, cli: '/opt/agent-rewind/0.2.0/dist/cli.js' };

/** Every file under `dir` with its bytes (and exec bit), to compare a whole tree before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isDirectory()) {
        out[rel + '/'] = '';
        walk(p);
      } else out[rel] = `${fs.statSync(p).mode & 0o777}:${fs.readFileSync(p, 'utf8')}`;
    }
  };
  walk(dir);
  return out;
}

const read = (f: string) => fs.readFileSync(f, 'utf8');

/** `result` is `original` with text inserted and nothing removed or re-formatted (a subsequence check). */
function onlyInserted(original: string, result: string): void {
  let i = 0;
  for (const ch of result) if (ch === original[i]) i++;
  assert.equal(i, original.length, `the user's text was changed, not only added to:\n${result}`);
}

/** The user's own file: comments, tabs, CRLF-free, their own hooks for events we also use. */
const USER_CURSOR = `{
\t// my team's hooks
\t"version": 1,
\t"hooks": {
\t\t"afterFileEdit": [{ "command": "./hooks/format.sh" }],
\t\t"stop": [
\t\t\t{ "command": "./hooks/notify.sh", "timeout": 5 } // ping me
\t\t]
\t}
}
`;

const USER_VSCODE = `{
    /* kept */
    "hooks": {
        "PreToolUse": [
            { "type": "command", "command": "./scripts/guard.sh", "timeout": 10 }
        ]
    }
}
`;

function roundTrip(c: AgentConnector, rel: string, userText: string, events: readonly string[]): void {
  const ws = tempDir(`ar-connect-${c.agent}-`);
  const file = path.join(ws, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, userText);
  const before = snapshot(ws);

  const r = c.connect(ws, TARGET);
  assert.equal(r.changed, true);
  assert.deepEqual(r.files, [file]);
  const connected = read(file);
  // The user's text is all still there, in order, and every event has exactly one handler of ours.
  onlyInserted(userText, connected);
  for (const e of events) assert.ok(new RegExp(`"${e}"`).test(connected), `no ${e}`);
  assert.equal(connected.split(CONNECT_MARKER).length - 1, events.length);
  assert.equal(c.state(ws, TARGET), 'connected');
  assert.equal(c.state(ws, TARGET2), 'outdated');

  // Twice = no change.
  assert.equal(c.connect(ws, TARGET).changed, false);
  assert.equal(read(file), connected);
  // A new CLI path replaces ours, never duplicates it.
  assert.equal(c.connect(ws, TARGET2).changed, true);
  assert.equal(read(file).split(CONNECT_MARKER).length - 1, events.length);
  assert.ok(!read(file).includes(TARGET.cli));

  const d = c.disconnect(ws);
  assert.equal(d.changed, true);
  assert.deepEqual(snapshot(ws), before, 'Disconnect gives back the original bytes');
  assert.equal(c.disconnect(ws).changed, false);
  assert.equal(c.state(ws, TARGET), 'disconnected');
}

function createdThenRemoved(c: AgentConnector, created: string[]): void {
  const ws = tempDir(`ar-connect-new-${c.agent}-`);
  const r = c.connect(ws, TARGET);
  assert.equal(r.changed, true);
  for (const f of created) assert.ok(fs.existsSync(path.join(ws, f)), `${f} was not created`);
  assert.equal(c.connect(ws, TARGET).changed, false);
  assert.equal(c.disconnect(ws).changed, true);
  assert.deepEqual(fs.readdirSync(ws), [], 'the file and the folders Connect created are gone');
}

test('Cursor: merges into .cursor/hooks.json with comments and tabs kept, Disconnect restores the bytes', () => {
  roundTrip(cursorConnector, '.cursor/hooks.json', USER_CURSOR, CURSOR_HOOK_EVENTS);
  const ws = tempDir('ar-connect-cursor-shape-');
  cursorConnector.connect(ws, TARGET);
  const json = JSON.parse(read(path.join(ws, '.cursor/hooks.json')));
  assert.equal(json.version, 1);
  assert.deepEqual(Object.keys(json.hooks), CURSOR_HOOK_EVENTS);
  assert.match(json.hooks.afterFileEdit[0].command, / hook cursor --store /);
  createdThenRemoved(cursorConnector, ['.cursor/hooks.json']);
});

test('VS Code / Copilot CLI: .github/hooks/agent-rewind.json in VS Code format (PascalCase, seconds), exact round trip', () => {
  roundTrip(vscodeConnector, '.github/hooks/agent-rewind.json', USER_VSCODE, VSCODE_HOOK_EVENTS);
  const ws = tempDir('ar-connect-vscode-shape-');
  vscodeConnector.connect(ws, TARGET);
  const json = JSON.parse(read(path.join(ws, '.github/hooks/agent-rewind.json')));
  assert.equal(json.version, undefined, 'VS Code format: Copilot CLI 1.0.102 loads it without a version');
  const h = json.hooks.PreToolUse[0];
  assert.equal(h.type, 'command');
  assert.match(h.command, / hook vscode --store /);
  assert.equal(h.timeout, 30);
  assert.equal(h.timeoutSec, 30);
  createdThenRemoved(vscodeConnector, ['.github/hooks/agent-rewind.json']);
  // A .github folder with the user's workflows stays when our file goes.
  const ws2 = tempDir('ar-connect-vscode-github-');
  fs.mkdirSync(path.join(ws2, '.github/workflows'), { recursive: true });
  fs.writeFileSync(path.join(ws2, '.github/workflows/ci.yml'), 'on: push\n');
  const before = snapshot(ws2);
  vscodeConnector.connect(ws2, TARGET);
  vscodeConnector.disconnect(ws2);
  assert.deepEqual(snapshot(ws2), before);
});

test('Claude Code through the connector interface: round trip of .claude/settings.local.json', () => {
  const user = `{\n  "permissions": { "allow": ["Bash(ls)"] },\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n  }\n}\n`;
  const ws = tempDir('ar-connect-claude-');
  fs.mkdirSync(path.join(ws, '.claude'));
  fs.writeFileSync(path.join(ws, '.claude/settings.local.json'), user);
  const before = snapshot(ws);
  assert.equal(claudeConnector.connect(ws, TARGET).changed, true);
  assert.equal(claudeConnector.state(ws, TARGET), 'connected');
  assert.equal(claudeConnector.connect(ws, TARGET).changed, false);
  assert.equal(claudeConnector.disconnect(ws).changed, true);
  assert.deepEqual(snapshot(ws), before);
});

test("Cline: one executable script per event; the user's own script is left alone; Disconnect removes only ours", () => {
  const ws = tempDir('ar-connect-cline-');
  const hooks = path.join(ws, '.clinerules/hooks');
  fs.mkdirSync(hooks, { recursive: true });
  fs.writeFileSync(path.join(hooks, 'PreToolUse'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
  fs.writeFileSync(path.join(ws, '.clinerules/style.md'), '# rules\n');
  const before = snapshot(ws);
  const r = clineConnector.connect(ws, TARGET);
  assert.equal(r.changed, true);
  assert.ok(r.notes.some((n) => /PreToolUse is your own hook/.test(n)));
  assert.ok(r.notes.some((n) => /Enable Hooks/.test(n)));
  for (const e of CLINE_HOOK_EVENTS.filter((x) => x !== 'PreToolUse')) {
    const f = path.join(hooks, e);
    assert.ok(fs.statSync(f).mode & 0o100, `${e} is not executable`);
    assert.match(read(f), new RegExp(`^#!/bin/sh\\n[^\\n]*\\nexec .* hook cline ${e} --store .*${CONNECT_MARKER}\\n$`));
  }
  assert.equal(read(path.join(hooks, 'PreToolUse')), '#!/bin/sh\necho mine\n');
  assert.equal(clineConnector.state(ws, TARGET), 'connected');
  assert.equal(clineConnector.connect(ws, TARGET).changed, false);
  // A lost exec bit is restored by connecting again.
  fs.chmodSync(path.join(hooks, 'TaskStart'), 0o644);
  assert.equal(clineConnector.state(ws, TARGET), 'outdated');
  assert.equal(clineConnector.connect(ws, TARGET).changed, true);
  assert.ok(fs.statSync(path.join(hooks, 'TaskStart')).mode & 0o100);
  assert.equal(clineConnector.disconnect(ws).changed, true);
  assert.deepEqual(snapshot(ws), before);
  createdThenRemoved(
    clineConnector,
    CLINE_HOOK_EVENTS.map((e) => `.clinerules/hooks/${e}`),
  );
});

test(
  'Cline: the generated script, run by /bin/sh with a payload on stdin, reaches node dist/cli.js and its store (with an environment too)',
  { skip: process.platform === 'win32' },
  () => {
    for (const env of [undefined, { ELECTRON_RUN_AS_NODE: '1' }]) clineScriptRuns(env);
  },
);

function clineScriptRuns(env: Record<string, string> | undefined): void {
  assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first');
  const root = tempDir('ar-connect-cline-run-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  const store = path.join(root, 'store');
  clineConnector.connect(ws, { node: process.execPath, cli: CLI, store, ...(env ? { env } : {}) });
  const payload = JSON.parse(read(path.join(__dirname, '../fixtures/agents/cline/vscode-4.1/prompt.json')));
  payload.workspaceRoots = [ws];
  const script = path.join(ws, '.clinerules/hooks/UserPromptSubmit');
  const r = spawnSync(script, [], {
    cwd: ws,
    input: JSON.stringify(payload),
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: root },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '', 'a hook prints nothing');
  const errorsLog = path.join(store, 'errors.log');
  const errors = fs.existsSync(errorsLog)
    ? read(errorsLog)
        .split('\n')
        .filter(Boolean)
        .map((l) => String(JSON.parse(l).message))
    : [];
  assert.deepEqual(errors, [], 'a well-formed Cline payload leaves errors.log empty');
  const log = read(path.join(store, 'files.jsonl'));
  assert.ok(log.includes(payload.userPromptSubmit.prompt), 'the prompt was recorded');
}

test('double recording: with Claude connected, VS Code / Copilot CLI add no file of ours; Claude connected later removes it', () => {
  const ws = tempDir('ar-connect-double-');
  // 1. VS Code first: our .github file.
  connectAgents(['vscode'], ws, TARGET);
  assert.ok(fs.existsSync(path.join(ws, '.github/hooks/agent-rewind.json')));
  // 2. Claude connected later: its file serves VS Code and Copilot CLI, so ours in .github goes.
  const out = connectAgents(['claude'], ws, TARGET);
  assert.ok(out.some((o) => o.agent === 'vscode' && o.changed && /Removed .github\/hooks\/agent-rewind.json/.test(o.notes.join(' '))));
  assert.equal(fs.existsSync(path.join(ws, '.github')), false);
  assert.equal(vscodeConnector.state(ws, TARGET), 'connected', 'served by the Claude file');
  // 3. Connecting VS Code now writes nothing and says which file serves it.
  const again = connectAgents(['vscode'], ws, TARGET)[0]!;
  assert.equal(again.changed, false);
  assert.match(again.notes.join(' '), /already served by \.claude\/settings\.local\.json/);
  assert.equal(fs.existsSync(path.join(ws, '.github')), false);
  // 4. Both at once: one file.
  const ws2 = tempDir('ar-connect-double2-');
  connectAgents(['vscode', 'claude', 'cursor'], ws2, TARGET);
  assert.deepEqual(fs.readdirSync(ws2).sort(), ['.claude', '.cursor']);
  assert.equal(agentStates(ws2, TARGET).get('vscode'), 'connected');
  // 5. Disconnecting Claude alone says VS Code / Copilot CLI lose their recording.
  const d = disconnectAgents(['claude'], ws2, TARGET)[0]!;
  assert.match(d.notes.join(' '), /VS Code agent mode and Copilot CLI were recorded through that file/);
  assert.equal(vscodeConnector.state(ws2, TARGET), 'disconnected');
  disconnectAgents(['cursor'], ws2, TARGET);
  assert.deepEqual(fs.readdirSync(ws2), []);
});

test('a file Connect cannot parse is left alone with a sentence that says what to fix', () => {
  const ws = tempDir('ar-connect-bad-');
  fs.mkdirSync(path.join(ws, '.cursor'));
  fs.writeFileSync(path.join(ws, '.cursor/hooks.json'), '{ "hooks": [ }');
  const out = connectAgents(['cursor'], ws, TARGET)[0]!;
  assert.match(out.error ?? '', /not valid JSON.*fix it by hand/);
  assert.equal(read(path.join(ws, '.cursor/hooks.json')), '{ "hooks": [ }');
  // The sentence is in the caller's language (the extension's localizer), for Connect and Disconnect alike.
  const shouting = { t: (m: string, ...a: Parameters<typeof ENGLISH.t>[1][]) => ENGLISH.t(m, ...a).toUpperCase() };
  assert.match(connectAgents(['cursor'], ws, TARGET, shouting)[0]!.error ?? '', /NOT VALID JSON.*FIX IT BY HAND/);
  assert.match(disconnectAgents(['cursor'], ws, TARGET, shouting)[0]!.error ?? '', /NOT VALID JSON.*FIX IT BY HAND/);
});

test('the registry lists one connector per agent family; detect() names its evidence', () => {
  assert.deepEqual(
    CONNECTORS.map((c) => c.agent),
    ['claude', 'vscode', 'codex', 'gemini', 'cursor', 'cline', 'opencode', 'qwen', 'droid', 'auggie', 'windsurf', 'kiro'],
  );
  assert.equal(connectorFor('copilot'), vscodeConnector);
  const ws = tempDir('ar-connect-detect-');
  const home = tempDir('ar-connect-home-');
  fs.mkdirSync(path.join(ws, '.cursor'));
  fs.mkdirSync(path.join(home, '.cline'));
  const bin = tempDir('ar-connect-bin-');
  fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\n', { mode: 0o755 });
  const env = { PATH: bin };
  assert.equal(cursorConnector.detect(ws, env, home), '.cursor in this workspace');
  assert.equal(clineConnector.detect(ws, env, home), '~/.cline');
  assert.equal(claudeConnector.detect(ws, env, home), 'claude on PATH');
  assert.equal(vscodeConnector.detect(ws, { PATH: '' }, home), null);
});

test('capabilities: one table says per agent whether the conversation can be rewound, and why not', () => {
  for (const a of ['claude', 'codex', 'gemini', 'qwen', 'opencode']) assert.equal(conversationUnavailableText(a), null, a);
  for (const a of ['vscode', 'copilot', 'cursor', 'cline', 'droid', 'auggie', 'windsurf', 'kiro'])
    assert.match(
      conversationUnavailableText(a)!,
      new RegExp(`^Conversation rewind is not available for ${agentCapabilities(a).displayName}: .+\\.$`),
    );
  assert.equal(agentCapabilities('cursor').displayName, 'Cursor');
  assert.equal(agentCapabilities('someday-agent').displayName, 'someday-agent');
  assert.ok(conversationUnavailableText('someday-agent'));
});

test('the connect notes and the capability sentences are in the language of the localizer given; English without one', () => {
  const fr = bundleLocalizer({
    'Cursor runs project hooks only in a trusted workspace.': 'Cursor exécute les hooks du projet seulement dans un espace approuvé.',
    'Conversation rewind is not available for {0}: {1}.': "Le retour en arrière de la conversation n'est pas disponible pour {0} : {1}.",
    'Cursor keeps its chats in its own database, not in a file another program can fork or resume':
      'Cursor garde ses discussions dans sa base',
    "{0} is your own file: it was left as it is, so {1} does not run Agent Rewind's copy.":
      '{0} est votre fichier ; {1} ne lance pas la copie.',
  });
  const ws = tempDir('ar-connect-l10n-');
  assert.deepEqual(connectAgents(['cursor'], ws, TARGET)[0]!.notes, ['Cursor runs project hooks only in a trusted workspace.']);
  assert.deepEqual(connectAgents(['cursor'], ws, TARGET, fr)[0]!.notes, [
    'Cursor exécute les hooks du projet seulement dans un espace approuvé.',
  ]);
  fs.mkdirSync(path.join(ws, '.opencode', 'plugins'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.opencode', 'plugins', 'agent-rewind.js'), '// mine\n');
  assert.equal(
    connectAgents(['opencode'], ws, TARGET, fr)[0]!.notes[0],
    '.opencode/plugins/agent-rewind.js est votre fichier ; OpenCode ne lance pas la copie.',
  );
  assert.equal(
    conversationUnavailableText('cursor'),
    'Conversation rewind is not available for Cursor: Cursor keeps its chats in its own database, not in a file another program can fork or resume.',
  );
  assert.equal(
    conversationUnavailableText('cursor', fr),
    "Le retour en arrière de la conversation n'est pas disponible pour Cursor : Cursor garde ses discussions dans sa base.",
  );
  // What is not in the bundle stays English, as VS Code does.
  assert.match(conversationUnavailableText('cline', fr)!, /^Le retour .* pour Cline : Cline keeps its task history/);
});

test('the Claude settings warnings are one sentence each, for the connect notes and the extension alike, in the localizer given', () => {
  const fr = bundleLocalizer({
    '{0} sets "disableAllHooks": Claude Code will not run Agent Rewind\'s hooks until you remove it.':
      '{0} contient "disableAllHooks" : Claude Code ne lancera pas les hooks.',
    '{0} contains {1}: Claude Code ignores a settings file that is not plain JSON. Remove them so the hooks load.': '{0} contient {1}.',
  });
  const file = path.join('.claude', 'settings.local.json');
  const ws = tempDir('ar-connect-claude-words-');
  fs.mkdirSync(path.join(ws, '.claude'));
  fs.writeFileSync(path.join(ws, file), '// mine\n{"disableAllHooks": true}\n');
  assert.deepEqual(claudeConnector.connect(ws, TARGET).notes, [
    `${file} sets "disableAllHooks": Claude Code will not run Agent Rewind's hooks until you remove it.`,
    `${file} contains comments: Claude Code ignores a settings file that is not plain JSON. Remove them so the hooks load.`,
  ]);
  assert.deepEqual(claudeConnector.connect(ws, TARGET, fr).notes, [
    hooksDisabledWords(file, fr),
    notPlainJsonWords(file, ['comments'], fr),
  ]);
  assert.deepEqual(claudeConnector.connect(ws, TARGET, fr).notes, [
    `${file} contient "disableAllHooks" : Claude Code ne lancera pas les hooks.`,
    `${file} contient comments.`,
  ]);
});
