// The settings writer behind "Connect Claude Code": merging into `.claude/settings.local.json`
// with the user's formatting and hooks intact, idempotence, an exact Disconnect, and a hook command
// that survives hostile paths when a real shell runs it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cmdQuote, CONNECT_MARKER, hookCommand, isConnectedHandler, shellQuote } from '../../src/agents/common/hookCommand';
import { STANDARD_HOOK_EVENTS } from '../../src/agents/common/hooksFile';
import { isError } from '../../src/core/errors';
import {
  connectClaude,
  connectClaudeFile,
  connectionState,
  disconnectClaude,
  disconnectClaudeFile,
  hooksDisabled,
  settingsPath,
  settingsProblems,
  writeSettingsFile,
} from '../../src/agents/claude/settings';
import { CLI } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const HOOK = {
  command: hookCommand({ node: '/usr/bin/node', cli: '/opt/agent-rewind/0.1.0/dist/cli.js', store: '/home/ana/.store', agent: 'claude' }),
};
const HOOK2 = {
  command: hookCommand({ node: '/usr/bin/node', cli: '/opt/agent-rewind/0.2.0/dist/cli.js', store: '/home/ana/.store', agent: 'claude' }),
};

const count = (text: string, needle: string) => text.split(needle).length - 1;

/** `result` is `original` with text inserted and nothing removed or re-formatted (a subsequence check). */
function onlyInserted(original: string, result: string): void {
  let at = 0;
  for (let i = 0; i < original.length; i++) {
    const j = result.indexOf(original[i]!, at);
    assert.ok(
      j >= 0,
      `the user's text was changed near offset ${i}: ${JSON.stringify(original.slice(Math.max(0, i - 20), i + 20))}\n${result}`,
    );
    at = j + 1;
  }
}

const ORIGINALS: Record<string, string> = {
  'empty object': '{}',
  'other settings only': '{\n  "permissions": {\n    "allow": ["Bash(npm test)"]\n  },\n  "model": "opus"\n}\n',
  'user hooks, compact groups, tabs':
    '{\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{ "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/guard.sh" } ] }\n\t\t],\n\t\t"Notification": [{"hooks": [{"type": "command", "command": "notify-send claude"}]}]\n\t}\n}\n',
  'comments and trailing commas (JSONC)':
    '// my Claude settings\n{\n    /* hooks of mine */\n    "hooks": { // keep\n        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]},],\n    },\n}\n',
  'CRLF, 4 spaces':
    '{\r\n    "hooks": {\r\n        "PostToolUse": [\r\n            {\r\n                "matcher": "Write",\r\n                "hooks": [{ "type": "command", "command": "prettier --write" }]\r\n            }\r\n        ]\r\n    }\r\n}\r\n',
  'inline everything': '{"env": {"FOO": "1"}, "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}',
};

test('connect on a missing file writes every event with our handler, tool events matching every tool', () => {
  const text = connectClaude(undefined, HOOK);
  const j = JSON.parse(text); // plain JSON: Claude Code does not load JSONC
  assert.deepEqual(Object.keys(j.hooks), [...STANDARD_HOOK_EVENTS]);
  for (const e of STANDARD_HOOK_EVENTS) {
    assert.equal(j.hooks[e].length, 1);
    const g = j.hooks[e][0];
    assert.equal(g.matcher, e.includes('ToolUse') ? '*' : undefined, e);
    assert.deepEqual(g.hooks, [{ type: 'command', command: HOOK.command, timeout: 30 }]);
  }
  assert.ok(text.endsWith('}\n'));
  assert.deepEqual(settingsProblems(text), []);
});

for (const [name, original] of Object.entries(ORIGINALS)) {
  test(`merge (${name}): user's lines kept verbatim, idempotent, Disconnect restores the exact text`, () => {
    const connected = connectClaude(original, HOOK);
    onlyInserted(original, connected);
    assert.equal(count(connected, CONNECT_MARKER), STANDARD_HOOK_EVENTS.length);
    assert.equal(connectClaude(connected, HOOK), connected, 'connecting twice changes nothing');
    assert.equal(disconnectClaude(connected), original);
    assert.equal(connectionState(connected, HOOK), 'connected');
    assert.equal(connectionState(original, HOOK), 'disconnected');
  });
}

test("merge keeps the user's own hooks as they were, ours appended after them", () => {
  const original = ORIGINALS['user hooks, compact groups, tabs']!;
  const j = JSON.parse(connectClaude(original, HOOK));
  assert.deepEqual(j.hooks.PreToolUse[0], { matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard.sh' }] });
  assert.equal(j.hooks.PreToolUse[1].matcher, '*');
  assert.deepEqual(j.hooks.Notification, [{ hooks: [{ type: 'command', command: 'notify-send claude' }] }]);
  // Written the way the file is written: tab indentation.
  assert.match(connectClaude(original, HOOK), /\n\t\t\t\{\n\t\t\t\t"matcher": "\*",/);
});

test('CRLF files stay CRLF', () => {
  const c = connectClaude(ORIGINALS['CRLF, 4 spaces'], HOOK);
  assert.equal(c.replace(/\r\n/g, '').includes('\n'), false, 'a bare \\n was written into a CRLF file');
});

test('connect with a newer CLI path replaces our old entries instead of adding a second handler', () => {
  const old = connectClaude(ORIGINALS['other settings only'], HOOK);
  const updated = connectClaude(old, HOOK2);
  assert.equal(count(updated, CONNECT_MARKER), STANDARD_HOOK_EVENTS.length);
  assert.ok(!updated.includes('0.1.0'));
  assert.equal(connectionState(old, HOOK2), 'outdated');
  assert.equal(disconnectClaude(updated), ORIGINALS['other settings only']);
});

test('duplicated or misplaced entries of ours are cleaned up to exactly one per event', () => {
  const ours = (matcher?: string) => ({
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: 'command', command: HOOK.command }],
  });
  const messy = JSON.stringify({ hooks: { PreToolUse: [ours('*'), ours('*'), ours('Write')], Notification: [ours()] } }, null, 2);
  const fixed = JSON.parse(connectClaude(messy, HOOK));
  assert.equal(fixed.hooks.PreToolUse.length, 1);
  assert.equal(fixed.hooks.Notification, undefined, 'our handler on an event we do not record is removed');
  assert.equal(count(JSON.stringify(fixed), CONNECT_MARKER), STANDARD_HOOK_EVENTS.length);
});

test('Disconnect removes only our handler from a group the user shares with it, and leaves hand-written agent-rewind hooks', () => {
  const handWritten = 'node /usr/lib/agent-rewind/cli.js hook claude --store /tmp/s';
  const text = JSON.stringify(
    {
      hooks: {
        PreToolUse: [
          {
            matcher: '*',
            hooks: [
              { type: 'command', command: 'echo mine' },
              { type: 'command', command: HOOK.command },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: handWritten }] }],
      },
    },
    null,
    2,
  );
  const j = JSON.parse(disconnectClaude(text));
  assert.deepEqual(j.hooks.PreToolUse, [{ matcher: '*', hooks: [{ type: 'command', command: 'echo mine' }] }]);
  assert.deepEqual(j.hooks.Stop, [{ hooks: [{ type: 'command', command: handWritten }] }]);
  assert.equal(isConnectedHandler({ type: 'command', command: handWritten }), false);
  assert.equal(isConnectedHandler({ type: 'command', command: HOOK2.command }), true);
});

test('Disconnect of a file without our entries returns it byte-identical', () => {
  for (const t of Object.values(ORIGINALS)) assert.equal(disconnectClaude(t), t);
});

test('a file that is not valid JSON, or has a "hooks" that is not an object, is refused, not overwritten', () => {
  assert.throws(
    () => connectClaude('{ "hooks": ', HOOK),
    (e: unknown) =>
      isError(e, 'hooks-file') && /is not valid JSON \(.+ at offset \d+\); fix it by hand, then connect again\.$/.test(e.message),
  );
  assert.throws(
    () => connectClaude('[1, 2]', HOOK),
    (e: unknown) => isError(e, 'hooks-file') && /does not hold a JSON object/.test(e.message),
  );
  assert.throws(() => connectClaude('{"hooks": []}', HOOK), /not an object/);
  assert.throws(() => connectClaude('{"hooks": {"Stop": {}}}', HOOK), /not a list/);
  assert.throws(() => connectClaude('{}', { command: 'node cli.js hook claude' }), /connected-by/);
});

test('settingsProblems names what makes Claude Code ignore the file; hooksDisabled sees disableAllHooks', () => {
  assert.deepEqual(settingsProblems('{"a": 1}'), []);
  assert.ok(settingsProblems('// c\n{"a": 1}').includes('comments'));
  assert.ok(settingsProblems('{"a": 1,}').includes('trailing-commas'));
  assert.ok(settingsProblems('{"a": ').includes('invalid-json'));
  assert.equal(hooksDisabled('{"disableAllHooks": true}'), true);
  assert.equal(hooksDisabled('{"disableAllHooks": false}'), false);
  assert.equal(hooksDisabled(undefined), false);
});

test('shell quoting: plain words bare, everything else single-quoted; cmd quoting refuses what it cannot quote', () => {
  assert.equal(shellQuote('/usr/bin/node'), '/usr/bin/node');
  assert.equal(shellQuote("/a b/it's"), `'/a b/it'\\''s'`);
  assert.equal(shellQuote(''), "''");
  assert.throws(
    () => shellQuote('a\0b'),
    (e: unknown) => isError(e, 'hook-command'),
  );
  assert.equal(cmdQuote('C:\\Program Files\\node.exe'), '"C:\\Program Files\\node.exe"');
  assert.throws(
    () => cmdQuote('C:\\100%\\x'),
    (e: unknown) =>
      isError(e, 'hook-command') &&
      e.message === 'The path C:\\100%\\x contains a character cmd.exe cannot quote safely (" % !); choose a folder without it.',
  );
  assert.equal(
    hookCommand({ node: 'C:\\n\\node.exe', cli: 'C:\\a b\\cli.js', store: 'C:\\s', agent: 'claude', shell: 'cmd' }),
    `"C:\\n\\node.exe" "C:\\a b\\cli.js" hook claude --store "C:\\s" ${CONNECT_MARKER}`,
  );
  assert.equal(
    hookCommand({ node: '/n', cli: '/c.js', store: '/s', agent: 'claude', env: { ELECTRON_RUN_AS_NODE: '1' } }),
    `ELECTRON_RUN_AS_NODE=1 /n /c.js hook claude --store /s ${CONNECT_MARKER}`,
  );
  assert.throws(
    () => hookCommand({ node: '/n', cli: '/c', store: '/s', agent: 'claude; rm -rf /' }),
    (e: unknown) => isError(e, 'hook-command'),
  );
});

test(
  'the hook command runs through /bin/sh with hostile paths and records into exactly that store',
  { skip: process.platform === 'win32' },
  () => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first');
    const root = tempDir('ar-settings-');
    const hostile = `we ird 'q' "dq" $HOME \`touch pwned\` $(touch pwned2) ; & | \\ *`;
    const cliDir = path.join(root, `cli ${hostile}`);
    fs.mkdirSync(cliDir, { recursive: true });
    for (const f of ['cli.js', 'hook.js', 'commands.js']) fs.copyFileSync(path.join(path.dirname(CLI), f), path.join(cliDir, f));
    const store = path.join(root, `store ${hostile}`);
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    const command = hookCommand({ node: process.execPath, cli: path.join(cliDir, 'cli.js'), store, agent: 'claude' });
    const payload = {
      session_id: 's1',
      transcript_path: path.join(root, 't.jsonl'),
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'hello $HOME `x`',
      prompt_id: 'p1',
    };
    const r = spawnSync('/bin/sh', ['-c', command], {
      cwd: ws,
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: root },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    const log = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8');
    const cp = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((x) => x.t === 'checkpoint');
    assert.equal(cp.label, 'hello $HOME `x`');
    for (const d of [root, ws])
      for (const f of ['pwned', 'pwned2']) assert.equal(fs.existsSync(path.join(d, f)), false, `command substitution ran: ${f}`);
    assert.deepEqual(fs.readdirSync(root).sort(), ['cli ' + hostile, 'store ' + hostile, 'ws'].sort());
  },
);

test(
  'file helpers: connect creates the file (0600), is idempotent, Disconnect removes what it created',
  { skip: process.platform === 'win32' },
  () => {
    const ws = tempDir('ar-settings-file-');
    const a = connectClaudeFile(ws, HOOK);
    assert.equal(a.changed, true);
    assert.equal(fs.statSync(a.file).mode & 0o777, 0o600);
    assert.equal(connectClaudeFile(ws, HOOK).changed, false);
    const d = disconnectClaudeFile(ws);
    assert.equal(d.changed, true);
    assert.equal(fs.existsSync(a.file), false);
    assert.equal(disconnectClaudeFile(ws).changed, false);
    assert.deepEqual(fs.readdirSync(path.join(ws, '.claude')), [], 'no temp file left');
  },
);

test("file helpers keep the user's file, its mode and its bytes across connect + disconnect", () => {
  const ws = tempDir('ar-settings-file-');
  const file = settingsPath(ws);
  fs.mkdirSync(path.dirname(file));
  const original = ORIGINALS['user hooks, compact groups, tabs']!;
  fs.writeFileSync(file, original, { mode: 0o644 });
  fs.chmodSync(file, 0o644);
  const c = connectClaudeFile(ws, HOOK);
  assert.equal(c.changed, true);
  assert.deepEqual(c.problems, []);
  assert.equal(fs.statSync(file).mode & 0o777, 0o644);
  disconnectClaudeFile(ws);
  assert.equal(fs.readFileSync(file, 'utf8'), original);
  assert.equal(connectClaudeFile(ws, HOOK).problems.length, 0);
});

test('writeSettingsFile refuses to overwrite a file that changed since it was read', () => {
  const ws = tempDir('ar-settings-file-');
  const file = settingsPath(ws);
  writeSettingsFile(file, '{"a": 1}\n');
  assert.equal(writeSettingsFile(file, '{"b": 2}\n', { expected: '{"old": 0}\n', checkExpected: true }), false);
  assert.equal(fs.readFileSync(file, 'utf8'), '{"a": 1}\n');
  assert.equal(writeSettingsFile(file, '{"b": 2}\n', { expected: '{"a": 1}\n', checkExpected: true }), true);
  assert.equal(fs.readFileSync(file, 'utf8'), '{"b": 2}\n');
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ['settings.local.json']);
});
