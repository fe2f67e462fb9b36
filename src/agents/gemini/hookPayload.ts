// Gemini CLI hook payload (stdin JSON) -> internal event. Checked against the real 0.61.0
// (test/fixtures/agents/gemini/real-0.61.0/README.md): BeforeAgent is the prompt, AfterAgent the end
// of a turn; BeforeTool / AfterTool carry no call id and pass `file_path` as the model wrote it
// (relative to `cwd`, the project root) — so paths are resolved against `cwd`, and the two ends of a
// call are paired by the call itself (AfterTool repeats `tool_name` + `tool_input` verbatim): the hook
// gives the pair a fresh call id (recording/pairCalls.ts), so two identical calls never share one.
import { obj, snakePayload, stableText } from '../common/payload';
import type { AdapterResult } from '../../recording/events';
import { geminiToolKind } from './toolKind';

/** Payload fields seen from 0.61.0 or documented; the compat tier reports (without failing) any other. */
export const KNOWN_PAYLOAD_FIELDS = new Set([
  'session_id',
  'transcript_path',
  'cwd',
  'hook_event_name',
  'timestamp',
  'source',
  'reason',
  'prompt',
  'prompt_response',
  'stop_hook_active',
  'tool_name',
  'tool_input',
  'tool_response',
  'mcp_context',
  'original_request_name',
  'llm_request',
  'llm_response',
  'trigger',
  'notification_type',
  'message',
  'details',
]);

/** Events we connect (src/agents/gemini/settings.ts); the others are accepted and ignored. */
export const GEMINI_RECORDED_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'] as const;

export function parseGeminiPayload(text: string, env: NodeJS.ProcessEnv = process.env): AdapterResult {
  const sp = snakePayload(text, 'gemini', env.GEMINI_PROJECT_DIR);
  if ('kind' in sp) return sp;
  const { p, event } = sp;
  // Re-grounding context at SessionStart would prefix the next prompt with <hook_context>, and 0.61
  // drops such a prompt from the history of every later resume: this agent is told at BeforeAgent.
  const base = { ...sp.base, contextAtPromptOnly: true as const };

  switch (event) {
    case 'SessionStart':
      return { kind: 'event', event: { ...base, type: 'session_start', ...(typeof p.source === 'string' ? { source: p.source } : {}) } };
    case 'BeforeAgent': {
      if (typeof p.prompt !== 'string') return { kind: 'bad', reason: 'BeforeAgent without a prompt' };
      return { kind: 'event', event: { ...base, type: 'prompt', text: p.prompt, hookEvent: 'BeforeAgent' } };
    }
    case 'BeforeTool':
    case 'AfterTool': {
      const tool = p.tool_name;
      if (typeof tool !== 'string' || tool.length === 0) return { kind: 'bad', reason: `${event} without tool_name` };
      const input = obj(p.tool_input) ?? {};
      const kind = geminiToolKind(tool, input, base.cwd, p.mcp_context);
      const paths: string[] = [];
      if (kind.kind === 'file-write') {
        if (kind.paths.length === 0)
          return { kind: 'bad', reason: `${tool} file_path cannot be made absolute: ${JSON.stringify(input.file_path)?.slice(0, 200)}` };
        paths.push(...kind.paths);
      }
      const common = { ...base, tool, kind, input, paths, shell: kind.kind === 'shell', pairKey: stableText([tool, input]) };
      if (event === 'BeforeTool') return { kind: 'event', event: { ...common, type: 'before_tool' } };
      const response = obj(p.tool_response);
      return { kind: 'event', event: { ...common, type: 'after_tool', ok: !response?.error } };
    }
    case 'AfterAgent':
      return { kind: 'event', event: { ...base, type: 'stop' } };
    case 'SessionEnd':
      return { kind: 'event', event: { ...base, type: 'session_end', ...(typeof p.reason === 'string' ? { reason: p.reason } : {}) } };
    default:
      return { kind: 'ignore' };
  }
}
