// Checks a forked transcript the way a resume will read it, before it is given its final name:
// a tool_use without its tool_result makes the API answer 400, a broken parent link loses turns, a
// stray sidechain or progress line or a wrong sessionId confuses the resumed session.
import { isRealPrompt, TranscriptGraph } from './transcriptChain';
import type { TranscriptEntry } from './transcriptLine';

export interface ForkExpectation {
  session: string;
  leaf: string;
  /** Uuids of the prompts the fork must show, in order. */
  prompts: readonly string[];
}

/** Problems with a fork's parsed lines (empty when it is sound). */
export function checkFork(entries: readonly TranscriptEntry[], badLines: number, expect: ForkExpectation): string[] {
  const problems: string[] = [];
  if (badLines > 0) problems.push(`${badLines} line(s) are not valid JSON`);
  const graph = new TranscriptGraph(entries);
  const results = new Set<string>();
  for (const e of entries) for (const r of e.user?.results ?? []) results.add(r.toolUseId);
  for (const e of entries) {
    if (e.sidechain) problems.push(`line ${e.line + 1} is a sidechain line`);
    if (e.type === 'progress') problems.push(`line ${e.line + 1} is a progress line`);
    if (e.hasSessionId && e.sessionId !== expect.session)
      problems.push(`line ${e.line + 1} has sessionId ${e.sessionId ?? '(not a string)'}`);
    if (e.uuid && e.parentUuid && !graph.byUuid.has(e.parentUuid))
      problems.push(`line ${e.line + 1} names a parent that is not in the fork (${e.parentUuid})`);
    for (const u of e.assistant?.toolUses ?? []) if (!results.has(u.id)) problems.push(`tool_use ${u.id} (${u.name}) has no tool_result`);
  }
  const { chain, lines } = graph.current();
  // The resumed conversation must pass through the cut's parent (a result of its last tool call may follow it).
  if (!chain.some((e) => e.uuid === expect.leaf)) problems.push(`the fork's conversation does not reach ${expect.leaf}`);
  const got = lines.filter(isRealPrompt).map((e) => e.uuid!);
  if (got.join(',') !== expect.prompts.join(','))
    problems.push(`the fork's prompts are [${got.join(', ')}], expected [${expect.prompts.join(', ')}]`);
  return problems;
}

/** Just the dangling tool calls of a transcript's current conversation (for tests and diagnostics). */
export function danglingToolUses(entries: readonly TranscriptEntry[]): string[] {
  const { lines } = new TranscriptGraph(entries).current();
  const answered = new Set<string>();
  for (const e of lines) for (const r of e.user?.results ?? []) answered.add(r.toolUseId);
  const out: string[] = [];
  for (const e of lines) for (const u of e.assistant?.toolUses ?? []) if (!answered.has(u.id)) out.push(u.id);
  return out;
}
