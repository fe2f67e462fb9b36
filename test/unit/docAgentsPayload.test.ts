// The adapters of the agents added from their docs (issue 29): fixture payloads -> internal events.
// Fixtures: test/fixtures/agents/<agent>/ (each README names the doc and the date).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAuggiePayload } from '../../src/agents/auggie/hookPayload';
import { detectAgent } from '../../src/agents/detect';
import { parseDroidPayload } from '../../src/agents/droid/hookPayload';
import { kiroFolderSession, parseKiroPayload } from '../../src/agents/kiro/hookPayload';
import { parseOpencodePayload } from '../../src/agents/opencode/hookPayload';
import { parseQwenPayload } from '../../src/agents/qwen/hookPayload';
import { parseWindsurfPayload } from '../../src/agents/windsurf/hookPayload';
import type { AdapterResult, AgentEvent } from '../../src/recording/events';
import { fixtureText, WS } from './agentFixtures';

function ev(r: AdapterResult): AgentEvent {
  assert.equal(r.kind, 'event', JSON.stringify(r));
  return r.kind === 'event' ? r.event : (null as never);
}

const patched = (rel: string, patch: (p: any) => void) => {
  const p = JSON.parse(fixtureText(rel));
  patch(p);
  return JSON.stringify(p);
};

test('qwen: Claude-shaped events; its runtime tool ids; the call id pairs; submitted_prompt is the prompt', () => {
  const q = (rel: string) => ev(parseQwenPayload(fixtureText(`qwen/${rel}`), {}));
  const s = q('session-start.json');
  assert.ok(s.type === 'session_start' && s.agent === 'qwen' && s.cwd === WS && s.source === 'startup');
  const w = q('pre-write_file.json');
  assert.ok(w.type === 'before_tool' && w.kind.kind === 'file-write' && w.callId === 'toolu_01QwWrite');
  assert.deepEqual(w.paths, [`${WS}/src/net/retry.ts`]);
  const e = q('post-edit.json');
  assert.ok(e.type === 'after_tool' && e.ok && e.tool === 'edit');
  assert.deepEqual(e.paths, [`${WS}/src/net/client.ts`]);
  const sh = q('pre-run_shell_command.json');
  assert.ok(sh.type === 'before_tool' && sh.shell && sh.kind.kind === 'shell');
  // A tool-result continuation: `prompt` is model-bound text; the user's own text is submitted_prompt.
  const p = ev(
    parseQwenPayload(
      patched('qwen/prompt.json', (x) => ((x.prompt = 'tool result text'), (x.submitted_prompt = 'mine'))),
      {},
    ),
  );
  assert.ok(p.type === 'prompt' && p.text === 'mine');
  const continuation = patched('qwen/prompt.json', (x) => ((x.prompt = ''), delete x.submitted_prompt));
  assert.equal(parseQwenPayload(continuation, {}).kind, 'ignore', 'a tool-result continuation is no prompt');
  const relative = ev(
    parseQwenPayload(
      patched('qwen/pre-edit.json', (x) => (x.tool_input.file_path = 'src/a.ts')),
      {},
    ),
  );
  assert.deepEqual(relative.type === 'before_tool' && relative.paths, [`${WS}/src/a.ts`], 'relative to cwd');
  assert.equal(q('stop.json').type, 'stop');
  assert.equal(q('session-end.json').type, 'session_end');
});

test('droid: Create / Edit / Execute; no call id, so the two ends share a pair key', () => {
  const d = (rel: string) => ev(parseDroidPayload(fixtureText(`droid/${rel}`), {}));
  const b = d('pre-Create.json');
  const a = d('post-Create.json');
  assert.ok(b.type === 'before_tool' && a.type === 'after_tool' && b.pairKey && b.pairKey === a.pairKey && !b.callId);
  assert.deepEqual(b.paths, [`${WS}/src/net/retry.ts`]);
  const edit = d('pre-Edit.json');
  assert.deepEqual(edit.type === 'before_tool' && edit.paths, [`${WS}/src/net/client.ts`]);
  const x = d('pre-Execute.json');
  assert.ok(x.type === 'before_tool' && x.shell);
  const patch = ev(
    parseDroidPayload(
      patched('droid/pre-Edit.json', (p) => {
        p.tool_name = 'ApplyPatch';
        p.tool_input = { input: '*** Begin Patch\n*** Add File: src/b.ts\n+x\n*** End Patch\n' };
      }),
      {},
    ),
  );
  assert.deepEqual(patch.type === 'before_tool' && patch.paths, [`${WS}/src/b.ts`]);
  assert.equal(d('prompt.json').type, 'prompt');
});

test('auggie: conversation_id is the session, workspace_roots[0] the folder; relative paths; tool_error fails the call', () => {
  const g = (rel: string) => ev(parseAuggiePayload(fixtureText(`auggie/${rel}`)));
  const s = g('session-start.json');
  assert.ok(s.type === 'session_start' && s.session === '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d' && s.cwd === WS);
  const p = g('prompt.json');
  assert.ok(p.type === 'prompt' && p.hookEvent === 'PromptSubmit');
  const w = g('pre-save-file.json');
  assert.deepEqual(w.type === 'before_tool' && w.paths, [`${WS}/src/net/retry.ts`]);
  const e = g('post-str-replace-editor.json');
  assert.ok(e.type === 'after_tool' && e.ok);
  const launch = g('pre-launch-process.json');
  assert.equal(launch.type === 'before_tool' && launch.shell, true);
  const failed = ev(parseAuggiePayload(patched('auggie/post-save-file.json', (x) => (x.tool_error = 'disk full'))));
  assert.ok(failed.type === 'after_tool' && !failed.ok);
  const rm = ev(
    parseAuggiePayload(
      patched('auggie/pre-save-file.json', (x) => ((x.tool_name = 'remove-files'), (x.tool_input = { file_paths: ['a.txt', 'b/c.txt'] }))),
    ),
  );
  assert.deepEqual(rm.type === 'before_tool' && rm.paths, [`${WS}/a.txt`, `${WS}/b/c.txt`]);
});

test('windsurf: trajectory_id is the session; write_code and run_command pair by what they name; the folder comes from the hook', () => {
  const ctx = { cwd: WS };
  const w = (rel: string) => ev(parseWindsurfPayload(fixtureText(`windsurf/${rel}`), ctx));
  const p = w('pre_user_prompt.json');
  assert.ok(p.type === 'prompt' && p.baseline && p.session === 'traj-4f3e2d1c-0b9a-48c7-b6a5-948372615abc' && p.cwd === WS);
  const b = w('pre_write_code.json');
  const a = w('post_write_code.json');
  assert.ok(b.type === 'before_tool' && a.type === 'after_tool' && b.pairKey === a.pairKey);
  assert.deepEqual(b.paths, [`${WS}/src/net/client.ts`]);
  const rb = w('pre_run_command.json');
  const ra = w('post_run_command.json');
  assert.ok(rb.type === 'before_tool' && ra.type === 'after_tool' && rb.shell && rb.pairKey === ra.pairKey);
  const m = w('pre_mcp_tool_use.json');
  assert.ok(m.type === 'before_tool' && m.kind.kind === 'remote' && m.kind.server === 'github');
  assert.equal(w('post_cascade_response.json').type, 'stop');
  assert.equal(
    parseWindsurfPayload(JSON.stringify({ agent_action_name: 'pre_read_code', trajectory_id: 't', tool_info: {} }), ctx).kind,
    'ignore',
  );
});

test('kiro CLI: no session id in the payload: one per folder; session_id wins when sent; camel and Pascal event names', () => {
  const k = (rel: string) => ev(parseKiroPayload(fixtureText(`kiro/${rel}`)));
  const s = k('cli-agentSpawn.json');
  assert.ok(s.type === 'session_start' && s.session === kiroFolderSession(WS) && s.cwd === WS);
  const e = k('cli-preToolUse-fs_write-str_replace.json');
  assert.deepEqual(e.type === 'before_tool' && e.paths, [`${WS}/src/net/client.ts`], 'a relative path against cwd');
  assert.ok(k('cli-preToolUse-execute_bash.json').type === 'before_tool');
  const pascal = ev(parseKiroPayload(patched('kiro/cli-stop.json', (x) => ((x.hook_event_name = 'Stop'), (x.session_id = 's-1')))));
  assert.ok(pascal.type === 'stop' && pascal.session === 's-1');
  const failed = ev(parseKiroPayload(patched('kiro/cli-postToolUse-execute_bash.json', (x) => (x.tool_response.success = false))));
  assert.ok(failed.type === 'after_tool' && !failed.ok);
});

test('kiro IDE: an empty stdin and the event argument; the prompt from $USER_PROMPT; a tool call is an opaque command', () => {
  const ide = (event: string, env: NodeJS.ProcessEnv = {}) => ev(parseKiroPayload('', { event, env, cwd: WS }));
  const p = ide('promptSubmit', { USER_PROMPT: 'do it' });
  assert.ok(p.type === 'prompt' && p.text === 'do it' && p.session === kiroFolderSession(WS) && p.baseline);
  const b = ide('preToolUse');
  const a = ide('postToolUse');
  assert.ok(b.type === 'before_tool' && b.shell && a.type === 'after_tool' && b.pairKey === a.pairKey);
  assert.equal(ide('agentStop').type, 'stop');
  assert.equal(parseKiroPayload('', { event: 'fileEdited', cwd: WS }).kind, 'ignore');
  assert.equal(parseKiroPayload('', { event: 'promptSubmit' }).kind, 'bad', 'no folder, nothing recorded');
});

test('opencode: the plugin payloads; callID pairs; a relative filePath resolves against the session directory', () => {
  const o = (rel: string) => ev(parseOpencodePayload(fixtureText(`opencode/${rel}`)));
  assert.ok(o('session.created.json').type === 'session_start');
  const m = o('chat.message.json');
  assert.ok(m.type === 'prompt' && m.text === 'Move the retry constant into its own module');
  const b = o('tool.execute.before-write.json');
  const a = o('tool.execute.after-write.json');
  assert.ok(b.type === 'before_tool' && a.type === 'after_tool' && b.callId === 'call_oc_write_1' && a.callId === b.callId);
  assert.deepEqual(b.paths, [`${WS}/src/net/retry.ts`]);
  const bash = o('tool.execute.before-bash.json');
  assert.ok(bash.type === 'before_tool' && bash.shell);
  assert.equal(o('session.idle.json').type, 'stop');
  const rel = ev(parseOpencodePayload(patched('opencode/tool.execute.before-edit.json', (x) => (x.args.filePath = 'src/x.ts'))));
  assert.deepEqual(rel.type === 'before_tool' && rel.paths, [`${WS}/src/x.ts`]);
  assert.equal(parseOpencodePayload(JSON.stringify({ event: 'file.edited', sessionID: 's', file: '/x' })).kind, 'ignore');
  assert.equal(
    parseOpencodePayload(JSON.stringify({ type: 'file.edited', properties: { file: '/x' } })).kind,
    'ignore',
    'no session: still no error',
  );
  assert.equal(parseOpencodePayload(JSON.stringify({ event: 'chat.message', prompt: 'x' })).kind, 'bad', 'no session');
  // OpenCode's own shapes, sent as they are: a hook's (input, output) and a bus event.
  const hookShape = JSON.stringify({
    input: { tool: 'write', sessionID: 'ses_1', callID: 'c1' },
    output: { args: { filePath: `${WS}/a.ts`, content: 'x' } },
  });
  const h = ev(parseOpencodePayload(hookShape, { event: 'tool.execute.before' }));
  assert.ok(h.type === 'before_tool' && h.callId === 'c1' && h.session === 'ses_1');
  assert.deepEqual(h.paths, [`${WS}/a.ts`]);
  const bus = ev(parseOpencodePayload(JSON.stringify({ type: 'session.created', properties: { info: { id: 'ses_2', directory: WS } } })));
  assert.ok(bus.type === 'session_start' && bus.session === 'ses_2' && bus.cwd === WS);
  const msg = ev(
    parseOpencodePayload(
      JSON.stringify({
        input: { sessionID: 'ses_1' },
        output: {
          message: {},
          parts: [
            { type: 'text', text: 'hi' },
            { type: 'text', text: 'x', synthetic: true },
          ],
        },
      }),
      { event: 'chat.message', cwd: WS },
    ),
  );
  assert.ok(msg.type === 'prompt' && msg.text === 'hi');
});

test('detection: a Windsurf or an Auggie payload that reaches a shared command is read by its own adapter', () => {
  assert.equal(detectAgent('claude', fixtureText('windsurf/pre_write_code.json')), 'windsurf');
  assert.equal(detectAgent('claude', fixtureText('auggie/pre-save-file.json')), 'auggie');
  assert.equal(detectAgent('claude', fixtureText('cursor/pre-tool-write.json')), 'cursor', "Cursor's camelCase events stay Cursor's");
  assert.equal(detectAgent('qwen', fixtureText('qwen/prompt.json')), 'qwen');
});
