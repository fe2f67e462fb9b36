// `agent-rewind hook <agent> [event]`: one payload on stdin, recorded synchronously. The payload's
// shape wins over the name (agents/detect.ts); `[event]` names the event for payloads that do not
// (Copilot CLI's camelCase hooks). A second delivery of one event is dropped (recording/dedupe.ts). Always exits 0 and
// prints nothing — except re-grounding context (a resumed fork at SessionStart; after a files-only
// rewind, at the session's next SessionStart or UserPromptSubmit): the agent is never blocked.
// Bad input goes to <store>/errors.log.
import * as path from 'node:path';
import { parseClaudePayload } from '../agents/claude/hookPayload';
import type { HookContext } from '../agents/common/payload';
import { detectAgent } from '../agents/detect';
import type { AdapterResult } from '../recording/events';
import type { ChangeSource } from '../recording/changeSource';
import { firstDelivery, sweepDedupe } from '../recording/dedupe';
import { clearPairs, pairCall } from '../recording/pairCalls';
import { record } from '../recording/recorder';
import { canonicalEvent } from '../recording/canonical';
import { realDir } from '../core/workspace/realPath';
import { deliverRegrounding, prepareRegrounding, type Regrounding } from '../core/conversation/regroundHook';
import { fault } from '../core/faults';
import { announceWriter } from '../core/storeFiles/lock';
import { logStoreError, Store } from '../core/store';
import { logToUser } from './userLog';
import { storeFromArgs } from './storeArg';
import { HOOK_STDIN_DEADLINE_MS, MAX_PAYLOAD, readStdin, type StdinResult } from './stdin';
import type { LogRecord } from '../core/storeFiles/records';
import { isError } from '../core/errors';

export { HOOK_STDIN_DEADLINE_MS };

/** `agent-rewind resident`: in this bundle, so the resident records with this very code (loaded only there). */
export const runResident = (args: string[], bundleFile: string): Promise<number> =>
  (require('./resident') as typeof import('./resident')).runResident(args, bundleFile);

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

/**
 * The whole hook: stdin (unless the forwarding hook already read it: `given`), then the payload into
 * the store. `redelivered`: a resident recorder took this payload and died before appending it
 * (forward.ts), so a dedupe marker it left is its own and must not drop the payload.
 */
export async function runHook(args: string[], given?: StdinResult, redelivered = false): Promise<number> {
  const agent = args[0];
  const dir = storeFromArgs(args.slice(1));
  const input = given ?? (await readStdin(HOOK_STDIN_DEADLINE_MS)); // read even when we record nothing: the agent's write never fails
  if (input.kind !== 'ok') {
    if (dir && input.kind === 'too-large') noteDroppedPayload(dir, input.head);
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
  const context = recordPayload(agent, args, dir, input.text, { env: process.env, redelivered });
  if (context) process.stdout.write(context);
  return 0;
}

/** `--root <dir>` (repeatable): workspace folders named on the hook's command line. */
function rootsFromArgs(args: readonly string[]): string[] {
  const roots: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a === '--root' ? args[i + 1] : a.startsWith('--root=') ? a.slice('--root='.length) : undefined;
    if (v) roots.push(realDir(path.resolve(v)));
  }
  return roots;
}

/** The first string value of one of these keys in a JSON text's start (a payload too large to parse whole). */
function field(head: string, keys: string): string | undefined {
  const m = new RegExp(`"(?:${keys})"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(head);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as string;
  } catch {
    return undefined;
  }
}

/**
 * A payload over MAX_PAYLOAD is not recorded (a Write of that much content): a gap line says so, with
 * the file it named (found in its start: agents send the path before the content), so a plan over
 * that span says this file's change was not recorded.
 */
function noteDroppedPayload(dir: string, head: string): void {
  try {
    const session = field(head, 'session_id|sessionId|conversation_id');
    const tool = field(head, 'tool_name|toolName');
    const call = field(head, 'tool_use_id|toolUseId|tool_call_id|toolCallId');
    const file = field(head, 'file_path|filePath|notebook_path|absolute_path|path');
    Store.open(dir, { create: true }).appendGaps([
      {
        t: 'gap',
        path: file ? path.resolve(field(head, 'cwd') ?? '/', file) : '',
        reason: 'payload-dropped',
        ...(session ? { session } : {}),
        ...(tool ? { tool } : {}),
        ...(call ? { call } : {}),
        time: Date.now(),
      },
    ]);
  } catch (e) {
    if (!isError(e, 'not-a-store')) logStoreError(dir, `hook: recording a dropped payload: ${(e as Error).message}`);
  }
}

/** errors.log of the store at `dir`, made when missing (the first hook of a workspace may be the one that fails). */
function logOpening(dir: string, message: string): void {
  try {
    Store.open(dir, { create: true }).logError(message);
  } catch (e) {
    if (isError(e, 'store-not-trusted')) logToUser(`hook: nothing recorded in ${dir}: ${e.message} (and: ${message})`);
    else if (!isError(e, 'not-a-store')) logStoreError(dir, message);
  }
}

export interface PayloadOptions {
  /** The hook process's environment (the resident records with the forwarding hook's). */
  env: NodeJS.ProcessEnv;
  /** Called with the lines just before they are appended (the resident tells its hook: forward.ts). */
  beforeAppend?: (records: readonly LogRecord[]) => void;
  /** See runHook. */
  redelivered?: boolean;
  /** The resident's file watcher, settled (recording/changeSource.ts); hook processes have none. */
  changes?: ChangeSource;
}

/**
 * The synchronous rest of the hook: one payload into the store — run by the hook process itself, or
 * by the resident recorder for a hook that forwarded it (resident.ts): the same code, the same lines.
 * Returns the deliberate context to print ('' for none). Never throws.
 */
export function recordPayload(
  named: string | undefined,
  args: readonly string[],
  dir: string | null,
  text: string,
  opts: PayloadOptions,
): string {
  let store: Store | null = null;
  let shell = false;
  let context = '';
  try {
    if (!dir) return ''; // nowhere to record or to log: stay silent
    try {
      store = Store.open(dir, { create: true });
    } catch (e) {
      // A folder that is not a store (someone's documents): nothing of ours goes into it, not even
      // errors.log, and stderr stays quiet as always — the trace is the refusal itself, which the CLI
      // (exit 1) and VS Code (store unusable) state each time anyone looks at this store.
      if (isError(e, 'not-a-store')) return '';
      // A store another user owns or may write: nothing is read from it nor written to it, its errors.log
      // included (theirs to read); the user's own log says why nothing was recorded (userLog.ts).
      if (isError(e, 'store-not-trusted')) {
        logToUser(`hook ${named ?? ''}: nothing recorded in ${dir}: ${e.message}`);
        return '';
      }
      // A store that cannot be opened (a damaged store.json): the agent goes on; the trace names the file.
      logStoreError(dir, `hook ${named ?? ''}: ${(e as Error).message}`);
      return '';
    }
    const roots = rootsFromArgs(args);
    if (roots.length) store.addRoots(roots);
    // `hook <agent> <event> --store …`: the optional event is the first argument that is not an option.
    const event = args[1] && !args[1].startsWith('--') ? args[1] : undefined;
    const name = named ? (ALIASES[named] ?? named) : undefined;
    const adapter = name ? ADAPTERS[name] : undefined;
    if (!name || !adapter) {
      store.logError(`hook: unknown agent "${named ?? ''}"; known: ${[...Object.keys(ADAPTERS), ...Object.keys(ALIASES)].join(', ')}`);
      return '';
    }
    const agent = detectAgent(name, text, opts.env);
    const r = (ADAPTERS[agent] ?? adapter)(text, {
      ...(event ? { event } : {}),
      env: opts.env,
      cwd: process.cwd(), // in the resident too: it works in the hook's folder (resident.ts)
    });
    if (r.kind === 'bad') {
      store.logError(`hook ${agent}: ${r.reason}`, { payload: text.slice(0, 500) });
      return '';
    }
    if (r.kind === 'ignore') return '';
    canonicalEvent(r.event); // a workspace reached through a symlink is the folder it leads to
    const boundary =
      r.event.type === 'session_start' || r.event.type === 'prompt' || r.event.type === 'session_end' || r.event.type === 'stop';
    if (boundary) sweepDedupe(store);
    if (!opts.redelivered && !firstDelivery(store, r.event, r.stamp)) return ''; // the same event from a second hook file
    pairCall(store, r.event);
    // Shell capture's git question, started now so git runs while we do the rest. Not with the resident's watcher:
    // the scan it narrows asks git nothing (a git process started here would be killed unused, a few ms of CPU each
    // call); where the watcher cannot vouch, the scan starts git itself.
    shell = (r.event.type === 'before_tool' || r.event.type === 'after_tool') && r.event.shell;
    if (shell && !opts.changes) shellCapture().prefetchShellScan(store, r.event.session);
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
      record(store, r.event, {
        roots,
        ...(opts.beforeAppend ? { beforeAppend: opts.beforeAppend } : {}),
        ...(opts.changes ? { changes: opts.changes } : {}),
      });
      if (boundary && !(r.event.type === 'stop' && r.event.subagent)) clearPairs(store, r.event.session);
    } finally {
      done();
    }
    if (regrounding) context = deliverRegrounding(store, regrounding) + '\n';
  } catch (e) {
    if (store) store.logError(`hook: ${(e as Error).message}`, { stack: (e as Error).stack?.split('\n').slice(0, 4).join(' | ') });
  } finally {
    if (shell) shellCapture().cancelShellPrefetch();
  }
  return context;
}
