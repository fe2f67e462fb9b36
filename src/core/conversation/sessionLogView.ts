// A session log as the conversation view shows it: the prompts in order, each with its tool calls.
// Same shape as a transcript's prompts (`conversation show`), so the view is one thing.
import type { Effect } from '../storeFiles/records';
import type { SessionLogLine } from './sessionLog';

export interface LoggedPrompt {
  /** Our prompt id: the id of the prompt's checkpoint in files.jsonl. */
  uuid: string;
  promptId?: string;
  text: string;
  time: string;
  tools: { id: string; name: string; summary: string; effect: Effect; ok?: boolean }[];
}

export function loggedPrompts(lines: readonly SessionLogLine[]): LoggedPrompt[] {
  const prompts: LoggedPrompt[] = [];
  const byCall = new Map<string, LoggedPrompt['tools'][number]>();
  let cur: LoggedPrompt | null = null;
  for (const l of lines) {
    if (l.t === 'prompt') {
      cur = { uuid: l.id, text: l.text, time: new Date(l.time).toISOString(), tools: [] };
      if (l.promptId) cur.promptId = l.promptId;
      prompts.push(cur);
    } else if (l.t === 'tool' && cur) {
      const tool = { id: l.id ?? '', name: l.name, summary: l.summary, effect: l.effect };
      cur.tools.push(tool);
      if (l.id) byCall.set(l.id, tool);
    } else if (l.t === 'result' && l.id) {
      const tool = byCall.get(l.id);
      if (tool) (tool as { ok?: boolean }).ok = l.ok;
    }
  }
  return prompts;
}

/** Finds a prompt by our id or by the agent's prompt id. */
export function findLoggedPrompt(lines: readonly SessionLogLine[], id: string): number {
  return lines.findIndex((l) => l.t === 'prompt' && (l.id === id || l.promptId === id));
}
