import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseClaudePayload } from '../../src/agents/claude/hookPayload';

const base = { session_id: 's1', transcript_path: '/t/s1.jsonl', cwd: '/w' };
const parse = (p: unknown) => parseClaudePayload(JSON.stringify(p), {});

describe('Claude Code hook payloads', () => {
  it('maps the events we record', () => {
    assert.deepEqual(parse({ ...base, hook_event_name: 'SessionStart', source: 'resume' }), {
      kind: 'event',
      event: { agent: 'claude', session: 's1', cwd: '/w', transcript: '/t/s1.jsonl', type: 'session_start', source: 'resume' },
    });
    const r = parse({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'do it', prompt_id: 'p1' });
    assert.equal(r.kind === 'event' && r.event.type === 'prompt' && r.event.text, 'do it');
    const pre = parse({
      ...base,
      hook_event_name: 'PreToolUse',
      tool_name: 'NotebookEdit',
      tool_input: { notebook_path: '/w/n.ipynb' },
      tool_use_id: 'toolu_1',
    });
    assert.ok(pre.kind === 'event' && pre.event.type === 'before_tool');
    assert.deepEqual(pre.event.type === 'before_tool' && pre.event.paths, ['/w/n.ipynb']);
    const fail = parse({
      ...base,
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      tool_input: { command: 'x' },
      tool_use_id: 't',
    });
    assert.ok(fail.kind === 'event' && fail.event.type === 'after_tool' && fail.event.ok === false && fail.event.shell);
  });
  it('treats a relative or malformed file path as bad input', () => {
    for (const file_path of ['src/a.ts', '', 7, null, 'C:\\a.ts']) {
      const r = parse({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path } });
      assert.equal(r.kind, 'bad', JSON.stringify(file_path));
    }
  });
  it('treats malformed, empty and incomplete payloads as bad input, unknown events as nothing', () => {
    for (const text of ['', '   ', 'not json', '[]', '"x"', '{}', JSON.stringify({ hook_event_name: 'Stop' })])
      assert.equal(parseClaudePayload(text, {}).kind, 'bad', text);
    assert.equal(parse({ ...base, hook_event_name: 'Notification', message: 'hi' }).kind, 'ignore');
  });
  it('prefers the payload cwd over an inherited CLAUDE_PROJECT_DIR', () => {
    const r = parseClaudePayload(JSON.stringify({ ...base, hook_event_name: 'SessionStart' }), { CLAUDE_PROJECT_DIR: '/other' });
    assert.equal(r.kind === 'event' && r.event.cwd, '/w');
    const r2 = parseClaudePayload(JSON.stringify({ session_id: 's', hook_event_name: 'SessionStart' }), { CLAUDE_PROJECT_DIR: '/proj' });
    assert.equal(r2.kind === 'event' && r2.event.cwd, '/proj');
  });
});
