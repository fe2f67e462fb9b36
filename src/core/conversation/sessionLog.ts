// Our own conversation log, `<store>/sessions/<session id>.jsonl`, one line per hook event: the
// conversation view for agents whose transcript we cannot read, and a record that outlives the
// agent's own transcript retention. Written by the recorder right after the event's store lines —
// one small append per event, never an error that reaches the agent.
import type * as Crypto from 'node:crypto';
import * as path from 'node:path';
import type { Effect, LogRecord, Severity } from '../storeFiles/records';
import { appendJsonLines, readJsonLines } from '../storeFiles/jsonLines';
import { STORE_FILE } from '../storeFiles/names';

export const SESSION_LOG_FORMAT = 1;

export type SessionLogLine =
  | { t: 'start'; v: number; session: string; time: number; agent: string; source?: string; cwd?: string; transcript?: string }
  | { t: 'prompt'; v: number; session: string; time: number; id: string; text: string; promptId?: string; cwd?: string }
  | { t: 'tool'; v: number; session: string; time: number; id?: string; name: string; summary: string; effect: Effect; severity?: Severity }
  | { t: 'result'; v: number; session: string; time: number; id?: string; ok: boolean }
  | { t: 'stop' | 'end'; v: number; session: string; time: number; reason?: string };

/** The fields of an agent event the log needs (src/recording/events.ts AgentEvent fits this shape). */
export interface SessionLogEvent {
  type: string;
  agent: string;
  session: string;
  cwd?: string;
  transcript?: string;
  source?: string;
  text?: string;
  promptId?: string;
  tool?: string;
  callId?: string;
  ok?: boolean;
  reason?: string;
}

const MAX_TEXT = 20000;

/** A session id as a file name: kept when plainly safe, else hashed (ids come from agent payloads). */
export function sessionLogName(session: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/.test(session)) return session;
  // Loaded only here: the hook keeps node:crypto off its start-up path.
  const { createHash } = require('node:crypto') as typeof Crypto;
  return `h-${createHash('sha256').update(session).digest('hex').slice(0, 40)}`;
}

export function sessionLogFile(storeDir: string, session: string): string {
  return path.join(storeDir, STORE_FILE.sessions, `${sessionLogName(session)}.jsonl`);
}

/** The log line for one event, given the store records the recorder wrote for it (its checkpoint, its call line). */
export function sessionLogLine(e: SessionLogEvent, records: readonly LogRecord[], time: number): SessionLogLine | null {
  const base = { v: SESSION_LOG_FORMAT, session: e.session, time };
  switch (e.type) {
    case 'session_start':
      return {
        t: 'start',
        ...base,
        agent: e.agent,
        ...(e.source ? { source: e.source } : {}),
        ...(e.cwd ? { cwd: e.cwd } : {}),
        ...(e.transcript ? { transcript: e.transcript } : {}),
      };
    case 'prompt': {
      const cp = records.find((r) => r.t === 'checkpoint' && r.kind === 'prompt');
      if (!cp || cp.t !== 'checkpoint') return null;
      const text = e.text ?? '';
      return {
        t: 'prompt',
        ...base,
        id: cp.id,
        text: text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) + '…' : text,
        ...(e.promptId ? { promptId: e.promptId } : {}),
        ...(e.cwd ? { cwd: e.cwd } : {}),
      };
    }
    case 'before_tool': {
      const call = records.find((r) => r.t === 'call');
      if (!call || call.t !== 'call') return null;
      return {
        t: 'tool',
        ...base,
        ...(e.callId ? { id: e.callId } : {}),
        name: call.tool,
        summary: call.summary,
        effect: call.effect,
        ...(call.severity ? { severity: call.severity } : {}),
      };
    }
    case 'after_tool':
      return { t: 'result', ...base, ...(e.callId ? { id: e.callId } : {}), ok: e.ok !== false };
    case 'stop':
      return { t: 'stop', ...base };
    case 'session_end':
      return { t: 'end', ...base, ...(e.reason ? { reason: e.reason } : {}) };
    default:
      return null;
  }
}

/** Appends the event's line to the session's log. Never throws: the agent is never blocked by it. */
export function appendSessionEvent(
  storeDir: string,
  e: SessionLogEvent,
  records: readonly LogRecord[],
  onError?: (message: string) => void,
): void {
  try {
    const line = sessionLogLine(e, records, Date.now());
    if (line) appendJsonLines(sessionLogFile(storeDir, e.session), [line], { mkdir: true });
  } catch (err) {
    onError?.(`session log: ${(err as Error).message}`);
  }
}

export function readSessionLog(file: string): SessionLogLine[] {
  return readJsonLines(file).filter((r) => typeof r.t === 'string' && typeof r.session === 'string') as unknown as SessionLogLine[];
}
