// The Anthropic Messages wire of the kit's scripted model server (../model.mjs), for the REAL
// Claude Code CLI (ANTHROPIC_BASE_URL). It answers like the real API where it matters to us:
//   - `POST /v1/messages` with `stream: true` → the SSE events message_start, content_block_start,
//     content_block_delta (text_delta / input_json_delta), content_block_stop, message_delta,
//     message_stop; without `stream` → one JSON message;
//   - a `tool_use` not answered by a `tool_result` in the next message, or a `tool_result` answering
//     no `tool_use` of the previous message → HTTP 400 invalid_request_error, as the real API does;
//   - main-loop requests carry `tools`; side requests (titles, summaries) do not, and are not logged;
//   - `count_tokens` → a token count.
// A step: { "text": "…" } | { "tool_use": { "name", "input" } } | { "tool_uses": [{ "name", "input" }, …], "text"?: "…" }

const blocksOf = (m) =>
  Array.isArray(m?.content)
    ? m.content.filter((b) => b && typeof b === 'object')
    : typeof m?.content === 'string'
      ? [{ type: 'text', text: m.content }]
      : [];

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** The problems the real API would answer 400 for, about tool_use / tool_result pairing. */
export function toolPairingProblems(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const problems = [];
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (m?.role === 'assistant') {
      const uses = blocksOf(m)
        .filter((b) => b.type === 'tool_use')
        .map((b) => b.id);
      if (!uses.length) continue;
      const next = msgs[i + 1];
      const answered = new Set(
        next?.role === 'user'
          ? blocksOf(next)
              .filter((b) => b.type === 'tool_result')
              .map((b) => b.tool_use_id)
          : [],
      );
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length) {
        problems.push(
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
            'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
        );
      }
    }
    if (m?.role === 'user') {
      const results = blocksOf(m)
        .filter((b) => b.type === 'tool_result')
        .map((b) => b.tool_use_id);
      if (!results.length) continue;
      const prev = msgs[i - 1];
      const used = new Set(
        prev?.role === 'assistant'
          ? blocksOf(prev)
              .filter((b) => b.type === 'tool_use')
              .map((b) => b.id)
          : [],
      );
      const orphans = results.filter((id) => !used.has(id));
      if (orphans.length) {
        problems.push(
          `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${orphans.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
  }
  return problems;
}

function resultText(content) {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((b) => (b?.type === 'text' ? b.text : '')).join('\n') : '';
}

/** What a request says, for assertions: the shape, the user's words, the tool calls, all text. */
export function summarizeRequest(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const userTexts = [];
  const toolUses = [];
  const toolResults = [];
  const texts = [];
  const shape = [];
  for (const m of msgs) {
    const parts = [];
    for (const b of blocksOf(m)) {
      if (b.type === 'text') {
        texts.push(b.text);
        const visible = String(b.text).replace(REMINDER, '').trim();
        if (m.role === 'user' && visible) userTexts.push(visible);
        parts.push(`T(${visible.slice(0, 40).replace(/\s+/g, ' ')})`);
      } else if (b.type === 'tool_use') {
        toolUses.push({ id: b.id, name: b.name, input: b.input });
        parts.push(`U(${b.name})`);
      } else if (b.type === 'tool_result') {
        toolResults.push({ id: b.tool_use_id, isError: b.is_error === true });
        texts.push(resultText(b.content));
        parts.push('R');
      } else parts.push(String(b.type));
    }
    shape.push(`${m.role}:${parts.join(',')}`);
  }
  const system = Array.isArray(body?.system) ? body.system : body?.system ? [body.system] : [];
  for (const s of system) texts.push(typeof s === 'string' ? s : (s?.text ?? ''));
  return { summary: shape.join(' | '), messageCount: msgs.length, userTexts, toolUses, toolResults, text: texts.join('\n') };
}

let idSeq = 0;
const newId = (prefix) =>
  `${prefix}${Date.now().toString(36)}${(idSeq++).toString(36).padStart(4, '0')}${Math.random().toString(36).slice(2, 8)}`;

function blocksForStep(step) {
  if (step.tool_use) return [{ type: 'tool_use', id: newId('toolu_'), name: step.tool_use.name, input: step.tool_use.input ?? {} }];
  if (step.tool_uses) {
    const uses = step.tool_uses.map((u) => ({ type: 'tool_use', id: newId('toolu_'), name: u.name, input: u.input ?? {} }));
    return step.text ? [{ type: 'text', text: step.text }, ...uses] : uses;
  }
  return [{ type: 'text', text: String(step.text ?? 'Done.') }];
}

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function answer(res, body, blocks) {
  const id = newId('msg_');
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const model = typeof body.model === 'string' ? body.model : 'claude-mock';
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req_') });
    res.end(
      JSON.stringify({ id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stop, stop_sequence: null, usage }),
    );
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': newId('req_'),
  });
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  blocks.forEach((b, index) => {
    if (b.type === 'tool_use') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
      });
      const json = JSON.stringify(b.input);
      // Two deltas, as the real API streams partial JSON in pieces.
      const cut = Math.floor(json.length / 2);
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: json.slice(0, cut) },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: json.slice(cut) },
      });
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function apiError(res, status, message) {
  const type = status === 404 ? 'not_found_error' : 'invalid_request_error';
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req_') });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

export const anthropic = {
  route: (method, url) => (method === 'POST' && url.startsWith('/v1/messages') ? { countTokens: url.includes('count_tokens') } : null),
  tokenCount: { input_tokens: 10 },
  isMain: (body) => Array.isArray(body.tools) && body.tools.length > 0,
  sideAnswer: () => ({ text: 'Scripted session' }),
  logSide: false,
  logOther: false,
  logBodies: false,
  problems: toolPairingProblems,
  summarize: summarizeRequest,
  answer: (res, { body, step }) => answer(res, body, blocksForStep(step)),
  error: apiError,
};
