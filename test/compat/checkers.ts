// Pure checkers of the compat tier: each takes what a real-CLI scenario produced (hook payloads,
// transcript lines, recorded API requests, our CLI's JSON, file trees) and returns the problems it
// finds — an empty list means the check passed. Kept free of I/O so test/unit/compatCheckers.test.ts
// can prove each one fails on bad input.
import * as path from 'node:path';
import type { RequestRecord } from './kit/wire/anthropic.mjs';

export type Problems = string[];

// ------------------------------------------------------------------------------ hook events

export interface HookPayload {
  hook_event_name?: string;
  tool_use_id?: string;
  tool_name?: string;
  session_id?: string;
  [k: string]: unknown;
}

const TOOL_POST = new Set(['PostToolUse', 'PostToolUseFailure']);

/**
 * The order our recorder relies on, for the payloads of ONE `claude -p` run: SessionStart first,
 * then UserPromptSubmit before any tool event; every PreToolUse answered by exactly one
 * PostToolUse / PostToolUseFailure with its tool_use_id (parallel calls may interleave); no Post
 * without its Pre; Stop after every tool event; SessionEnd last. Events we do not know are ignored.
 */
export function checkEventOrder(events: readonly HookPayload[]): Problems {
  const problems: Problems = [];
  const names = events.map((e) => e.hook_event_name ?? '?');
  const known = names.filter((n) =>
    ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd'].includes(n),
  );
  if (known[0] !== 'SessionStart') problems.push(`the first event is ${known[0] ?? 'missing'}, not SessionStart`);
  if (known.filter((n) => n === 'SessionStart').length !== 1)
    problems.push(`${known.filter((n) => n === 'SessionStart').length} SessionStart events in one run`);
  const prompt = names.indexOf('UserPromptSubmit');
  if (prompt < 0) problems.push('no UserPromptSubmit');
  const open = new Map<string, number>();
  const done = new Set<string>();
  const stop = names.lastIndexOf('Stop');
  events.forEach((e, i) => {
    const n = e.hook_event_name;
    if (n === 'PreToolUse' || (n && TOOL_POST.has(n))) {
      if (prompt < 0 || i < prompt) problems.push(`${n} (${e.tool_name}) before UserPromptSubmit`);
      if (stop >= 0 && i > stop) problems.push(`${n} (${e.tool_name}) after Stop`);
      const id = e.tool_use_id;
      if (!id) {
        problems.push(`${n} (${e.tool_name}) without tool_use_id`);
        return;
      }
      if (n === 'PreToolUse') {
        if (open.has(id) || done.has(id)) problems.push(`PreToolUse ${id} seen twice`);
        open.set(id, i);
      } else if (!open.has(id)) problems.push(`${n} ${id} (${e.tool_name}) without a PreToolUse before it`);
      else {
        open.delete(id);
        done.add(id);
      }
    }
  });
  for (const id of open.keys()) problems.push(`PreToolUse ${id} never answered by PostToolUse or PostToolUseFailure`);
  if (stop < 0) problems.push('no Stop');
  if (known[known.length - 1] !== 'SessionEnd') problems.push(`the last event is ${known[known.length - 1] ?? 'missing'}, not SessionEnd`);
  return problems;
}

/** Fields of the payloads outside `known`, with how often each was seen (reported, never failed). */
export function payloadFieldDrift(
  payloads: readonly Record<string, unknown>[],
  known: ReadonlySet<string>,
): { counts: Record<string, number>; unknown: string[]; perEvent: Record<string, string[]> } {
  const counts: Record<string, number> = {};
  const perEvent: Record<string, Set<string>> = {};
  for (const p of payloads) {
    const ev = String(p.hook_event_name ?? '?');
    for (const k of Object.keys(p)) {
      counts[k] = (counts[k] ?? 0) + 1;
      (perEvent[ev] ??= new Set()).add(k);
    }
  }
  const unknown = Object.keys(counts)
    .filter((k) => !known.has(k))
    .sort();
  return { counts, unknown, perEvent: Object.fromEntries(Object.entries(perEvent).map(([k, v]) => [k, [...v].sort()])) };
}

// ------------------------------------------------------------------------------ transcripts

export interface LineTypeReport {
  /** type → number of lines; chain types are the ones seen with a `uuid`. */
  chain: Record<string, number>;
  metadata: Record<string, number>;
  /** Chain types outside the known list: the compat tier fails on these. */
  unknownChain: string[];
  /** Metadata types outside the known list: reported only. */
  unknownMetadata: string[];
  /** Lines that are not JSON objects. */
  garbage: number;
}

export function lineTypeDrift(
  lines: readonly string[],
  chainKnown: ReadonlySet<string>,
  metadataKnown: ReadonlySet<string>,
): LineTypeReport {
  const r: LineTypeReport = { chain: {}, metadata: {}, unknownChain: [], unknownMetadata: [], garbage: 0 };
  for (const line of lines) {
    if (!line.trim()) continue;
    let j: unknown;
    try {
      j = JSON.parse(line);
    } catch {
      r.garbage++;
      continue;
    }
    if (typeof j !== 'object' || j === null || Array.isArray(j)) {
      r.garbage++;
      continue;
    }
    const o = j as Record<string, unknown>;
    const type = typeof o.type === 'string' ? o.type : '(no type)';
    const bucket = typeof o.uuid === 'string' ? r.chain : r.metadata;
    bucket[type] = (bucket[type] ?? 0) + 1;
  }
  r.unknownChain = Object.keys(r.chain)
    .filter((t) => !chainKnown.has(t))
    .sort();
  r.unknownMetadata = Object.keys(r.metadata)
    .filter((t) => !metadataKnown.has(t))
    .sort();
  return r;
}

// ------------------------------------------------------------------------------ model requests

/**
 * A request the resumed (forked) conversation sent: accepted by the API (no unanswered tool_use,
 * no orphan tool_result), holding the expected user texts in order and none of the discarded ones,
 * and exactly the expected tool calls.
 */
export function checkResumedRequest(
  req: Pick<RequestRecord, 'status' | 'problems' | 'userTexts' | 'toolUses' | 'toolResults'> | undefined,
  expect: { userTexts: readonly string[]; forbidden?: readonly string[]; toolNames?: readonly string[] },
): Problems {
  if (!req) return ['no request reached the model'];
  const problems: Problems = [];
  if (req.status !== 200) problems.push(`the API answered ${req.status}: ${req.problems.join(' ')}`);
  else if (req.problems.length) problems.push(...req.problems);
  const results = new Set(req.toolResults.map((r) => r.id));
  for (const u of req.toolUses) if (!results.has(u.id)) problems.push(`tool_use ${u.id} (${u.name}) has no tool_result`);
  const uses = new Set(req.toolUses.map((u) => u.id));
  for (const r of req.toolResults) if (!uses.has(r.id)) problems.push(`tool_result ${r.id} answers no tool_use`);
  let from = 0;
  for (const t of expect.userTexts) {
    const i = req.userTexts.findIndex((u, k) => k >= from && u.includes(t));
    if (i < 0) problems.push(`user text ${JSON.stringify(t.slice(0, 60))} missing (or out of order)`);
    else from = i + 1;
  }
  for (const t of expect.forbidden ?? [])
    if (req.userTexts.some((u) => u.includes(t))) problems.push(`discarded user text ${JSON.stringify(t.slice(0, 60))} was sent`);
  if (expect.toolNames) {
    const names = req.toolUses.map((u) => u.name);
    if (names.join(',') !== expect.toolNames.join(','))
      problems.push(`tool calls ${names.join(',') || '(none)'}, expected ${expect.toolNames.join(',') || '(none)'}`);
  }
  return problems;
}

/** Every main-loop request of a run was accepted. */
export function checkAllAccepted(reqs: readonly Pick<RequestRecord, 'status' | 'problems' | 'n' | 'label'>[]): Problems {
  return reqs
    .filter((r) => r.status !== 200 || r.problems.length)
    .map((r) => `request ${r.n} (${r.label}) rejected: ${r.problems.join(' ')}`);
}

// ------------------------------------------------------------------------------ our CLI output

export interface CheckpointJson {
  id: string;
  kind: string;
  label: string;
  session: string | null;
  time: string;
  files?: number;
}

/** One `prompt` checkpoint per real prompt, labelled with its exact text, in order. */
export function checkPromptCheckpoints(cps: readonly CheckpointJson[], prompts: readonly string[], session?: string): Problems {
  const got = cps.filter((c) => c.kind === 'prompt');
  const problems: Problems = [];
  if (got.length !== prompts.length) problems.push(`${got.length} prompt checkpoint(s), expected ${prompts.length}`);
  prompts.forEach((p, i) => {
    const c = got[i];
    if (!c) return;
    if (c.label !== p)
      problems.push(
        `prompt checkpoint ${i + 1} labelled ${JSON.stringify(c.label.slice(0, 80))}, expected ${JSON.stringify(p.slice(0, 80))}`,
      );
    if (session && c.session !== session) problems.push(`prompt checkpoint ${i + 1} has session ${c.session}, expected ${session}`);
  });
  return problems;
}

export interface PlanJson {
  files: { path: string; action: string }[];
  blocked: unknown[];
}

/**
 * A plan (`agent-rewind plan --json`) against the action expected per file (paths relative to `root`): a file
 * planned otherwise or not at all, anything blocked, and (`extraAllowed` false) a file planned that is not expected.
 */
export function planProblems(plan: PlanJson, root: string, want: Record<string, string>, extraAllowed = false): Problems {
  const got = new Map(plan.files.map((f) => [path.relative(root, f.path), f.action]));
  const p = Object.entries(want)
    .filter(([f, a]) => got.get(f) !== a)
    .map(([f, a]) => `${f}: planned ${got.get(f) ?? 'nothing'}, expected ${a}`);
  const extra = extraAllowed ? [] : [...got.keys()].filter((f) => !(f in want));
  if (extra.length) p.push(`also planned: ${extra.join(', ')}`);
  if (plan.blocked.length) p.push(`blocked: ${JSON.stringify(plan.blocked)}`);
  return p;
}

export interface NotUndoneJson {
  tool: string;
  summary: string;
  effect: string;
  severity?: string;
  compensation?: string;
}

export interface NotUndoneExpectation {
  /** Every one of these substrings must be in the entry's summary. */
  summary: readonly string[];
  effect: 'irreversible' | 'compensatable';
  compensation?: string | RegExp;
}

/** Each expected entry matches a distinct listed entry; `absent` summaries must not be listed. */
export function checkNotUndone(
  list: readonly NotUndoneJson[],
  expected: readonly NotUndoneExpectation[],
  absent: readonly string[] = [],
): Problems {
  const problems: Problems = [];
  const used = new Set<number>();
  for (const x of expected) {
    const i = list.findIndex((n, k) => !used.has(k) && x.summary.every((s) => n.summary.includes(s)));
    if (i < 0) {
      problems.push(`nothing listed for ${JSON.stringify(x.summary)} (listed: ${list.map((n) => n.summary).join(' ; ') || 'none'})`);
      continue;
    }
    used.add(i);
    const n = list[i]!;
    if (n.effect !== x.effect) problems.push(`${n.summary}: effect ${n.effect}, expected ${x.effect}`);
    if (x.compensation !== undefined) {
      const ok = typeof x.compensation === 'string' ? n.compensation === x.compensation : x.compensation.test(n.compensation ?? '');
      if (!ok) problems.push(`${n.summary}: compensation ${JSON.stringify(n.compensation)}, expected ${String(x.compensation)}`);
    }
  }
  for (const a of absent)
    if (list.some((n) => n.summary.includes(a))) problems.push(`${JSON.stringify(a)} is listed but happened before the target`);
  return problems;
}

// ------------------------------------------------------------------------------ file trees

/** Relative path → content (base64), as test/helpers/tmp.ts `snapshotTree` gives it. */
export type Tree = Record<string, string>;

/** Paths among `paths` whose content (or existence) differs between the two trees. */
export function treeDiff(expected: Tree, actual: Tree, paths: Iterable<string>): Problems {
  const problems: Problems = [];
  for (const p of paths) {
    const e = expected[p];
    const a = actual[p];
    if (e === a) continue;
    if (e === undefined) problems.push(`${p}: should not exist, but does`);
    else if (a === undefined) problems.push(`${p}: missing`);
    else problems.push(`${p}: content differs (${Buffer.from(a, 'base64').length} bytes, expected ${Buffer.from(e, 'base64').length})`);
  }
  return problems;
}
