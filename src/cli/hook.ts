// `agent-rewind hook <agent> [event]`: one payload on stdin, recorded synchronously. The payload's
// shape wins over the name (agents/detect.ts); `[event]` names the event for payloads that do not
// (Copilot CLI's camelCase hooks). A second delivery of one event is dropped (recording/dedupe.ts). Always exits 0 and
// prints nothing — except re-grounding context (a resumed fork at SessionStart; after a files-only
// rewind, at the session's next SessionStart or UserPromptSubmit): the agent is never blocked.
// Bad input goes to <store>/errors.log.
import * as fs from 'node:fs';
import { parseClaudePayload } from '../agents/claude/hookPayload';
import type { HookContext } from '../agents/common/payload';
import { detectAgent } from '../agents/detect';
import type { AdapterResult } from '../recording/events';
import { firstDelivery, sweepDedupe } from '../recording/dedupe';
import { clearPairs, pairCall } from '../recording/pairCalls';
import { record } from '../recording/recorder';
import { deliverRegrounding, prepareRegrounding, type Regrounding } from '../core/conversation/regroundHook';
import { fault } from '../core/faults';
import { announceWriter } from '../core/lock';
import { Store } from '../core/store';
import { storeFromArgs } from './storeArg';

// Loaded only by hooks that carry a shell call.
const shellCapture = () => require('../recording/shellCapture') as typeof import('../recording/shellCapture');

/** The registry: one adapter per agent, each loaded only when its payload arrives (the hook bundle starts small). */
const ADAPTERS: Record<string, (text: string, ctx: HookContext) => AdapterResult> = {
  claude: (t) => parseClaudePayload(t),
  vscode: (t, c) => (require('../agents/vscode/hookPayload') as typeof import('../agents/vscode/hookPayload')).parseVscodePayload(t, c),
  copilot: (t, c) => (require('../agents/copilot/hookPayload') as typeof import('../agents/copilot/hookPayload')).parseCopilotPayload(t, c),
  cursor: (t, c) => (require('../agents/cursor/hookPayload') as typeof import('../agents/cursor/hookPayload')).parseCursorPayload(t, c),
  cline: (t, c) => (require('../agents/cline/hookPayload') as typeof import('../agents/cline/hookPayload')).parseClinePayload(t, c),
};

/** Max bytes of stdin we accept: a payload carries a Write's whole content; beyond this it is bad input. */
const MAX_PAYLOAD = 64 * 1024 * 1024;

function readStdin(): string {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue;
      if (code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_PAYLOAD) throw new Error(`payload larger than ${MAX_PAYLOAD} bytes`);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function runHook(args: string[]): number {
  // A hook must never hang the agent: give up (silently) if stdin is never closed.
  const watchdog = setTimeout(() => process.exit(0), 20000);
  watchdog.unref();
  let store: Store | null = null;
  let shell = false;
  try {
    const named = args[0];
    // `hook <agent> <event> --store …`: the optional event is the first argument that is not an option.
    const event = args[1] && !args[1].startsWith('--') ? args[1] : undefined;
    const text = readStdin(); // read even when we record nothing: the agent's write never fails
    const dir = storeFromArgs(args.slice(1));
    if (!dir) return 0; // nowhere to record or to log: stay silent
    store = Store.open(dir, { create: true });
    const adapter = named ? ADAPTERS[named] : undefined;
    if (!named || !adapter) {
      store.logError(`hook: unknown agent "${named ?? ''}"; known: ${Object.keys(ADAPTERS).join(', ')}`);
      return 0;
    }
    const agent = detectAgent(named, text);
    const r = (ADAPTERS[agent] ?? adapter)(text, { ...(event ? { event } : {}), env: process.env });
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
      record(store, r.event);
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
