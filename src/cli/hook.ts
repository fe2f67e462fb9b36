// `agent-rewind hook <agent> [event]`: one payload on stdin, recorded synchronously. The payload's
// shape wins over the name (agents/detect.ts); `[event]` names the event for payloads that do not
// (Copilot CLI's camelCase hooks). A second delivery of one event is dropped (recording/dedupe.ts). Always exits 0 and
// prints nothing — except re-grounding context (a resumed fork at SessionStart; after a files-only
// rewind, at the session's next SessionStart or UserPromptSubmit): the agent is never blocked.
// Bad input goes to <store>/errors.log.
import * as path from 'node:path';
import { detectAgent } from '../agents/detect';
import { type Registry, registry } from '../agents/registry';
import { type ParsePayload, recordPayload } from '../recording/payload';
import { logToUser } from '../recording/userLog';
import { storeFromArgs } from '../recording/storeArg';
import { logStoreError, Store } from '../core/store';
import { HOOK_STDIN_DEADLINE_MS, MAX_PAYLOAD, readStdin, type StdinResult } from '../recording/stdin';
import { isError } from '../core/errors';

export { HOOK_STDIN_DEADLINE_MS };

/** `agent-rewind resident`: in this bundle, so the resident records with this very code (loaded only there). */
export const runResident = (args: string[], bundleFile: string): Promise<number> =>
  (require('../resident/resident') as typeof import('../resident/resident')).runResident(args, bundleFile, parseHookPayload);

/** The registry's parser for `hook <named>`: which agent sent the payload (its shape wins over the name: agents/detect.ts), and what its adapter makes of it. */
export function parserFor(known: Registry): ParsePayload {
  return (named, text, ctx) => {
    const name = known.resolve(named);
    const adapter = known.get(name);
    if (!adapter) return { kind: 'unknown', known: known.names() };
    const agent = detectAgent(name, text, ctx.env, known);
    return { kind: 'parsed', agent, result: (known.get(agent) ?? adapter).parser()(text, ctx) };
  };
}

/** Every adapter of agents/registry.ts, each loaded only when its payload arrives (the hook bundle starts small). */
export const parseHookPayload: ParsePayload = parserFor(registry);

/**
 * The whole hook: stdin (unless the forwarding hook already read it: `given`), then the payload into
 * the store. `redelivered`: a resident recorder took this payload and died before appending it
 * (resident/forward.ts), so a dedupe marker it left is its own and must not drop the payload.
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
  const context = recordPayload(agent, args, dir, input.text, { parse: parseHookPayload, env: process.env, redelivered });
  if (context) process.stdout.write(context);
  return 0;
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
