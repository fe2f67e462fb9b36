// Forks our own session log the way a transcript is forked: a new `sessions/<new id>.jsonl` holding
// the lines before a chosen prompt, `session` rewritten on every line, exclusive create, mode 0600,
// the parent untouched. The agent cannot resume it (it is not the agent's own file), but the fork
// records where the conversation was rewound to, and the view shows it like any session.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { readSessionLog, sessionLogFile, type SessionLogLine } from './sessionLog';
import { findLoggedPrompt } from './sessionLogView';
import { AgentRewindError } from '../errors';

export interface SessionLogFork {
  session: string;
  transcript: string;
  parent: string;
  parentTranscript: string;
  cut: { id: string; checkpoint: string; promptId?: string; text: string; occurrence: number };
  cwd?: string;
}

export function forkSessionLog(storeDir: string, parent: string, before: string, opts: { newId?: string } = {}): SessionLogFork {
  const parentFile = sessionLogFile(storeDir, parent);
  if (!fs.existsSync(parentFile))
    throw new Error(
      `No session log for session ${parent} in this store; run \`agent-rewind conversation show --session <id>\` with a session the store recorded.`,
    );
  const lines = readSessionLog(parentFile);
  const at = findLoggedPrompt(lines, before);
  const show = 'run `agent-rewind conversation show --session ' + parent + '` to list the prompts you can cut before';
  if (at < 0) throw new AgentRewindError('session-cut-refused', { parent, before, show });
  const earlier = lines.slice(0, at).filter((l) => l.t === 'prompt');
  if (earlier.length === 0) throw new AgentRewindError('session-cut-refused', { first: true });
  const cut = lines[at] as Extract<SessionLogLine, { t: 'prompt' }>;
  const session = opts.newId ?? randomUUID();
  const dest = sessionLogFile(storeDir, session);
  const text = lines
    .slice(0, at)
    .map((l) => JSON.stringify({ ...l, session }) + '\n')
    .join('');
  fs.writeFileSync(dest, text, { flag: 'wx', mode: 0o600 }); // exclusive create
  const fork: SessionLogFork = {
    session,
    transcript: dest,
    parent,
    parentTranscript: parentFile,
    cut: {
      id: cut.id,
      checkpoint: cut.id,
      text: cut.text,
      occurrence: earlier.filter((p) => p.t === 'prompt' && p.text === cut.text).length,
    },
  };
  if (cut.promptId) fork.cut.promptId = cut.promptId;
  if (cut.cwd) fork.cwd = cut.cwd;
  return fork;
}
