// The Gemini API wire (generativelanguage `v1beta`) of the kit's scripted model server
// (../model.mjs), for the REAL Gemini CLI (GEMINI_API_KEY + GOOGLE_GEMINI_BASE_URL, see README in
// test/fixtures/agents/gemini/). What the CLI 0.61 sends, and what we answer:
//   - `POST /v1beta/models/<m>:streamGenerateContent?alt=sse` and `:generateContent`: main-loop
//     requests carry `tools[].functionDeclarations`; side requests (no tools: the model router's
//     complexity classifier before each prompt, the one-line session summary shown by
//     --list-sessions, next-speaker and loop checks) get an answer that fits their
//     `responseJsonSchema`, or a short text, and are logged with their kind;
//   - `:countTokens` → a token count; `GET /v1beta/models` → one model;
//   - function calls not answered one-for-one by function responses in the next turn → the 400 the
//     real API gives. `ids: true` adds function call ids (the real API usually sends none).
// A step: { "text": "…" } | { "call": { "name", "args" } } | { "calls": [{ "name", "args" }, …], "text"?: "…" }

const partsOf = (c) => (Array.isArray(c?.parts) ? c.parts.filter((p) => p && typeof p === 'object') : []);

/** The problems the real API would answer 400 for, about functionCall / functionResponse pairing. */
export function callPairingProblems(body) {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  const problems = [];
  for (let i = 0; i < contents.length; i++) {
    const calls = partsOf(contents[i]).filter((p) => p.functionCall);
    if (contents[i]?.role === 'model' && calls.length) {
      const next = contents[i + 1];
      const responses = next?.role === 'user' ? partsOf(next).filter((p) => p.functionResponse) : [];
      if (responses.length !== calls.length) {
        problems.push(
          `contents[${i}]: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn ` +
            `(${calls.length} calls: ${calls.map((p) => p.functionCall.name).join(', ')}; ${responses.length} responses follow).`,
        );
      }
    }
    const responses = partsOf(contents[i]).filter((p) => p.functionResponse);
    if (responses.length) {
      const prev = contents[i - 1];
      const prevCalls = prev?.role === 'model' ? partsOf(prev).filter((p) => p.functionCall) : [];
      if (!prevCalls.length) problems.push(`contents[${i}]: a function response turn must come immediately after a function call turn.`);
    }
  }
  return problems;
}

const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>/g;

/** What a request says, for assertions: the shape, the user's words, the calls, all text. */
export function summarizeRequest(body) {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  const userTexts = [];
  const functionCalls = [];
  const functionResponses = [];
  const texts = [];
  const shape = [];
  for (const c of contents) {
    const parts = [];
    for (const p of partsOf(c)) {
      if (typeof p.text === 'string') {
        texts.push(p.text);
        if (c.role === 'user' && p.text.trim()) userTexts.push(p.text.trim());
        parts.push(`T(${p.text.replace(HOOK_CONTEXT, '<hook_context>').trim().slice(0, 40).replace(/\s+/g, ' ')})`);
      } else if (p.functionCall) {
        functionCalls.push({ id: p.functionCall.id, name: p.functionCall.name, args: p.functionCall.args });
        parts.push(`C(${p.functionCall.name})`);
      } else if (p.functionResponse) {
        functionResponses.push({ id: p.functionResponse.id, name: p.functionResponse.name, response: p.functionResponse.response });
        texts.push(JSON.stringify(p.functionResponse.response ?? null));
        parts.push(`R(${p.functionResponse.name})`);
      } else parts.push(Object.keys(p).join('+'));
    }
    shape.push(`${c.role}:${parts.join(',')}`);
  }
  for (const p of partsOf(body?.systemInstruction)) if (typeof p.text === 'string') texts.push(p.text);
  const tools = (Array.isArray(body?.tools) ? body.tools : []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
  return {
    summary: shape.join(' | '),
    contentCount: contents.length,
    userTexts,
    functionCalls,
    functionResponses,
    tools,
    text: texts.join('\n'),
  };
}

/** A value that satisfies a (Gemini OpenAPI-subset or JSON) schema, for side requests that want JSON. */
export function sampleFor(schema, key = '') {
  if (!schema || typeof schema !== 'object') return 'scripted';
  const type = String(schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length) {
    // The next-speaker check: "user" ends the turn (the answer the real model gives after a final text).
    if (key === 'next_speaker' && schema.enum.includes('user')) return 'user';
    return schema.enum[0];
  }
  if (type === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = sampleFor(v, k);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return key.includes('score') ? 10 : 1;
  if (type === 'boolean') return false;
  return key === 'model_choice' ? 'flash' : 'Scripted side answer.';
}

/** What a side request is, from its system prompt: for the log and for the README. */
export function sideKind(body) {
  const sys = partsOf(body?.systemInstruction)
    .map((p) => p.text ?? '')
    .join('\n');
  if (/Task Routing AI|Complexity Score/i.test(sys)) return 'router-classifier';
  if (/next_speaker|next speaker/i.test(sys) || JSON.stringify(body?.generationConfig ?? {}).includes('next_speaker'))
    return 'next-speaker';
  if (/loop/i.test(sys) && /detect/i.test(sys)) return 'loop-detection';
  const text = (Array.isArray(body?.contents) ? body.contents : [])
    .flatMap(partsOf)
    .map((p) => p.text ?? '')
    .join('\n');
  if (/summar/i.test(sys) || /^Summarize the user's primary intent/m.test(text)) return 'session-summary';
  return 'other';
}

let idSeq = 0;
const newId = (prefix) => `${prefix}${Date.now().toString(36)}${(idSeq++).toString(36).padStart(4, '0')}`;

/** The model parts a step answers with. `ids: true` adds function call ids (the real API usually sends none). */
function partsForStep(step, ids) {
  const call = (c) => ({ functionCall: { ...(ids ? { id: newId('call_') } : {}), name: c.name, args: c.args ?? {} } });
  if (step.call) return [call(step.call)];
  if (step.calls) return [...(step.text ? [{ text: step.text }] : []), ...step.calls.map(call)];
  return [{ text: String(step.text ?? 'Done.') }];
}

const usage = { promptTokenCount: 100, candidatesTokenCount: 5, totalTokenCount: 105 };

function response(parts, model, last = true) {
  return {
    candidates: [{ content: { role: 'model', parts }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
    ...(last ? { usageMetadata: usage } : {}),
    modelVersion: model,
    responseId: newId('resp_'),
  };
}

function answer(res, url, model, parts) {
  if (url.includes(':streamGenerateContent')) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // Text streams in two chunks, as the real API does; a function call arrives whole.
    const chunks = [];
    for (const p of parts) {
      if (typeof p.text === 'string' && p.text.length > 1) {
        const cut = Math.floor(p.text.length / 2);
        chunks.push([{ text: p.text.slice(0, cut) }], [{ text: p.text.slice(cut) }]);
      } else chunks.push([p]);
    }
    chunks.forEach((c, i) => res.write(`data: ${JSON.stringify(response(c, model, i === chunks.length - 1))}\r\n\r\n`));
    return res.end();
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(response(parts, model)));
}

function apiError(res, status, message) {
  const statusText = { 400: 'INVALID_ARGUMENT', 404: 'NOT_FOUND' }[status] ?? 'UNKNOWN';
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: status, message, status: statusText } }));
}

/** The answer to a side request: JSON fitting its schema when it asks for JSON, else a short text. */
function sideAnswer(body, kind) {
  const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
  if (schema || body.generationConfig?.responseMimeType === 'application/json') return { text: JSON.stringify(sampleFor(schema)) };
  return { text: kind === 'session-summary' ? 'Scripted session summary' : 'Scripted side answer' };
}

const MODELS = { models: [{ name: 'models/gemini-mock', supportedGenerationMethods: ['generateContent', 'countTokens'] }] };

export const gemini = {
  route(method, url) {
    if (method === 'GET' && /\/v1(beta)?\/models(\?|$)/.test(url)) return { reply: MODELS };
    const m = /\/models\/([^/:?]+):(\w+)/.exec(url);
    return method === 'POST' && m ? { countTokens: m[2] === 'countTokens' } : null;
  },
  tokenCount: { totalTokens: 100 },
  isMain: (body) => Array.isArray(body.tools) && body.tools.some((t) => t.functionDeclarations?.length),
  sideKind,
  sideAnswer,
  logSide: true,
  logOther: true,
  logBodies: true,
  problems: callPairingProblems,
  summarize: summarizeRequest,
  answer: (res, { body, url, step, ids }) => answer(res, url, /\/models\/([^/:?]+):/.exec(url)?.[1] ?? body.model, partsForStep(step, ids)),
  error: apiError,
};
