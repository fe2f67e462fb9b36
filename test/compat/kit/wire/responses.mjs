// The OpenAI Responses wire of the kit's scripted model server (../model.mjs), for the REAL Codex
// CLI (0.171 speaks only this: `POST <base_url>/responses`, `stream: true`, SSE answers):
//   - response.created, then per output item response.output_item.added + .done, then
//     response.completed (with an id and usage; Codex ends the model turn there);
//   - a function_call / custom_tool_call in `input` without its *_output, or an output answering no
//     call → HTTP 400 invalid_request_error, as the real API does;
//   - main-loop requests offer `exec_command` or `apply_patch` and are not the TUI's thread-title
//     request; other requests (titles, summaries…) are side requests; 404s are logged too.
// A step is a text, one or more calls, or both:
//   { "text": "…" }
//   { "exec": "<shell command>" }                      → function_call exec_command {"cmd": …}
//   { "patch": "*** Begin Patch\n…\n*** End Patch" }   → custom_tool_call apply_patch (freeform)
//   { "call": { "name", "arguments": {…} } }           → any function_call
//   { "stdin": { "chars"?, "yield_time_ms"? } }        → write_stdin to the newest running exec session
//                                                        (its id read from the last "session ID <n>" output)
//   { "calls": [<exec|patch|call step>, …], "text"?: "…" }   (parallel calls in one response)
import { textOf } from './text.mjs';

const CALL_TYPES = {
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
  local_shell_call: 'function_call_output',
};
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);

/** The problems the real API would answer 400 for, about call / output pairing in `input`. */
export function callPairingProblems(body) {
  const items = Array.isArray(body?.input) ? body.input : [];
  const problems = [];
  const calls = new Map();
  const outputs = new Map();
  items.forEach((it, i) => {
    if (!it || typeof it !== 'object') return;
    if (CALL_TYPES[it.type]) calls.set(it.call_id, i);
    if (OUTPUT_TYPES.has(it.type)) {
      if (!it.call_id) problems.push(`input[${i}]: ${it.type} without call_id`);
      else if (!calls.has(it.call_id)) problems.push(`input[${i}]: No tool call found for ${it.type} with call_id ${it.call_id}.`);
      outputs.set(it.call_id, i);
    }
  });
  for (const [id, i] of calls) if (!outputs.has(id)) problems.push(`input[${i}]: No tool output found for tool call ${id}.`);
  return problems;
}

/** What a request says, for assertions: the shape, the user's words, the calls and outputs. */
export function summarizeRequest(body) {
  const items = Array.isArray(body?.input) ? body.input : [];
  const shape = [];
  const userTexts = [];
  const developerTexts = [];
  const assistantTexts = [];
  const calls = [];
  const outputs = [];
  for (const it of items) {
    if (it?.type === 'message') {
      const t = textOf(it.content);
      if (it.role === 'user') userTexts.push(t);
      else if (it.role === 'developer' || it.role === 'system') developerTexts.push(t);
      else if (it.role === 'assistant') assistantTexts.push(t);
      shape.push(`${it.role}(${t.slice(0, 30).replace(/\s+/g, ' ')})`);
    } else if (CALL_TYPES[it?.type]) {
      calls.push({ type: it.type, call_id: it.call_id, name: it.name, arguments: it.arguments ?? it.input });
      shape.push(`${it.type === 'custom_tool_call' ? 'C' : 'F'}:${it.name}`);
    } else if (OUTPUT_TYPES.has(it?.type)) {
      outputs.push({ type: it.type, call_id: it.call_id, output: typeof it.output === 'string' ? it.output : JSON.stringify(it.output) });
      shape.push('out');
    } else shape.push(String(it?.type));
  }
  const tools = Array.isArray(body?.tools) ? body.tools.map((t) => t?.name ?? t?.type) : [];
  return { summary: shape.join(' | '), itemCount: items.length, userTexts, developerTexts, assistantTexts, calls, outputs, tools };
}

let seq = 0;
const newId = (prefix) =>
  `${prefix}${Date.now().toString(36)}${(seq++).toString(36).padStart(4, '0')}${Math.random().toString(36).slice(2, 8)}`;

/** The id in the newest "Process running with session ID <n>" output of the request, if any. */
function runningSession(body) {
  const items = Array.isArray(body?.input) ? body.input : [];
  for (let i = items.length - 1; i >= 0; i--) {
    const m = /session ID (\d+)/.exec(typeof items[i]?.output === 'string' ? items[i].output : '');
    if (items[i]?.type === 'function_call_output' && m) return Number(m[1]);
  }
  return undefined;
}

function callItem(s, body) {
  if (s.exec !== undefined)
    return {
      type: 'function_call',
      id: newId('fc_'),
      call_id: newId('call_'),
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: s.exec, ...(s.workdir ? { workdir: s.workdir } : {}) }),
      status: 'completed',
    };
  if (s.patch !== undefined)
    return {
      type: 'custom_tool_call',
      id: newId('ctc_'),
      call_id: newId('call_'),
      name: 'apply_patch',
      input: s.patch,
      status: 'completed',
    };
  if (s.call)
    return {
      type: 'function_call',
      id: newId('fc_'),
      call_id: newId('call_'),
      name: s.call.name,
      arguments: JSON.stringify(s.call.arguments ?? {}),
      status: 'completed',
    };
  if (s.stdin) {
    const args = {
      session_id: runningSession(body) ?? -1,
      chars: s.stdin.chars ?? '',
      ...(s.stdin.yield_time_ms ? { yield_time_ms: s.stdin.yield_time_ms } : {}),
    };
    return {
      type: 'function_call',
      id: newId('fc_'),
      call_id: newId('call_'),
      name: 'write_stdin',
      arguments: JSON.stringify(args),
      status: 'completed',
    };
  }
  return null;
}

/** The output items of one scripted step. */
export function itemsForStep(step, body) {
  const items = [];
  if (step.text)
    items.push({
      type: 'message',
      id: newId('msg_'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: step.text, annotations: [] }],
    });
  const single = callItem(step, body);
  if (single) items.push(single);
  for (const c of step.calls ?? []) {
    const it = callItem(c, body);
    if (it) items.push(it);
  }
  return items;
}

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const ev of events) res.write(`event: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`);
  res.end();
}

function answer(res, model, items) {
  const id = newId('resp_');
  const events = [{ type: 'response.created', response: { id, object: 'response', status: 'in_progress', model } }];
  items.forEach((item, output_index) => {
    events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress' } });
    events.push({ type: 'response.output_item.done', output_index, item });
  });
  events.push({
    type: 'response.completed',
    response: {
      id,
      object: 'response',
      status: 'completed',
      model,
      output: items,
      usage: {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 110,
      },
    },
  });
  sse(res, events);
}

function apiError(res, status, message) {
  const type = status === 404 ? 'not_found' : 'invalid_request_error';
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type, message, code: null, param: null } }));
}

/** The interactive TUI names a new thread with a request of its own (thread_source "thread_title"), tools and all. */
function isTitleRequest(body) {
  try {
    return JSON.parse(body?.client_metadata?.['x-codex-turn-metadata'] ?? '{}').thread_source === 'thread_title';
  } catch {
    return false;
  }
}

const isMainLoop = (body) =>
  !isTitleRequest(body) &&
  Array.isArray(body?.tools) &&
  body.tools.some((t) => t?.name === 'exec_command' || t?.name === 'apply_patch' || t?.name === 'shell');

export const responses = {
  route: (method, url) => (method === 'POST' && /\/responses(\?|$)/.test(url) ? {} : null),
  isMain: isMainLoop,
  sideAnswer: () => ({ text: 'Scripted session' }),
  logSide: true,
  logOther: true,
  logBodies: true,
  headers: (req) => ({ session_id: req.headers['session-id'], 'x-codex-turn-metadata': req.headers['x-codex-turn-metadata'] }),
  problems: callPairingProblems,
  summarize: summarizeRequest,
  answer: (res, { body, step }) => answer(res, body.model, itemsForStep(step, body)),
  error: apiError,
};
