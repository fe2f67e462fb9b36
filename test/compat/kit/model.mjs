// The compat kit's scripted model server: one HTTP server on 127.0.0.1, parameterised by the wire
// format the agent CLI speaks, so every REAL client runs offline against a script.
//
//   wire 'anthropic'         Anthropic Messages (Claude Code)               ./wire/anthropic.mjs
//   wire 'openai-responses'  OpenAI Responses (Codex CLI)                   ./wire/responses.mjs
//   wire 'openai-chat'       OpenAI chat completions (OpenCode, Qwen Code)  ./wire/chat.mjs
//   wire 'gemini'            Gemini generativelanguage v1beta (Gemini CLI)  ./wire/gemini.mjs
//
// What every wire shares lives here: a request is either a MAIN-LOOP request (it offers the agent's
// tools: it takes the next step of the script) or a SIDE request (titles, summaries, classifiers:
// a short answer, no step consumed); a main-loop request whose tool calls and tool results do not
// pair up gets the 400 the real API gives (a broken conversation fork shows up here; `strict: false`
// only logs the problems); anything else is a 404, logged. Every request is appended to a JSONL log
// (`n`, `label`, `time`, `url`, `kind`, `status`, `problems`, `step`, the wire's summary and, unless
// `bodies: false`, the body) for assertions. A step's form is the wire's (see each wire file).
//
//   node test/compat/kit/model.mjs <wire> <script.json> <requests.jsonl>      prints "PORT <n>"
//   import { startScriptedModel, readRequests } from './kit/model.mjs'
import * as fs from 'node:fs';
import * as http from 'node:http';
import { pathToFileURL } from 'node:url';
import { anthropic } from './wire/anthropic.mjs';
import { chat } from './wire/chat.mjs';
import { gemini } from './wire/gemini.mjs';
import { responses } from './wire/responses.mjs';

export const WIRES = { anthropic, 'openai-responses': responses, 'openai-chat': chat, gemini };

/**
 * Starts the server (a free port unless `port`). `setScript(steps, label)` replaces the remaining
 * steps (one list per CLI run); `label` is written into each record, so assertions can find "the
 * requests of run X".
 */
export function startScriptedModel(opts = {}) {
  const wire = WIRES[opts.wire];
  if (!wire) throw new Error(`unknown wire format ${opts.wire}; one of ${Object.keys(WIRES).join(', ')}`);
  let steps = [...(opts.script ?? [])];
  let label = opts.label ?? '';
  let log = opts.log;
  let strict = opts.strict !== false;
  const bodies = opts.bodies ?? wire.logBodies;
  const answerOpts = { ids: opts.ids === true };
  let n = 0;
  const stats = { main: 0, side: 0, rejected: 0, withProblems: 0, countTokens: 0, sideKinds: {}, otherPaths: [] };
  const write = (rec) => log && fs.appendFileSync(log, JSON.stringify(rec) + '\n');
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      const url = req.url ?? '';
      const base = () => ({ n: n++, label, time: new Date().toISOString(), url });
      const route = wire.route(req.method, url);
      if (!route) {
        stats.otherPaths.push(`${req.method} ${url}`);
        if (wire.logOther) write({ ...base(), method: req.method, kind: 'unknown', status: 404 });
        return wire.error(res, 404, `Not found: ${req.method} ${url}`);
      }
      if (route.reply) return json(res, 200, route.reply);
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return wire.error(res, 400, 'Request body is not valid JSON.');
      }
      if (route.countTokens) {
        stats.countTokens++;
        return json(res, 200, wire.tokenCount);
      }
      if (!wire.isMain(body, url)) {
        const kind = wire.sideKind?.(body) ?? 'side';
        stats.side++;
        stats.sideKinds[kind] = (stats.sideKinds[kind] ?? 0) + 1;
        const side = wire.sideAnswer(body, kind);
        if (wire.logSide) write({ ...base(), kind, status: 200, answer: side, ...wire.summarize(body) });
        return wire.answer(res, { body, url, step: side, ...answerOpts });
      }
      stats.main++;
      const problems = wire.problems(body);
      const reject = strict && problems.length > 0;
      const step = reject ? null : (steps.shift() ?? { text: 'All done.' });
      if (problems.length) stats.withProblems++;
      write({
        ...base(),
        kind: 'main',
        status: reject ? 400 : 200,
        problems,
        step: step ? Object.keys(step).join('+') : null,
        ...(wire.headers ? { headers: wire.headers(req) } : {}),
        ...wire.summarize(body),
        ...(bodies ? { body } : {}),
      });
      if (reject) {
        stats.rejected++;
        return wire.error(res, 400, problems.join(' '));
      }
      wire.answer(res, { body, url, step, ...answerOpts });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        wire: opts.wire,
        port,
        url: `http://127.0.0.1:${port}`,
        stats,
        /** Where requests are logged from now on. */
        setLog(file) {
          log = file;
        },
        /** Off: pairing problems are logged and the script goes on (to observe a client bug past its first symptom). */
        setStrict(on) {
          strict = on;
        },
        setScript(next, nextLabel = '') {
          steps = [...next];
          label = nextLabel;
        },
        /** Steps not consumed yet (a run that ended early leaves some). */
        remaining: () => steps.length,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections?.();
            server.close(() => r());
          }),
      });
    });
  });
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Reads the request log written by `startScriptedModel`. */
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
  const [wire, scriptFile, log] = process.argv.slice(2);
  if (!WIRES[wire] || !scriptFile || !log) {
    console.error(`usage: node test/compat/kit/model.mjs <${Object.keys(WIRES).join('|')}> <script.json> <requests.jsonl>`);
    process.exit(2);
  }
  startScriptedModel({ wire, log, script: JSON.parse(fs.readFileSync(scriptFile, 'utf8')) }).then((m) => console.log('PORT', m.port));
}
