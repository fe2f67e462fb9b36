// Small readers shared by the hook adapters: the payload parsed as a JSON object, typed field
// access, a tool input's stable text (for pairing and de-duplication keys), and a timestamp in ms.
import * as path from 'node:path';
import { checkAbsolutePath } from '../../core/paths';
import { patchPaths } from './applyPatch';
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult, EventBase, PromptEvent } from '../../recording/events';

export type Payload = Record<string, unknown>;

export function obj(v: unknown): Payload | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Payload) : null;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The payload as an object, or why it is bad input (a string). */
export function parsePayload(text: string): Payload | string {
  if (text.trim() === '') return 'empty payload';
  try {
    return obj(JSON.parse(text)) ?? 'payload is not a JSON object';
  } catch {
    return 'payload is not JSON';
  }
}

export const bad = (reason: string): AdapterResult => ({ kind: 'bad', reason });

/**
 * The turn-boundary events, as the adapters whose payloads carry nothing more make them: a session start,
 * a prompt (refused, naming the hook, when the payload has no prompt text), a stop, a session end.
 */
export const boundary = {
  start: (base: EventBase, source: string): AdapterResult => ({ kind: 'event', event: { ...base, type: 'session_start', source } }),
  /** `baseline`: an agent that reports some edits only after the write takes shell capture's baseline here. */
  prompt: (base: EventBase, hook: string, text: unknown, extra: Pick<PromptEvent, 'baseline'> = {}): AdapterResult =>
    typeof text === 'string' ? { kind: 'event', event: { ...base, type: 'prompt', text, ...extra } } : bad(`${hook} without a prompt`),
  /** A stop or a session end; an empty reason is left out. */
  end: (base: EventBase, type: 'stop' | 'session_end', reason = ''): AdapterResult => ({
    kind: 'event',
    event: { ...base, type, ...(reason ? { reason } : {}) },
  }),
};

/** JSON with sorted keys: two deep-equal inputs give the same text. */
export function stableText(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableText).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Payload;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableText(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** A payload timestamp (ms number, ms digits as a string, or ISO text) as ms, or undefined. */
export function stampOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(Math.trunc(v));
  if (typeof v !== 'string' || v === '') return undefined;
  if (/^\d+$/.test(v)) return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : String(t);
}

/** A session id we accept (used in file names after escaping): non-empty, bounded. */
export function sessionOf(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : null;
}

/** A tool's path made absolute: absolute as sent, or relative to the agent's folder. Null when neither works. */
export function absPath(p: unknown, cwd: string | undefined): string | null {
  if (typeof p !== 'string' || p === '') return null;
  if (path.isAbsolute(p)) return checkAbsolutePath(p);
  return cwd ? checkAbsolutePath(path.join(cwd, p)) : null;
}

/** What a hook context brings besides the payload: the `[event]` argument and the environment. */
export interface HookContext {
  event?: string;
  env?: NodeJS.ProcessEnv;
  /** The hook process's working folder: the workspace, for agents whose payload names none (Windsurf, Kiro's IDE). */
  cwd?: string;
}

/**
 * A tool event. `kind.paths` of a file-write tool must already be absolute; a file tool naming a path
 * we cannot make absolute is bad input (nothing recorded: a wrong path could be rewound).
 */
export function toolEvent(
  base: EventBase,
  phase: 'before' | 'after',
  tool: string,
  kind: ToolKind,
  input: unknown,
  opts: { callId?: string; pairKey?: string; ok?: boolean; afterOnly?: boolean; stamp?: string },
): AdapterResult {
  const paths = kind.kind === 'file-write' ? kind.paths : [];
  const common = {
    ...base,
    tool,
    kind,
    input,
    paths,
    shell: kind.kind === 'shell',
    ...(opts.callId ? { callId: opts.callId } : opts.pairKey ? { pairKey: opts.pairKey } : {}),
  };
  const stamp = opts.stamp ? { stamp: opts.stamp } : {};
  if (phase === 'before') return { kind: 'event', event: { ...common, type: 'before_tool' }, ...stamp };
  return {
    kind: 'event',
    event: { ...common, type: 'after_tool', ok: opts.ok !== false, ...(opts.afterOnly ? { afterOnly: true } : {}) },
    ...stamp,
  };
}

/** Paths a file tool names, made absolute; `bad` holds what could not be. */
export function filePaths(list: unknown[], cwd: string | undefined): { paths: string[]; bad: string[] } {
  const paths: string[] = [];
  const badOnes: string[] = [];
  for (const p of list) {
    const a = absPath(p, cwd);
    if (a) {
      if (!paths.includes(a)) paths.push(a);
    } else badOnes.push(JSON.stringify(p)?.slice(0, 200) ?? String(p));
  }
  return { paths, bad: badOnes };
}

/** An `apply_patch` call (VS Code's agent, Cline): a write of every file its patch names. */
export function patchToolKind(text: unknown, cwd: string | undefined): { kind: ToolKind; bad: string[] } {
  const r = patchPaths(str(text), cwd);
  if (!r) return { kind: { kind: 'file-write', paths: [] }, bad: ['input is not a patch'] };
  return { kind: { kind: 'file-write', paths: r.paths, summary: r.paths.join(', ') }, bad: r.bad };
}

/** A Claude-shaped payload (Claude Code, Codex, Gemini CLI): its object, event name and the event's common fields. */
export interface SnakePayload {
  p: Payload;
  event: string;
  base: { agent: string; session: string; cwd?: string; transcript?: string };
}

/**
 * Reads `hook_event_name`, `session_id`, `cwd` (else `cwdFallback`, e.g. the agent's project-dir
 * variable) and `transcript_path` of a Claude-shaped payload; a bad-input result when it is not one.
 */
export function snakePayload(text: string, agent: string, cwdFallback?: string): SnakePayload | AdapterResult {
  const p = parsePayload(text);
  if (typeof p === 'string') return bad(p);
  const event = p.hook_event_name;
  if (typeof event !== 'string') return bad('payload has no hook_event_name');
  const session = sessionOf(p.session_id);
  if (!session) return bad('payload has no valid session_id');
  const base: SnakePayload['base'] = { agent, session };
  // The payload's own cwd first: an inherited project-dir variable may belong to another session.
  const cwd = checkAbsolutePath(p.cwd) ?? checkAbsolutePath(cwdFallback);
  if (cwd) base.cwd = cwd;
  const transcript = checkAbsolutePath(p.transcript_path);
  if (transcript) base.transcript = transcript;
  return { p, event, base };
}

/**
 * The envelope Cursor and Auggie share: the session is `conversation_id` (else `session_id`), the folder
 * `workspace_roots[0]` (else `cwd`, else `fallbackCwd`), `transcript_path` when absolute.
 */
export function rootsEnvelope(p: Payload, agent: string, fallbackCwd?: string): EventBase | AdapterResult {
  const session = sessionOf(p.conversation_id) ?? sessionOf(p.session_id);
  if (!session) return bad('payload has no valid conversation_id');
  const base: EventBase = { agent, session };
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots : [];
  const cwd = checkAbsolutePath(roots[0]) ?? checkAbsolutePath(p.cwd) ?? checkAbsolutePath(fallbackCwd);
  if (cwd) base.cwd = cwd;
  const transcript = checkAbsolutePath(p.transcript_path);
  if (transcript) base.transcript = transcript;
  return base;
}
