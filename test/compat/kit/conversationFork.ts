// The compat kit's conversation rewind, one recipe for every client whose fork goes through our CLI:
// `agent-rewind conversation show` lists the three prompts of the real client's conversation,
// `conversation fork --before <prompt 2>` writes the fork, the real client resumes it with the
// command the fork names, and the scripted model's request for that turn must hold prompt 1 and the
// new prompt but neither prompt 2 nor 3 (the kept turns only). The parent transcript stays
// byte-identical (its hash), and the fork is recorded in the store (lineage).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIST, sha256 } from '../harness';
import type { Report } from '../report';
import type { CliRun } from './cli';
import type { ClientWorld } from './filesScenario';
import { readRequests } from './model.mjs';
import type { RequestRecord } from './wire/chat.mjs';

interface ShownPrompt {
  uuid: string;
  text: string;
}

export interface ForkResumeCase {
  w: ClientWorld;
  report: Report;
  /** The agent's conversation file (a chat, an export) with exactly three prompts. */
  transcript: string;
  /** The three prompts as the client saved them. */
  prompts: [string, string, string];
  /** The environment our CLI runs in (the client's, when the fork itself runs the client). */
  env: NodeJS.ProcessEnv;
  /** What `resume` should say for a fork session id. */
  resumeCommand(session: string): string;
  /** Runs one prompt in a resumed session with the real client. */
  resume(session: string, prompt: string): Promise<{ run: Pick<CliRun, 'status' | 'stderr'>; session?: string }>;
}

function ar(c: ForkResumeCase, args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), ...args, '--store', c.w.store], {
    cwd: c.w.ws,
    encoding: 'utf8',
    env: c.env,
    timeout: 240000,
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the recipe; returns the fork's session id (undefined when it could not be made). */
export async function checkForkAndResume(c: ForkResumeCase): Promise<string | undefined> {
  const { report, transcript, prompts } = c;
  const show = ar(c, ['conversation', 'show', '--transcript', transcript, '--json']);
  const shown = show.status === 0 ? (JSON.parse(show.stdout) as { prompts: ShownPrompt[] }).prompts : [];
  report.check('`conversation show` lists the three prompts of the real conversation, in order', () =>
    show.status !== 0
      ? [`show exited ${show.status}: ${show.stderr.trim().slice(-300)}`]
      : shown.length !== 3 || shown.some((p, i) => !p.text.includes(prompts[i]!))
        ? [`shown: ${JSON.stringify(shown.map((p) => p.text.slice(0, 40)))}`]
        : [],
  );
  if (shown.length !== 3) return undefined;
  const parentHash = sha256(transcript);
  const fork = ar(c, ['conversation', 'fork', '--transcript', transcript, '--before', shown[1]!.uuid, '--json']);
  const f = fork.status === 0 ? (JSON.parse(fork.stdout) as { session: string; transcript: string; parent: string; resume: string }) : null;
  report.check('`conversation fork --before <prompt 2>`: a new session beside the parent, with the command that resumes it', () => {
    if (!f) return [`fork exited ${fork.status}: ${fork.stderr.trim().slice(-400)}`];
    const p: string[] = [];
    if (f.resume !== c.resumeCommand(f.session)) p.push(`resume: ${f.resume}`);
    if (path.dirname(f.transcript) !== path.dirname(transcript)) p.push(`fork written to ${f.transcript}`);
    if (!fs.existsSync(f.transcript)) p.push('no fork file');
    if (f.session === f.parent) p.push('the fork has the parent session id');
    if (!fs.readFileSync(path.join(c.w.store, 'lineage.jsonl'), 'utf8').includes(f.session)) p.push('no lineage in the store');
    return p;
  });
  report.check('the parent transcript is byte-identical after the fork', () =>
    sha256(transcript) === parentHash ? [] : ['the parent changed'],
  );
  if (!f) return undefined;
  const P4 = 'What did we decide before?';
  c.w.model.setScript([{ text: 'We released 1.1.0.' }], 'fork resumed');
  const before = readRequests(c.w.requestLog).length;
  const r = await c.resume(f.session, P4);
  const q = readRequests<RequestRecord>(c.w.requestLog)
    .slice(before)
    .find((x) => x.kind === 'main');
  report.check(
    `the real client resumes the fork (\`${c.resumeCommand('<id>')}\`): the model gets prompt 1 and the new prompt, not prompts 2 and 3`,
    () => {
      const p: string[] = [];
      if (r.run.status !== 0) p.push(`exited ${r.run.status}: ${r.run.stderr.slice(-300)}`);
      if (r.session !== f.session) p.push(`ran as session ${r.session}, not the fork's ${f.session}`);
      if (!q) return [...p, 'no main request reached the model'];
      const has = (t: string) => (q.userTexts ?? []).some((u) => u.includes(t));
      for (const t of [prompts[0], P4]) if (!has(t)) p.push(`not in the history: ${t.slice(0, 40)}`);
      for (const t of [prompts[1], prompts[2]]) if (has(t)) p.push(`dropped prompt still in the history: ${t.slice(0, 40)}`);
      return p;
    },
  );
  report.check('the parent transcript is byte-identical after the fork was resumed', () =>
    sha256(transcript) === parentHash ? [] : ['the parent changed'],
  );
  return f.session;
}
