// Codex session rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local ts>-<uuid>.jsonl`) as the
// real 0.171 writes them, for explore.ts and the compat checks: read the lines, find the prompts and
// turns, and make the two kinds of fork we test:
//   - a copy cut before a prompt's turn, with a new session id (what our forker would do);
//   - a "reference fork": one session_meta line whose `history_base` names the parent and where to
//     stop, which is how Codex's own `codex fork` / `thread/fork` write a fork (parent untouched).
// Line shape: `{ timestamp, ordinal, type, payload }`; `ordinal` counts lines from 0 and continues
// across a resume (and into a fork, which starts at the parent's next ordinal).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rolloutName, uuidv7 } from '../../../src/agents/codex/forkRollout';

export interface RolloutLine {
  timestamp?: string;
  ordinal?: number;
  type: string;
  payload: any;
  [k: string]: unknown;
}

export interface Line {
  index: number;
  raw: string;
  obj: RolloutLine | null;
}

export function readLines(file: string): Line[] {
  const text = fs.readFileSync(file, 'utf8');
  const raws = text.split('\n');
  if (raws[raws.length - 1] === '') raws.pop();
  return raws.map((raw, index) => {
    try {
      return { index, raw, obj: JSON.parse(raw) as RolloutLine };
    } catch {
      return { index, raw, obj: null };
    }
  });
}

/** Every rollout file under CODEX_HOME/sessions (and archived_sessions), oldest name first. */
export function rolloutFiles(codexHome: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^rollout-.*\.jsonl$/.test(e.name)) out.push(p);
    }
  };
  walk(path.join(codexHome, 'sessions'));
  walk(path.join(codexHome, 'archived_sessions'));
  return out.sort();
}

export function rolloutOf(codexHome: string, id: string): string | undefined {
  return rolloutFiles(codexHome).find((f) => f.endsWith(`-${id}.jsonl`));
}

/** `session_meta.payload.id` of the first session_meta line. */
export function sessionIdOf(lines: Line[]): string | undefined {
  return lines.find((l) => l.obj?.type === 'session_meta')?.obj?.payload?.id;
}

/** A line's kind for summaries: `session_meta`, `event_msg:task_started`, `response_item:message(user)`… */
export function kindOf(l: RolloutLine): string {
  const p = l.payload;
  if (l.type === 'response_item' && p?.type === 'message') return `response_item:message(${p.role})`;
  if ((l.type === 'event_msg' || l.type === 'response_item') && typeof p?.type === 'string') {
    return p.type === 'item_completed' || p.type === 'item_started' ? `${l.type}:${p.type}(${p.item?.type})` : `${l.type}:${p.type}`;
  }
  return l.type;
}

export interface Prompt {
  /** Index of the `event_msg item_completed {item.type: UserMessage}` line. */
  index: number;
  ordinal?: number;
  turnId: string;
  text: string;
}

/**
 * The user's prompts, in order: one `event_msg` `item_completed` line whose item is a `UserMessage`
 * per prompt (the `response_item` user message beside it says the same; environment context and hook
 * context are other messages, `developer` or `user` with other `content_item_kinds`).
 */
export function prompts(lines: Line[]): Prompt[] {
  const out: Prompt[] = [];
  for (const l of lines) {
    const p = l.obj?.payload;
    if (l.obj?.type !== 'event_msg' || p?.type !== 'item_completed' || p.item?.type !== 'UserMessage') continue;
    const text = (p.item.content ?? []).map((c: any) => (typeof c?.text === 'string' ? c.text : '')).join('\n');
    out.push({ index: l.index, ordinal: l.obj.ordinal, turnId: p.turn_id, text });
  }
  return out;
}

/**
 * Where a cut before the turn `turnId` goes: just after the `event_msg task_complete` of the turn
 * before it (so the lines Codex writes between turns on a resume — `thread_settings_applied` — go with
 * the discarded turn). Null when the turn is not found or is the first one.
 */
export function cutBeforeTurn(lines: Line[], turnId: string): number | null {
  const start = lines.findIndex(
    (l) => l.obj?.type === 'event_msg' && l.obj.payload?.type === 'task_started' && l.obj.payload?.turn_id === turnId,
  );
  if (start < 0) return null;
  for (let i = start - 1; i >= 0; i--) {
    const p = lines[i]!.obj?.payload;
    if (lines[i]!.obj?.type === 'event_msg' && (p?.type === 'task_complete' || p?.type === 'turn_aborted')) return i + 1;
  }
  return null;
}

export { uuidv7 };

/** `rollout-2026-12-03T17-24-32-<id>.jsonl` in `sessions/2026/12/03/` (local time, as Codex names them). */
export function rolloutPathFor(codexHome: string, id: string, when = new Date()): string {
  return path.join(codexHome, 'sessions', rolloutName(id, when));
}

const ID_KEYS = new Set(['session_id', 'thread_id', 'conversation_id']);

function rewriteIds(v: any, from: string, to: string): any {
  if (Array.isArray(v)) return v.map((x) => rewriteIds(x, from, to));
  if (v && typeof v === 'object') {
    const o: any = {};
    for (const [k, x] of Object.entries(v)) o[k] = ID_KEYS.has(k) && x === from ? to : rewriteIds(x, from, to);
    return o;
  }
  return v;
}

export interface CopyFork {
  file: string;
  id: string;
  parent: string;
  keptLines: number;
  droppedLines: number;
  /** Lines of the copy that still mention the parent id after the rewrite (for the findings). */
  parentIdLeft: number;
}

/**
 * Copy `parentFile` up to (not including) line `cut` into a new rollout with a new session id:
 * `session_meta.payload.id` and every `session_id` / `thread_id` / `conversation_id` equal to the
 * parent's id are rewritten; everything else (ordinals, turn ids, item ids) is kept. Exclusive create,
 * mode 0600, the parent is only read.
 */
export function forkByCopy(parentFile: string, cut: number, codexHome: string, o: { id?: string; when?: Date } = {}): CopyFork {
  const lines = readLines(parentFile);
  const parent = sessionIdOf(lines);
  if (!parent) throw new Error(`${parentFile} has no session_meta line`);
  const id = o.id ?? uuidv7();
  const kept = lines.slice(0, cut).filter((l) => l.obj);
  let parentIdLeft = 0;
  const out = kept.map((l) => {
    let obj = rewriteIds(l.obj, parent, id);
    if (obj.type === 'session_meta' && obj.payload?.id === parent) obj = { ...obj, payload: { ...obj.payload, id } };
    const s = JSON.stringify(obj);
    if (s.includes(parent)) parentIdLeft++;
    return s;
  });
  const file = rolloutPathFor(codexHome, id, o.when);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, out.join('\n') + '\n', { flag: 'wx', mode: 0o600 });
  return { file, id, parent, keptLines: kept.length, droppedLines: lines.length - kept.length, parentIdLeft };
}

/**
 * A fork the way Codex writes its own (`codex fork`, app-server `thread/fork`): a rollout holding only
 * a `session_meta` line with a new id and `history_base: { thread_id, end_ordinal_exclusive,
 * end_byte_offset }` — Codex reads the parent's lines [0, end) from the parent file itself (history
 * by reference; `forked_from_id` / `forked_from_ordinal_exclusive` beside it are only lineage).
 * The fork's own lines continue the parent's ordinals.
 */
export function forkByReference(
  parentFile: string,
  cut: number,
  codexHome: string,
  o: { id?: string; when?: Date; historyBase?: boolean } = {},
): CopyFork {
  const lines = readLines(parentFile);
  const meta = lines.find((l) => l.obj?.type === 'session_meta')?.obj;
  const parent = meta?.payload?.id as string | undefined;
  if (!meta || !parent) throw new Error(`${parentFile} has no session_meta line`);
  const cutLine = lines[cut]?.obj;
  const ordinal = typeof cutLine?.ordinal === 'number' ? cutLine.ordinal : cut;
  const byteOffset = lines.slice(0, cut).reduce((n, l) => n + Buffer.byteLength(l.raw) + 1, 0);
  const id = o.id ?? uuidv7();
  const when = o.when ?? new Date();
  const payload = {
    ...meta.payload,
    id,
    session_id: id,
    forked_from_id: parent,
    forked_from_ordinal_exclusive: ordinal,
    ...(o.historyBase === false
      ? {}
      : { history_base: { thread_id: parent, end_ordinal_exclusive: ordinal, end_byte_offset: byteOffset } }),
    timestamp: when.toISOString(),
  };
  const line = { timestamp: when.toISOString(), ordinal, type: 'session_meta', payload };
  const file = rolloutPathFor(codexHome, id, when);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(line) + '\n', { flag: 'wx', mode: 0o600 });
  return { file, id, parent, keptLines: cut, droppedLines: lines.length - cut, parentIdLeft: 0 };
}
