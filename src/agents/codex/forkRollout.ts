// Writes a fork of a Codex rollout cut before a prompt's turn: a self-contained copy of the
// parent's lines up to the end of the turn before (its `task_complete`), under a new session id,
// written where `codex resume <new id>` finds it ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local
// time>-<new id>.jsonl — Codex finds a rollout by the id in its name and registers it on resume).
// Kept lines are copied byte for byte, except that every `session_id` / `thread_id` /
// `conversation_id` (and session_meta's `id`) equal to the parent's id becomes the new id: with the
// parent's id left in, Codex 0.171 resumes the parent's thread. Lines between the kept turn and the
// cut turn (`thread_settings_applied` of a resume) go with the dropped turn — the cut Codex's own
// `thread/fork { lastTurnId }` makes. Codex's own forks point at their parent (`history_base`) and
// break when it moves; a copy does not. Written under a temporary name, re-read and checked like a
// resume would read it, then linked into place (exclusive create, 0600): a refused or failed fork
// leaves nothing behind. The parent is only read.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceFile } from '../../core/storeFiles/fsx';
import { cutRefused, transcriptForker } from '../common/fork';
import { copyLines } from '../common/lines';
import type { RolloutEntry } from './rolloutLine';
import { readRollout } from './rolloutRead';
import { turnsOf } from './rolloutTimeline';

export interface RolloutFork {
  session: string;
  transcript: string;
  parent: string;
  parentTranscript: string;
  resume: string;
  cut: { uuid: string; promptId: string; text: string; occurrence: number; time?: string };
  cwd?: string;
  keptLines: number;
  parentLines: number;
}

/** A time-ordered UUID (v7), the kind Codex gives its sessions. */
export function uuidv7(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<id>.jsonl` in local time, as Codex names them. */
export function rolloutName(id: string, when: Date): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  const [y, m, d] = [String(when.getFullYear()), p2(when.getMonth() + 1), p2(when.getDate())];
  const ts = `${y}-${m}-${d}T${p2(when.getHours())}-${p2(when.getMinutes())}-${p2(when.getSeconds())}`;
  return path.join(y, m, d, `rollout-${ts}-${id}.jsonl`);
}

/** Where Codex looks for rollouts: the `sessions` folder above the parent (or beside an archived one). */
export function sessionsRoot(parentFile: string): string | null {
  let dir = path.dirname(parentFile);
  for (let i = 0; i < 5; i++) {
    const base = path.basename(dir);
    if (base === 'sessions') return dir;
    if (base === 'archived_sessions') return path.join(path.dirname(dir), 'sessions');
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

const ID_KEYS = new Set(['session_id', 'thread_id', 'conversation_id']);

function rewriteIds(v: unknown, from: string, to: string): unknown {
  if (Array.isArray(v)) return v.map((x) => rewriteIds(x, from, to));
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = ID_KEYS.has(k) && x === from ? to : rewriteIds(x, from, to);
    return o;
  }
  return v;
}

function rewrite(raw: Buffer, e: RolloutEntry, parent: string, session: string): Buffer {
  if (!e.mentions) return raw;
  const j = rewriteIds(JSON.parse(raw.toString('utf8')), parent, session) as { payload?: { id?: unknown } };
  if (e.type === 'session_meta' && j.payload?.id === parent) j.payload.id = session;
  return Buffer.from(JSON.stringify(j), 'utf8');
}

/** Calls without an output (or outputs without a call) among `entries`: a resume would send a broken history. */
export function unpairedCalls(entries: readonly RolloutEntry[]): string[] {
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const e of entries) {
    if (e.call) calls.add(e.call.callId);
    if (e.output) outputs.add(e.output.callId);
  }
  return [...[...calls].filter((c) => !outputs.has(c)), ...[...outputs].filter((o) => !calls.has(o))];
}

interface Plan {
  keep: RolloutEntry[];
  cut: RolloutEntry;
  turnId: string;
  occurrence: number;
  /** The prompts (turn ids) the fork must hold. */
  prompts: string[];
}

function plan(entries: readonly RolloutEntry[], turnId: string): Plan {
  const turns = turnsOf(entries);
  const withPrompt = turns.filter((t) => t.prompt);
  const at = withPrompt.findIndex((t) => t.turnId === turnId);
  if (at < 0)
    throw cutRefused(
      `${turnId} is not a prompt of this rollout; run \`agent-rewind conversation show --transcript <rollout>\` to list them.`,
      'not-found',
    );
  if (at === 0)
    throw cutRefused('A fork before the first prompt would hold no conversation to resume; pick a later prompt.', 'first-prompt');
  const turn = withPrompt[at]!;
  const before = turns[turns.indexOf(turn) - 1]!;
  if (before.end === null)
    throw cutRefused(
      `The turn before "${turn.prompt!.prompt!.slice(0, 60)}" never finished (no task_complete), so there is no clean place to cut; pick another prompt.`,
      'open-turn',
    );
  const keep = entries.slice(0, before.end + 1);
  const unpaired = unpairedCalls(keep);
  if (unpaired.length)
    throw cutRefused(
      `The conversation before that prompt has tool calls without results (${unpaired.slice(0, 3).join(', ')}); nothing was written — pick another prompt.`,
      'unpaired',
    );
  const text = turn.prompt!.prompt!;
  const occurrence = withPrompt.slice(0, at).filter((t) => t.prompt!.prompt === text).length;
  return { keep, cut: turn.prompt!, turnId, occurrence, prompts: withPrompt.slice(0, at).map((t) => t.turnId) };
}

/** What a resume of the written fork would see, checked against the plan. */
function checkWritten(file: string, session: string, p: Plan): string[] {
  const w = readRollout(file);
  const problems: string[] = [];
  if (w.badLines.length) problems.push(`${w.badLines.length} unreadable line(s)`);
  if (w.session !== session) problems.push(`session_meta says ${w.session}, not ${session}`);
  const turns = turnsOf(w.entries).filter((t) => t.prompt);
  const got = turns.map((t) => t.turnId).join(',');
  if (got !== p.prompts.join(',')) problems.push(`prompts ${got} instead of ${p.prompts.join(',')}`);
  const unpaired = unpairedCalls(w.entries);
  if (unpaired.length) problems.push(`unpaired calls ${unpaired.join(', ')}`);
  return problems;
}

export function forkRollout(file: string, turnId: string, opts: { newId?: string; now?: Date } = {}): RolloutFork {
  const parentTranscript = path.resolve(file);
  const { entries, lines, session: parent, cwd } = readRollout(parentTranscript);
  const p = plan(entries, turnId);
  const session = opts.newId ?? uuidv7();
  const now = opts.now ?? new Date();
  const root = sessionsRoot(parentTranscript);
  // Outside a Codex home the fork goes beside its parent (readable and forkable, but `codex resume` looks in CODEX_HOME).
  const dest = root
    ? path.join(root, rolloutName(session, now))
    : path.join(path.dirname(parentTranscript), path.basename(rolloutName(session, now)));
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  // Not named rollout-*.jsonl: Codex must never list a half-written fork.
  const tmp = path.join(path.dirname(dest), `.${session}.${process.pid}.fork-tmp`);
  const fill = (into: string) => {
    copyLines(parentTranscript, into, p.keep, (raw, e) => rewrite(raw, e, parent, session));
    const problems = checkWritten(into, session, p);
    if (problems.length)
      throw cutRefused(
        `The rollout could not be cut cleanly before ${turnId} (${problems.slice(0, 3).join('; ')}); nothing was written — pick another prompt.`,
        'unclean',
      );
  };
  replaceFile(dest, fill, { tmp, exclusive: true });
  const cut: RolloutFork['cut'] = { uuid: turnId, promptId: turnId, text: p.cut.prompt!, occurrence: p.occurrence };
  if (p.cut.timestamp) cut.time = p.cut.timestamp;
  const r: RolloutFork = {
    session,
    transcript: dest,
    parent,
    parentTranscript,
    resume: codexResume(session),
    cut,
    keptLines: p.keep.length,
    parentLines: lines,
  };
  if (cwd) r.cwd = cwd;
  return r;
}

/** Codex's rollout forker, for recording/forkConversation.ts. */
/** The command that resumes Codex session `session` (a fork's). */
export const codexResume = (session: string): string => `codex resume ${session}`;

export const codexForker = transcriptForker('codex', (transcript, before) => forkRollout(transcript, before));
