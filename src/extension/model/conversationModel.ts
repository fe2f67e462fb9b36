// The Conversation view's data: sessions -> prompts -> tool calls. Built from what the hooks
// recorded; where a session has a readable transcript, the transcript reader supplies the
// prompts (with their uuids, so a fork can cut before them).
import type { Effect, Severity } from '../../core/storeFiles/records';
import type { LoggedSession } from '../../core/timeline/sessionsFromLog';

export interface ConvTool {
  id?: string;
  name: string;
  summary: string;
  effect: Effect;
  severity?: Severity;
}

export interface ConvPrompt {
  key: string;
  /** Transcript uuid of the prompt line (needed to fork before it). */
  uuid?: string;
  text: string;
  time: number;
  /** The file checkpoint taken when the prompt was submitted. */
  checkpointId?: string;
  /** A fork can cut before it (a transcript exists and it is not the first prompt). */
  forkable: boolean;
  tools: ConvTool[];
}

export interface ConvSession {
  id: string;
  agent: string;
  title: string;
  time: number;
  cwd?: string;
  transcript?: string;
  parent?: string;
  forks: ConvSession[];
  prompts: ConvPrompt[];
}

export function fromLog(sessions: readonly LoggedSession[]): ConvSession[] {
  return sessions.map((s) => ({
    id: s.session,
    agent: s.agent,
    title: s.prompts[0]?.checkpoint.label ?? 'Session',
    time: s.started,
    ...(s.cwd ? { cwd: s.cwd } : {}),
    ...(s.transcript ? { transcript: s.transcript } : {}),
    forks: [],
    prompts: s.prompts.map((p) => ({
      key: p.checkpoint.id,
      text: p.checkpoint.label,
      time: p.checkpoint.time,
      checkpointId: p.checkpoint.id,
      forkable: false,
      tools: p.calls.map((c) => ({
        ...(c.call ? { id: c.call } : {}),
        name: c.tool,
        summary: c.summary,
        effect: c.effect,
        ...(c.severity ? { severity: c.severity } : {}),
      })),
    })),
  }));
}
