// A Copilot agent-mode session (VS Code's own agent hooks, Local harness) recorded through the real
// hook path and rewound, in the real VS Code. VS Code reads `.claude/settings*.json`, so its payloads
// arrive at the command Connect Claude Code writes (`hook claude`): the payload's shape wins and the
// session is recorded as agent `vscode`. Payloads as test/fixtures/agents/vscode/ documents them
// (snake_case, ISO `timestamp`, camelCase tool input, no SessionEnd).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { CLI } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

suite('VS Code agent mode session', function () {
  this.timeout(120000);
  let api: AgentRewindApi;
  let ws: string;
  const session = `vscode-it-${Date.now().toString(36)}`;
  let seq = 0;
  const file = (rel: string) => path.join(ws, 'copilot', rel);

  function hook(payload: Record<string, unknown>): void {
    const r = spawnSync(process.execPath, [CLI, 'hook', 'claude'], {
      input: JSON.stringify({ timestamp: new Date(Date.now() + seq++).toISOString(), session_id: session, cwd: ws, ...payload }),
      env: { ...process.env, AGENT_REWIND_STORE: api.storeDir!, ELECTRON_RUN_AS_NODE: '1' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
  }

  function tool(tool_name: string, tool_input: Record<string, unknown>, effect: () => void): void {
    const tool_use_id = `call_${session}_${seq++}__vscode-${seq}`;
    hook({ hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id });
    effect();
    hook({ hook_event_name: 'PostToolUse', tool_name, tool_input, tool_use_id, tool_response: 'done' });
  }

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });

  suiteTeardown(() => fs.rmSync(path.join(ws, 'copilot'), { recursive: true, force: true }));

  test('recorded as VS Code agent mode (files only, with the reason), rewound to its second prompt and undone', async () => {
    hook({ hook_event_name: 'SessionStart', source: 'new' });
    hook({ hook_event_name: 'UserPromptSubmit', prompt: 'create the greeting' });
    tool('create_file', { filePath: file('hello.ts'), content: 'export const hi = 1;\n' }, () => {
      fs.mkdirSync(path.dirname(file('hello.ts')), { recursive: true });
      fs.writeFileSync(file('hello.ts'), 'export const hi = 1;\n');
    });
    hook({ hook_event_name: 'Stop', stop_hook_active: false });
    hook({ hook_event_name: 'UserPromptSubmit', prompt: 'make it two' });
    tool('replace_string_in_file', { filePath: file('hello.ts'), oldString: 'hi = 1', newString: 'hi = 2' }, () =>
      fs.writeFileSync(file('hello.ts'), 'export const hi = 2;\n'),
    );
    tool('create_file', { filePath: file('extra.ts'), content: 'x\n' }, () => fs.writeFileSync(file('extra.ts'), 'x\n'));
    hook({ hook_event_name: 'Stop', stop_hook_active: false });

    const errors = path.join(api.storeDir!, 'errors.log');
    assert.ok(!fs.existsSync(errors) || !fs.readFileSync(errors, 'utf8').includes(session), 'well-formed payloads log nothing');

    // The Conversation view: the agent by name, files only, and why.
    const el = await until('the VS Code session', () =>
      api.conversation!.getChildren().find((e) => e.kind === 'session' && e.session.id === session),
    );
    const item = api.conversation!.getTreeItem(el);
    assert.match(String(item.label), /^VS Code agent mode · create the greeting/, 'the agent leads the label');
    assert.match(String(item.description), /^files only · /);
    assert.match(String(item.contextValue), /\.filesOnly$/);
    assert.match(
      (item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' '),
      /not available for VS Code agent mode: .*Copilot Chat/,
    );

    // The Files view's checkpoints carry the agent; the rewind to the second prompt keeps the first turn.
    const second = await until('the second prompt', () =>
      api.model!.checkpoints.find((n) => n.checkpoint.session === session && n.checkpoint.label === 'make it two'),
    );
    assert.equal(second.checkpoint.agent, 'vscode');
    const plan = await api.service!.plan(second.checkpoint.id);
    assert.deepEqual(plan.files.map((f) => [path.basename(f.path), f.action]).sort(), [
      ['extra.ts', 'delete'],
      ['hello.ts', 'restore'],
    ]);
    const r = await api.service!.apply(second.checkpoint.id);
    assert.equal(r.status, 'done');
    assert.equal(fs.readFileSync(file('hello.ts'), 'utf8'), 'export const hi = 1;\n');
    assert.ok(!fs.existsSync(file('extra.ts')));
    const last = await until('the rewind checkpoint', () => api.model!.lastRewind());
    const undo = await api.service!.apply(last.checkpoint.id);
    assert.equal(undo.status, 'done');
    assert.equal(fs.readFileSync(file('hello.ts'), 'utf8'), 'export const hi = 2;\n');
    assert.equal(fs.readFileSync(file('extra.ts'), 'utf8'), 'x\n');
  });
});
