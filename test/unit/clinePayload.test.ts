import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseClinePayload } from '../../src/agents/cline/hookPayload';
import { fixtureText, WS } from './agentFixtures';

const ev = (rel: string) => {
  const r = parseClinePayload(fixtureText(`cline/${rel}`));
  assert.equal(r.kind, 'event', JSON.stringify(r));
  return r.kind === 'event' ? r.event : (null as never);
};

test('cline: task lifecycle, prompt and stop from the extension and the CLI', () => {
  assert.equal(ev('vscode-4.1/task-start.json').type, 'session_start');
  const p = ev('vscode-4.1/prompt.json');
  assert.ok(
    p.type === 'prompt' && p.text === 'Move the retry logic into src/net/retry.ts' && p.session === '1796300000000' && p.cwd === WS,
  );
  assert.equal(ev('vscode-4.1/task-complete.json').type, 'stop');
  assert.equal(ev('vscode-4.1/task-cancel.json').type, 'stop');
  assert.equal(ev('cli-3.0/agent-start.json').type, 'session_start');
  assert.equal(ev('cli-3.0/prompt.json').type, 'prompt');
  assert.equal(ev('cli-3.0/agent-end.json').type, 'stop');
  assert.equal(ev('cli-3.0/session-shutdown.json').type, 'session_end');
});

test('cline: relative paths resolve against workspaceRoots[0]; apply_patch parsed; string parameters decoded', () => {
  const w = ev('vscode-3.x/pre-write_to_file.json');
  assert.ok(w.type === 'before_tool');
  assert.deepEqual(w.paths, [`${WS}/src/net/retry.ts`]);
  assert.ok(w.pairKey && !w.callId);
  const n = ev('vscode-3.x/pre-write_to_file-native.json');
  assert.ok(n.type === 'before_tool');
  assert.deepEqual(n.paths, [`${WS}/src/net/server.ts`]);
  const patch = ev('vscode-4.1/pre-apply_patch.json');
  assert.ok(patch.type === 'before_tool');
  assert.deepEqual(patch.paths, [`${WS}/src/net/server.ts`]);
  const run = ev('vscode-4.1/pre-run_commands.json');
  assert.ok(run.type === 'before_tool' && run.kind.kind === 'shell' && run.kind.command === 'npm test -- --run retry');
  const exec = ev('vscode-3.x/pre-execute_command.json');
  assert.ok(exec.type === 'before_tool' && exec.kind.kind === 'shell');
  const mcp = ev('vscode-4.1/pre-mcp.json');
  assert.ok(mcp.type === 'before_tool' && mcp.kind.kind === 'remote' && mcp.kind.server === 'github');
  const legacyMcp = ev('vscode-3.x/pre-use_mcp_tool.json');
  assert.ok(legacyMcp.type === 'before_tool' && legacyMcp.kind.kind === 'remote' && legacyMcp.kind.name === 'create_issue');
});

test('cline: the CLI pairs by its call id; a Post with success:false is a failure', () => {
  const pre = ev('cli-3.0/pre-editor.json');
  const post = ev('cli-3.0/post-editor.json');
  assert.ok(pre.type === 'before_tool' && post.type === 'after_tool');
  assert.equal(pre.callId, 'toolu_01Ez9Ys5Gc1Tv4Aw7Kq0Rc3U');
  assert.equal(post.callId, pre.callId);
  const failed = JSON.parse(fixtureText('cline/vscode-4.1/post-editor-edit.json'));
  failed.postToolUse.success = false;
  const r = parseClinePayload(JSON.stringify(failed));
  assert.ok(r.kind === 'event' && r.event.type === 'after_tool' && !r.event.ok);
  // The pair key of a Pre equals its Post's: same tool, same parameters.
  const a = ev('vscode-4.1/pre-editor-edit.json');
  const b = ev('vscode-4.1/post-editor-edit.json');
  assert.ok(a.type === 'before_tool' && b.type === 'after_tool' && a.pairKey === b.pairKey);
});
