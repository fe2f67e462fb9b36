// The OpenAI chat-completions wire of the kit's scripted model server (../model.mjs), for the
// clients that speak to "any OpenAI-compatible endpoint": OpenCode (a custom provider on
// `@ai-sdk/openai-compatible`) and Qwen Code (OPENAI_BASE_URL). It answers like the real API where it
// matters to us:
//   - `POST …/chat/completions` with `stream: true` → `data: <chunk>` lines (role, text in two
//     pieces, each tool call as its name then its arguments in two pieces, the finish reason, the
//     usage chunk when `stream_options.include_usage`), then `data: [DONE]`; without `stream` → one
//     chat.completion;
//   - an assistant message with `tool_calls` not followed by a `tool` message for each id, or a `tool`
//     message answering no call → HTTP 400 invalid_request_error, as the real API does;
//   - main-loop requests offer `tools`; side requests (titles, summaries) do not and get a short text;
//   - `GET …/models` → one model.
// A step: { "text": "…" } | { "call": { "name", "args" } } | { "calls": [{ "name", "args" }, …], "text"?: "…" }
import { textOf } from './text.mjs';

const messagesOf = (body) => (Array.isArray(body?.messages) ? body.messages.filter((m) => m && typeof m === 'object') : []);

/** The problems the real API would answer 400 for, about tool_calls / tool message pairing. */
export function callPairingProblems(body) {
  const msgs = messagesOf(body);
  const problems = [];
  msgs.forEach((m, i) => {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length) {
      const answered = new Set();
      for (let j = i + 1; j < msgs.length && msgs[j].role === 'tool'; j++) answered.add(msgs[j].tool_call_id);
      const missing = m.tool_calls.map((c) => c.id).filter((id) => !answered.has(id));
      if (missing.length)
        problems.push(
          `messages.[${i}]: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. ` +
            `The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
        );
    }
    if (m.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && msgs[j].role === 'tool') j--;
      const calls = msgs[j]?.role === 'assistant' && Array.isArray(msgs[j].tool_calls) ? msgs[j].tool_calls.map((c) => c.id) : [];
      if (!calls.includes(m.tool_call_id))
        problems.push(`messages.[${i}].role: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`);
    }
  });
  return problems;
}

function parseArgs(s) {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** What a request says, for assertions: the shape, the user's words, the calls and results, all text. */
export function summarizeRequest(body) {
  const shape = [];
  const userTexts = [];
  const toolCalls = [];
  const toolResults = [];
  const texts = [];
  for (const m of messagesOf(body)) {
    const t = textOf(m.content);
    if (t) texts.push(t);
    if (m.role === 'user' && t.trim()) userTexts.push(t.trim());
    const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
    for (const c of calls) toolCalls.push({ id: c.id, name: c.function?.name, args: parseArgs(c.function?.arguments ?? '') });
    if (m.role === 'tool') toolResults.push({ id: m.tool_call_id, content: t });
    const what = calls.length ? `C(${calls.map((c) => c.function?.name).join(',')})` : `T(${t.slice(0, 30).replace(/\s+/g, ' ')})`;
    shape.push(`${m.role}:${what}`);
  }
  const tools = (Array.isArray(body?.tools) ? body.tools : []).map((t) => t?.function?.name ?? t?.name);
  return { summary: shape.join(' | '), messageCount: shape.length, userTexts, toolCalls, toolResults, tools, text: texts.join('\n') };
}

let idSeq = 0;
const newId = (prefix) =>
  `${prefix}${Date.now().toString(36)}${(idSeq++).toString(36).padStart(4, '0')}${Math.random().toString(36).slice(2, 6)}`;

function callsOf(step) {
  const list = step.call ? [step.call] : (step.calls ?? []);
  return list.map((c) => ({ id: newId('call_'), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } }));
}

const usage = { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 };

function streamAnswer(res, body, text, calls) {
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta, finish = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out = [chunk({ role: 'assistant', content: '' })];
  if (text) {
    // Text in two pieces, as a real stream splits it.
    const cut = Math.floor(text.length / 2);
    out.push(chunk({ content: text.slice(0, cut) }), chunk({ content: text.slice(cut) }));
  }
  calls.forEach((c, index) => {
    const args = c.function.arguments;
    const cut = Math.floor(args.length / 2);
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, cut) } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(cut) } }] }));
  });
  out.push(chunk({}, calls.length ? 'tool_calls' : 'stop'));
  if (body.stream_options?.include_usage) out.push({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const c of out) res.write(`data: ${JSON.stringify(c)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function answer(res, { body, step }) {
  const calls = callsOf(step);
  const text = step.text ?? (calls.length ? '' : 'Done.');
  if (body.stream) return streamAnswer(res, body, text, calls);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: newId('chatcmpl-'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) },
          finish_reason: calls.length ? 'tool_calls' : 'stop',
        },
      ],
      usage,
    }),
  );
}

function apiError(res, status, message) {
  const type = status === 404 ? 'not_found_error' : 'invalid_request_error';
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
}

const MODELS = { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'agent-rewind' }] };

export const chat = {
  route(method, url) {
    if (method === 'GET' && /\/models(\?|$)/.test(url)) return { reply: MODELS };
    return method === 'POST' && /\/chat\/completions(\?|$)/.test(url) ? {} : null;
  },
  isMain: (body) => Array.isArray(body.tools) && body.tools.length > 0,
  sideAnswer: () => ({ text: 'Scripted session' }),
  logSide: true,
  logOther: true,
  logBodies: true,
  problems: callPairingProblems,
  summarize: summarizeRequest,
  answer,
  error: apiError,
};
