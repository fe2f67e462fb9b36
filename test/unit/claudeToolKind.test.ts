// Claude Code's tools mapped to core's generic kinds (agents/claude/toolKind.ts): each family, the
// summary hints that keep the labels Claude calls have always had, and the kind the hook adapter
// puts on its tool events.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseClaudePayload } from '../../src/agents/claude/hookPayload';
import { claudeToolKind } from '../../src/agents/claude/toolKind';
import { classifyCall } from '../../src/core/effects/classifyCall';

const label = (tool: string, input: unknown) => `${tool}: ${classifyCall(tool, claudeToolKind(tool, input), input).summary}`;

describe('Claude Code tool kinds', () => {
  it('file tools write the file their input names', () => {
    for (const t of ['Write', 'Edit', 'MultiEdit'])
      assert.deepEqual(claudeToolKind(t, { file_path: '/w/a.ts', content: 'x' }), {
        kind: 'file-write',
        paths: ['/w/a.ts'],
        summary: '/w/a.ts',
      });
    assert.deepEqual(claudeToolKind('NotebookEdit', { notebook_path: '/w/n.ipynb' }), {
      kind: 'file-write',
      paths: ['/w/n.ipynb'],
      summary: '/w/n.ipynb',
    });
    assert.deepEqual(claudeToolKind('Write', {}), { kind: 'file-write', paths: [], summary: '' });
  });
  it('Bash is a POSIX shell, PowerShell a PowerShell one', () => {
    assert.deepEqual(claudeToolKind('Bash', { command: 'git push', description: 'push' }), {
      kind: 'shell',
      command: 'git push',
      dialect: 'sh',
    });
    assert.deepEqual(claudeToolKind('PowerShell', { command: 'Get-ChildItem' }), {
      kind: 'shell',
      command: 'Get-ChildItem',
      dialect: 'powershell',
    });
    assert.deepEqual(claudeToolKind('Bash', { command: 7 }), { kind: 'shell', command: '', dialect: 'sh' });
  });
  it('the read-only built-ins are reads, with the path, URL or pattern as their summary', () => {
    for (const t of [
      'LS',
      'WebSearch',
      'TodoWrite',
      'TodoRead',
      'NotebookRead',
      'Task',
      'Agent',
      'ExitPlanMode',
      'BashOutput',
      'KillShell',
      'AskUserQuestion',
      'Skill',
      'ToolSearch',
    ]) {
      assert.deepEqual(claudeToolKind(t, {}), { kind: 'read' }, t);
    }
    assert.deepEqual(claudeToolKind('Read', { file_path: '/w/a' }), { kind: 'read', summary: '/w/a' });
    assert.deepEqual(claudeToolKind('WebFetch', { url: 'https://x.test', prompt: 'p' }), { kind: 'read', summary: 'https://x.test' });
    assert.deepEqual(claudeToolKind('Grep', { pattern: 'TODO' }), { kind: 'read', summary: 'TODO' });
    assert.deepEqual(claudeToolKind('Glob', { pattern: '**/*.ts' }), { kind: 'read', summary: '**/*.ts' });
  });
  it('MCP tools act remotely, named by server and tool; anything else is unknown', () => {
    assert.deepEqual(claudeToolKind('mcp__github__get_issue', { number: 3 }), { kind: 'remote', server: 'github', name: 'get_issue' });
    assert.deepEqual(claudeToolKind('mcp__mail__send_message', {}), { kind: 'remote', server: 'mail', name: 'send_message' });
    assert.deepEqual(claudeToolKind('SomethingNew', { a: 1 }), { kind: 'other' });
    assert.deepEqual(claudeToolKind('bash', {}), { kind: 'other' }, 'names are case-sensitive');
  });
  it('keeps the labels Claude Code calls have always had', () => {
    assert.equal(label('Bash', { command: 'git push   origin\nmain' }), 'Bash: git push origin main');
    assert.equal(label('Write', { file_path: '/w/a.ts', content: 'x' }), 'Write: /w/a.ts');
    assert.equal(label('NotebookEdit', { notebook_path: '/w/n.ipynb' }), 'NotebookEdit: /w/n.ipynb');
    assert.equal(label('Read', { file_path: '/w/a' }), 'Read: /w/a');
    assert.equal(label('WebFetch', { url: 'https://x.test' }), 'WebFetch: https://x.test');
    assert.equal(label('Grep', { pattern: 'x', path: '/w' }), 'Grep: x');
    assert.equal(label('TodoWrite', {}), 'TodoWrite: ');
    assert.equal(label('mcp__mail__send_message', { to: 'a@b.c' }), 'mcp__mail__send_message: mail send_message {"to":"a@b.c"}');
    assert.equal(label('SomethingNew', { a: 1 }), 'SomethingNew: {"a":1}');
  });
  it('the hook adapter puts the kind on tool events, its paths validated', () => {
    const base = { session_id: 's1', cwd: '/w', tool_use_id: 't1' };
    const pre = parseClaudePayload(
      JSON.stringify({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: '/w/a.ts' } }),
      {},
    );
    assert.ok(pre.kind === 'event' && pre.event.type === 'before_tool');
    assert.deepEqual(pre.event.kind, { kind: 'file-write', paths: ['/w/a.ts'], summary: '/w/a.ts' });
    assert.equal(pre.event.shell, false);
    const post = parseClaudePayload(
      JSON.stringify({ ...base, hook_event_name: 'PostToolUse', tool_name: 'PowerShell', tool_input: { command: 'ls' } }),
      {},
    );
    assert.ok(post.kind === 'event' && post.event.type === 'after_tool');
    assert.deepEqual(post.event.kind, { kind: 'shell', command: 'ls', dialect: 'powershell' });
    assert.equal(post.event.shell, true);
  });
});
