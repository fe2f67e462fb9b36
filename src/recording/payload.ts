// One hook payload into the store: run by the hook process itself (cli/hook.ts), or by the resident
// recorder for a hook that forwarded it (resident/resident.ts) — the same code, the same lines. Agent-neutral:
// which agent sent the payload and what it says is the caller's parser's answer (PayloadOptions.parse), so
// both callers import this file downward and neither imports the other.
import * as path from 'node:path';
import type { AdapterResult } from './events';
import type { ChangeSource } from './changeSource';
import { firstDelivery, sweepDedupe } from './dedupe';
import { clearPairs, pairCall } from './pairCalls';
import { record } from './recorder';
import { canonicalEvent } from './canonical';
import { logToUser } from './userLog';
import { realDir } from '../core/workspace/realPath';
import { deliverRegrounding, prepareRegrounding, type Regrounding } from '../core/conversation/regroundHook';
import { fault } from '../core/faults';
import { announceWriter } from '../core/storeFiles/lock';
import { logStoreError, Store } from '../core/store';
import { isError } from '../core/errors';
import type { LogRecord } from '../core/storeFiles/records';

// Loaded only by hooks that carry a shell call.
const shellCapture = () => require('./shellCapture') as typeof import('./shellCapture');

/** What a parser is told besides the payload: the event the hook's command line names, its environment and folder. */
export interface PayloadContext {
  event?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** A parser's answer: the agent that sent the payload (its shape wins over the name) and its verdict; or no such agent. */
export type ParsedPayload = { kind: 'parsed'; agent: string; result: AdapterResult } | { kind: 'unknown'; known: readonly string[] };

/** Reads a payload sent to `hook <named>` (cli/hook.ts holds the agents' parsers). */
export type ParsePayload = (named: string, text: string, ctx: PayloadContext) => ParsedPayload;

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

export interface PayloadOptions {
  /** Which agent sent the payload, and what it says. */
  parse: ParsePayload;
  /** The hook process's environment (the resident records with the forwarding hook's). */
  env: NodeJS.ProcessEnv;
  /** Called with the lines just before they are appended (the resident tells its hook: resident/forward.ts). */
  beforeAppend?: (records: readonly LogRecord[]) => void;
  /** A resident recorder took this payload and died before appending it: a dedupe marker it left is its own (cli/hook.ts runHook). */
  redelivered?: boolean;
  /** The resident's file watcher, settled (recording/changeSource.ts); hook processes have none. */
  changes?: ChangeSource;
}

/**
 * The synchronous rest of the hook: one payload into the store — run by the hook process itself, or
 * by the resident recorder for a hook that forwarded it (resident/resident.ts): the same code, the same lines.
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
    const parsed = opts.parse(named ?? '', text, {
      ...(event ? { event } : {}),
      env: opts.env,
      cwd: process.cwd(), // in the resident too: it works in the hook's folder (resident/resident.ts)
    });
    if (parsed.kind === 'unknown') {
      store.logError(`hook: unknown agent "${named ?? ''}"; known: ${parsed.known.join(', ')}`);
      return '';
    }
    const { agent, result: r } = parsed;
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
