// `agent-rewind hook <agent> [event]`: one payload on stdin, recorded synchronously. The payload's
// shape wins over the name (agents/detect.ts); `[event]` names the event for payloads that do not
// (Copilot CLI's camelCase hooks). A second delivery of one event is dropped (recording/dedupe.ts). Always exits 0 and
// prints nothing — except re-grounding context (a resumed fork at SessionStart; after a files-only
// rewind, at the session's next SessionStart or UserPromptSubmit): the agent is never blocked.
// Bad input goes to <store>/errors.log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseClaudePayload } from '../agents/claude/hookPayload';
import type { HookContext } from '../agents/common/payload';
import { detectAgent } from '../agents/detect';
import type { AdapterResult } from '../recording/events';
import { firstDelivery, sweepDedupe } from '../recording/dedupe';
import { clearPairs, pairCall } from '../recording/pairCalls';
import { record } from '../recording/recorder';
import { deliverRegrounding, prepareRegrounding, type Regrounding } from '../core/conversation/regroundHook';
import { fault } from '../core/faults';
import { announceWriter } from '../core/storeFiles/lock';
import { logStoreError, Store } from '../core/store';
import { NotAStoreError } from '../core/storeFiles/workspaceStore';
import { storeFromArgs } from './storeArg';

// Loaded only by hooks that carry a shell call.
const shellCapture = () => require('../recording/shellCapture') as typeof import('../recording/shellCapture');

/** The registry: one adapter per agent, each loaded only when its payload arrives (the hook bundle starts small). */
const ADAPTERS: Record<string, (text: string, ctx: HookContext) => AdapterResult> = {
  claude: (t) => parseClaudePayload(t),
  codex: (t) => (require('../agents/codex/hookPayload') as typeof import('../agents/codex/hookPayload')).parseCodexPayload(t),
  gemini: (t) => (require('../agents/gemini/hookPayload') as typeof import('../agents/gemini/hookPayload')).parseGeminiPayload(t),
  vscode: (t, c) => (require('../agents/vscode/hookPayload') as typeof import('../agents/vscode/hookPayload')).parseVscodePayload(t, c),
  copilot: (t, c) => (require('../agents/copilot/hookPayload') as typeof import('../agents/copilot/hookPayload')).parseCopilotPayload(t, c),
  cursor: (t, c) => (require('../agents/cursor/hookPayload') as typeof import('../agents/cursor/hookPayload')).parseCursorPayload(t, c),
  cline: (t, c) => (require('../agents/cline/hookPayload') as typeof import('../agents/cline/hookPayload')).parseClinePayload(t, c),
  opencode: (t, c) =>
    (require('../agents/opencode/hookPayload') as typeof import('../agents/opencode/hookPayload')).parseOpencodePayload(t, c),
  qwen: (t) => (require('../agents/qwen/hookPayload') as typeof import('../agents/qwen/hookPayload')).parseQwenPayload(t),
  droid: (t) => (require('../agents/droid/hookPayload') as typeof import('../agents/droid/hookPayload')).parseDroidPayload(t),
  auggie: (t, c) => (require('../agents/auggie/hookPayload') as typeof import('../agents/auggie/hookPayload')).parseAuggiePayload(t, c),
  windsurf: (t, c) =>
    (require('../agents/windsurf/hookPayload') as typeof import('../agents/windsurf/hookPayload')).parseWindsurfPayload(t, c),
  kiro: (t, c) => (require('../agents/kiro/hookPayload') as typeof import('../agents/kiro/hookPayload')).parseKiroPayload(t, c),
};

/** Other names users (and the vendors' docs) give these agents: `hook qwen-code` records as `qwen`. */
const ALIASES: Readonly<Record<string, string>> = {
  'qwen-code': 'qwen',
  factory: 'droid',
  'factory-droid': 'droid',
  augment: 'auggie',
};

/** Max bytes of stdin we accept: a payload carries a Write's whole content; beyond this it is bad input. */
const MAX_PAYLOAD = 64 * 1024 * 1024;

/**
 * How long the hook waits for its stdin to close. An agent that never closes it (or a stuck pipe)
 * must not hang: after this the hook gives up, logs it and exits 0 — inside the 20 s we promise. Not
 * shorter: on a loaded machine a hook process can wait many seconds for a payload its agent already wrote.
 */
export const HOOK_STDIN_DEADLINE_MS = 18000;

type StdinResult = { kind: 'ok'; text: string } | { kind: 'timeout' } | { kind: 'too-large' } | { kind: 'error'; message: string };

/**
 * At the deadline, what the pipe holds right now, read without waiting: on a starved machine the
 * whole payload and its end can be sitting in the pipe while the event loop never got to them. The
 * payload when its end is there; null when the writer really has not closed stdin (EAGAIN).
 */
function drainNow(chunks: Buffer[], total: number): StdinResult | null {
  const buf = Buffer.allocUnsafe(1 << 16);
  try {
    for (;;) {
      const n = fs.readSync(0, buf, 0, buf.length, null);
      if (n === 0) return { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') };
      total += n;
      if (total > MAX_PAYLOAD) return { kind: 'too-large' };
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
  } catch {
    return null; // EAGAIN: nothing more, and no end: the writer is still holding stdin open
  }
}

/** Reads stdin to its end, asynchronously (no busy wait on a non-blocking pipe), within the deadline. */
function readStdin(deadlineMs: number): Promise<StdinResult> {
  return new Promise((resolve) => {
    const input = process.stdin;
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const finish = (r: StdinResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.removeAllListeners('data');
      if (r.kind !== 'ok') input.destroy(); // let the process end with the pipe still open
      resolve(r);
    };
    // On a starved machine the timer and the pipe's data become due together, and timers run first
    // in a loop turn: give the I/O poll of that turn its chance before giving up.
    const timer = setTimeout(() => setImmediate(() => finish(drainNow(chunks, total) ?? { kind: 'timeout' })), deadlineMs);
    input.on('data', (d: Buffer) => {
      total += d.length;
      if (total > MAX_PAYLOAD) finish({ kind: 'too-large' });
      else chunks.push(d);
    });
    input.on('end', () => finish({ kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }));
    input.on('error', (e) => finish({ kind: 'error', message: e.message }));
  });
}

export async function runHook(args: string[]): Promise<number> {
  const agent = args[0];
  const dir = storeFromArgs(args.slice(1));
  const input = await readStdin(HOOK_STDIN_DEADLINE_MS); // read even when we record nothing: the agent's write never fails
  if (input.kind !== 'ok') {
    if (dir)
      logOpening(
        dir,
        input.kind === 'timeout'
          ? `hook ${agent ?? ''}: stdin was not closed within ${HOOK_STDIN_DEADLINE_MS / 1000} s; nothing recorded for this call`
          : input.kind === 'too-large'
            ? `hook ${agent ?? ''}: payload larger than ${MAX_PAYLOAD} bytes; nothing recorded for this call`
            : `hook ${agent ?? ''}: could not read stdin: ${input.message}`,
      );
    return 0;
  }
  return recordPayload(agent, args, dir, input.text);
}

/** `--root <dir>` (repeatable): workspace folders named on the hook's command line. */
function rootsFromArgs(args: readonly string[]): string[] {
  const roots: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a === '--root' ? args[i + 1] : a.startsWith('--root=') ? a.slice('--root='.length) : undefined;
    if (v) roots.push(path.resolve(v));
  }
  return roots;
}

/** errors.log of the store at `dir`, made when missing (the first hook of a workspace may be the one that fails). */
function logOpening(dir: string, message: string): void {
  try {
    Store.open(dir, { create: true }).logError(message);
  } catch (e) {
    if (!(e instanceof NotAStoreError)) logStoreError(dir, message);
  }
}

/** The synchronous rest of the hook: one payload into the store. Never throws. */
function recordPayload(named: string | undefined, args: readonly string[], dir: string | null, text: string): number {
  let store: Store | null = null;
  let shell = false;
  try {
    if (!dir) return 0; // nowhere to record or to log: stay silent
    try {
      store = Store.open(dir, { create: true });
    } catch (e) {
      // A folder that is not a store (someone's documents): nothing of ours goes into it, not even
      // errors.log, and stderr stays quiet as always — the trace is the refusal itself, which the CLI
      // (exit 1) and VS Code (store unusable) state each time anyone looks at this store.
      if (e instanceof NotAStoreError) return 0;
      // A store that cannot be opened (a damaged store.json): the agent goes on; the trace names the file.
      logStoreError(dir, `hook ${named ?? ''}: ${(e as Error).message}`);
      return 0;
    }
    const roots = rootsFromArgs(args);
    if (roots.length) store.addRoots(roots);
    // `hook <agent> <event> --store …`: the optional event is the first argument that is not an option.
    const event = args[1] && !args[1].startsWith('--') ? args[1] : undefined;
    const name = named ? (ALIASES[named] ?? named) : undefined;
    const adapter = name ? ADAPTERS[name] : undefined;
    if (!name || !adapter) {
      store.logError(`hook: unknown agent "${named ?? ''}"; known: ${[...Object.keys(ADAPTERS), ...Object.keys(ALIASES)].join(', ')}`);
      return 0;
    }
    const agent = detectAgent(name, text);
    const r = (ADAPTERS[agent] ?? adapter)(text, { ...(event ? { event } : {}), env: process.env, cwd: process.cwd() });
    if (r.kind === 'bad') {
      store.logError(`hook ${agent}: ${r.reason}`, { payload: text.slice(0, 500) });
      return 0;
    }
    if (r.kind === 'ignore') return 0;
    const boundary =
      r.event.type === 'session_start' || r.event.type === 'prompt' || r.event.type === 'session_end' || r.event.type === 'stop';
    if (boundary) sweepDedupe(store);
    if (!firstDelivery(store, r.event, r.stamp)) return 0; // the same event from a second hook file
    pairCall(store, r.event);
    // Shell capture's git question, started now so git runs while we do the rest.
    shell = (r.event.type === 'before_tool' || r.event.type === 'after_tool') && r.event.shell;
    if (shell) shellCapture().prefetchShellScan(store, r.event.session);
    // The one deliberate output: re-grounding context for a resumed fork, or after a
    // files-only rewind. Worked out before the event is recorded (its own checkpoint must not end
    // the window it looks at); a failure there never stops the recording.
    let regrounding: Regrounding | null = null;
    try {
      regrounding = prepareRegrounding(store, r.event);
    } catch (e) {
      store.logError(`hook: re-grounding: ${(e as Error).message}`, { stack: (e as Error).stack?.split('\n').slice(0, 4).join(' | ') });
    }
    const done = announceWriter(store.dir);
    try {
      fault('hook.record');
      record(store, r.event, { roots });
      if (boundary && !(r.event.type === 'stop' && r.event.subagent)) clearPairs(store, r.event.session);
    } finally {
      done();
    }
    if (regrounding) process.stdout.write(deliverRegrounding(store, regrounding) + '\n');
  } catch (e) {
    if (store) store.logError(`hook: ${(e as Error).message}`, { stack: (e as Error).stack?.split('\n').slice(0, 4).join(' | ') });
  } finally {
    if (shell) shellCapture().cancelShellPrefetch();
  }
  return 0;
}
