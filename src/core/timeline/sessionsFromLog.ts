// The conversation as our hooks saw it: sessions -> prompts -> tool calls, from files.jsonl alone.
// Used when no transcript can be read (and to link prompts to their file checkpoints).
import type { CallRecord, CheckpointRecord, Sequenced } from '../storeFiles/records';
import { isCall, isCheckpoint } from '../storeFiles/records';

export interface LoggedPrompt {
  checkpoint: Sequenced<CheckpointRecord>;
  calls: Sequenced<CallRecord>[];
}

export interface LoggedSession {
  session: string;
  agent: string;
  started: number;
  cwd?: string;
  transcript?: string;
  prompts: LoggedPrompt[];
  /** Calls before the first prompt (rare: hooks connected mid-session). */
  orphanCalls: Sequenced<CallRecord>[];
}

export function sessionsFromLog(records: readonly Sequenced[]): LoggedSession[] {
  const byId = new Map<string, LoggedSession>();
  const get = (id: string, agent: string, time: number): LoggedSession => {
    let s = byId.get(id);
    if (!s) byId.set(id, (s = { session: id, agent, started: time, prompts: [], orphanCalls: [] }));
    return s;
  };
  for (const r of records) {
    if (isCheckpoint(r)) {
      const c = r as Sequenced<CheckpointRecord>;
      if (!c.session || (c.kind !== 'prompt' && c.kind !== 'session-start')) continue;
      const s = get(c.session, c.agent ?? 'agent', c.time);
      if (c.cwd && !s.cwd) s.cwd = c.cwd;
      if (c.transcript) s.transcript = c.transcript;
      if (c.kind === 'prompt') s.prompts.push({ checkpoint: c, calls: [] });
    } else if (isCall(r) && r.session) {
      const s = get(r.session, r.agent ?? 'agent', r.time);
      const last = s.prompts[s.prompts.length - 1];
      (last ? last.calls : s.orphanCalls).push(r as Sequenced<CallRecord>);
    }
  }
  return [...byId.values()].sort((a, b) => b.started - a.started);
}
