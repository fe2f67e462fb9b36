// Cline on Windows runs `.clinerules/hooks/<Hook>.ps1` (FINDINGS §4): Connect writes PowerShell scripts
// there instead of sh ones. The generated text (Windows paths quoted for PowerShell, UTF-8 both ways,
// output dropped, exit 0) and the connect / disconnect round trip of the win32 connector, run on this
// machine's real files (the layout only differs in names and the exec bit).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CONNECT_MARKER } from '../../src/agents/common/hookCommand';
import { CLINE_HOOK_EVENTS, clineConnectorFor, clinePowerShellScript, psQuote } from '../../src/agents/cline/connect';
import type { HookTarget } from '../../src/agents/common/connector';
import { tempDir } from '../helpers/tmp';

const WIN: HookTarget = {
  node: 'C:\\Program Files\\nodejs\\node.exe',
  cli: "C:\\Users\\O'Brien\\AppData\\Roaming\\Code\\User\\globalStorage\\agent-rewind\\cli\\0.1.0\\dist\\cli.js",
  store: 'C:\\Users\\O\u2019Brien\\.agent-rewind\\ws-0123456789ab',
};

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

test('PowerShell quoting: single quotes, a quote (straight or curly) doubled, line breaks refused', () => {
  assert.equal(psQuote('C:\\Program Files\\node.exe'), "'C:\\Program Files\\node.exe'");
  assert.equal(psQuote("O'Brien $HOME `x`"), "'O''Brien $HOME `x`'", 'nothing expands inside single quotes; a quote is doubled');
  assert.equal(psQuote('O\u2019Brien'), "'O\u2019\u2019Brien'", 'PowerShell ends a string at a curly quote too');
  assert.throws(() => psQuote('a\nb'), /line break/);
});

test('the .ps1 script: UTF-8 in and out, stdin piped to our hook with the event, output dropped, exit 0, CRLF', () => {
  const text = clinePowerShellScript('PreToolUse', { ...WIN, env: { ELECTRON_RUN_AS_NODE: '1' } });
  assert.equal(
    text,
    [
      "# Agent Rewind recorder for Cline's PreToolUse hook: stdin is the payload; it prints nothing and exits 0, so it never blocks Cline.",
      '$utf8 = New-Object System.Text.UTF8Encoding $false',
      '[Console]::InputEncoding = $utf8',
      '$OutputEncoding = $utf8',
      "$env:ELECTRON_RUN_AS_NODE = '1'",
      "[Console]::In.ReadToEnd() | & 'C:\\Program Files\\nodejs\\node.exe' " +
        "'C:\\Users\\O''Brien\\AppData\\Roaming\\Code\\User\\globalStorage\\agent-rewind\\cli\\0.1.0\\dist\\cli.js' " +
        `hook cline PreToolUse --store 'C:\\Users\\O\u2019\u2019Brien\\.agent-rewind\\ws-0123456789ab' ${CONNECT_MARKER} | Out-Null`,
      'exit 0',
      '',
    ].join('\r\n'),
  );
  assert.throws(() => clinePowerShellScript('Pre Tool', WIN), /Bad event name/);
  assert.throws(() => clinePowerShellScript('TaskStart', { ...WIN, env: { 'A-B': '1' } }), /Bad environment variable name/);
});

test("win32 Connect writes <Hook>.ps1 per event, leaves the user's own .ps1 alone, is idempotent; Disconnect restores the tree", () => {
  const cline = clineConnectorFor('win32');
  const ws = tempDir('ar-cline-win-');
  const hooks = path.join(ws, '.clinerules', 'hooks');
  fs.mkdirSync(hooks, { recursive: true });
  fs.writeFileSync(path.join(hooks, 'PreToolUse.ps1'), 'Write-Host mine\r\n');
  fs.writeFileSync(path.join(ws, '.clinerules', 'style.md'), '# rules\n');
  const before = tree(ws);

  assert.deepEqual(
    cline.files(ws).map((f) => path.relative(ws, f)),
    CLINE_HOOK_EVENTS.map((e) => path.join('.clinerules', 'hooks', `${e}.ps1`)),
  );
  const r = cline.connect(ws, WIN);
  assert.equal(r.changed, true);
  assert.ok(
    r.notes.some((n) => n.includes('.clinerules/hooks/PreToolUse.ps1 is your own hook')),
    r.notes.join(' | '),
  );
  assert.ok(!r.notes.some((n) => /does not write yet/.test(n)), 'no "not recorded on Windows" note any more');
  for (const e of CLINE_HOOK_EVENTS.filter((x) => x !== 'PreToolUse'))
    assert.equal(fs.readFileSync(path.join(hooks, `${e}.ps1`), 'utf8'), clinePowerShellScript(e, WIN), `${e}.ps1 is our script`);
  assert.equal(fs.readFileSync(path.join(hooks, 'PreToolUse.ps1'), 'utf8'), 'Write-Host mine\r\n');
  assert.ok(!fs.existsSync(path.join(hooks, 'TaskStart')), 'no sh script on Windows');
  assert.equal(cline.state(ws, WIN), 'connected');
  assert.equal(cline.connect(ws, WIN).changed, false, 'connecting twice changes nothing');
  assert.equal(cline.state(ws, { ...WIN, store: 'D:\\other' }), 'outdated', 'another store: connecting refreshes it');

  assert.equal(cline.disconnect(ws).changed, true);
  assert.deepEqual(tree(ws), before, "only our scripts are removed; the user's .ps1 and rules stay byte for byte");
  assert.equal(cline.state(ws, WIN), 'disconnected');

  // In a folder with nothing of Cline's, Disconnect removes what Connect created, folders included.
  const fresh = tempDir('ar-cline-win-fresh-');
  cline.connect(fresh, WIN);
  cline.disconnect(fresh);
  assert.deepEqual(fs.readdirSync(fresh), []);
});

test('a workspace connected on Linux or macOS is disconnected on Windows too (and the other way round)', () => {
  const ws = tempDir('ar-cline-cross-');
  const posixTarget: HookTarget = { node: '/usr/bin/node', cli: '/opt/ar/dist/cli.js', store: '/home/ana/.store' };
  clineConnectorFor('linux').connect(ws, posixTarget);
  assert.equal(clineConnectorFor('win32').disconnect(ws).changed, true);
  assert.deepEqual(fs.readdirSync(ws), []);
  clineConnectorFor('win32').connect(ws, WIN);
  assert.equal(clineConnectorFor('linux').disconnect(ws).changed, true);
  assert.deepEqual(fs.readdirSync(ws), []);
});
