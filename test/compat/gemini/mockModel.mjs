// A scripted stand-in for the Gemini API (generativelanguage `v1beta`) on 127.0.0.1, for running
// the REAL Gemini CLI offline (GEMINI_API_KEY + GOOGLE_GEMINI_BASE_URL, see README in
// test/fixtures/agents/gemini/). What the CLI 0.61 sends, and what we answer:
//   - `POST /v1beta/models/<m>:streamGenerateContent?alt=sse` and `:generateContent`:
//       main-loop requests (they carry `tools[].functionDeclarations`) take the next step of the
//       script; side requests (no tools: the model router's complexity classifier before each
//       prompt, the one-line session summary shown by --list-sessions, next-speaker and loop
//       checks) get an answer that fits their `responseJsonSchema`, or a short text, and do not
//       consume a step;
//   - `:countTokens` → a token count; `GET /v1beta/models` → one model; anything else → 404.
// A main-loop request whose function calls are not answered one-for-one by function responses in
// the next turn gets the 400 the real API gives (so a bad conversation fork shows up here); with
// `strict: false` (setStrict) the problems are only logged and the script goes on, to observe a
// CLI bug past its first symptom.
// Every request is appended to a JSONL log: main-loop ones with a summary (every user text, every
// function call and response, all text) and the whole body; side ones with their kind.
//
//   node test/compat/gemini/mockModel.mjs <script.json> <requests.jsonl>      prints "PORT <n>"
//   import { startMockGemini } from './mockModel.mjs'
//
// A script is a list of steps, one per main-loop request:
//   { "text": "…" } | { "call": { "name", "args" } } | { "calls": [{ "name", "args" }, …], "text"?: "…" }
import * as fs from 'node:fs';
import * as http from 'node:http';
import { pathToFileURL } from 'node:url';

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

/**
 * Starts the server on 127.0.0.1 (a free port). `log`: the JSONL file every request goes to.
 * `setScript(steps, label)` replaces the remaining steps (one list per CLI run); `label` is written
 * into each request record, so assertions can find "the requests of run X".
 */
export function startMockGemini({ log, script = [], label = '', ids = false, strict = true } = {}) {
  let steps = [...script];
  let current = label;
  let seq = 0;
  const stats = { main: 0, side: 0, rejected: 0, withProblems: 0, countTokens: 0, sideKinds: {}, otherPaths: [] };
  const write = (rec) => log && fs.appendFileSync(log, JSON.stringify(rec) + '\n');
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      const url = req.url ?? '';
      const m = /\/models\/([^/:?]+):(\w+)/.exec(url);
      if (req.method === 'GET' && /\/v1(beta)?\/models(\?|$)/.test(url)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ models: [{ name: 'models/gemini-mock', supportedGenerationMethods: ['generateContent', 'countTokens'] }] }),
        );
      }
      if (req.method !== 'POST' || !m) {
        stats.otherPaths.push(`${req.method} ${url}`);
        write({ n: seq++, label: current, time: new Date().toISOString(), kind: 'unknown', method: req.method, url });
        return apiError(res, 404, `Not found: ${req.method} ${url}`);
      }
      const [, model, method] = m;
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return apiError(res, 400, 'Invalid JSON payload received.');
      }
      if (method === 'countTokens') {
        stats.countTokens++;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ totalTokens: 100 }));
      }
      const tools = Array.isArray(body.tools) && body.tools.some((t) => t.functionDeclarations?.length);
      const base = { n: seq++, label: current, time: new Date().toISOString(), model, method, url };
      if (!tools) {
        const kind = sideKind(body);
        stats.side++;
        stats.sideKinds[kind] = (stats.sideKinds[kind] ?? 0) + 1;
        const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
        const text =
          schema || body.generationConfig?.responseMimeType === 'application/json'
            ? JSON.stringify(sampleFor(schema))
            : kind === 'session-summary'
              ? 'Scripted session summary'
              : 'Scripted side answer';
        write({ ...base, kind, answer: text, ...summarizeRequest(body) });
        return answer(res, url, model, [{ text }]);
      }
      stats.main++;
      const problems = callPairingProblems(body);
      const reject = strict && problems.length > 0;
      const step = reject ? null : (steps.shift() ?? { text: 'All done.' });
      const parts = step ? partsForStep(step, ids) : [];
      write({ ...base, kind: 'main', status: reject ? 400 : 200, problems, answer: parts, ...summarizeRequest(body), body });
      if (problems.length) stats.withProblems++;
      if (reject) {
        stats.rejected++;
        return apiError(res, 400, problems.join(' '));
      }
      answer(res, url, model, parts);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        stats,
        setLog(file) {
          log = file;
        },
        setStrict(on) {
          strict = on;
        },
        setScript(next, nextLabel = '') {
          steps = [...next];
          current = nextLabel;
        },
        remaining: () => steps.length,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

/** Reads the request log written by `startMockGemini`. */
export function readRequests(log) {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

// Run directly (no top-level await: TypeScript callers load this file through tsx as CommonJS).
if (import.meta.url && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [scriptFile, log] = process.argv.slice(2);
  if (!scriptFile || !log) {
    console.error('usage: node test/compat/gemini/mockModel.mjs <script.json> <requests.jsonl>');
    process.exit(2);
  }
  startMockGemini({ log, script: JSON.parse(fs.readFileSync(scriptFile, 'utf8')) }).then((m) => console.log('PORT', m.port));
}
