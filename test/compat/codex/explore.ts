// Runs the REAL Codex CLI (pinned, installed on first use into .vscode-test/) offline against the
// scripted Responses API, with the recorder on every hook event, and prints what it does:
//   node --import tsx test/compat/codex/explore.ts [--fixtures] [--keep]
// 1. two prompts in a git workspace with a local bare remote: apply_patch Add/Update/Delete/Move
//    (relative and absolute paths), shell edits, parallel calls, commit, push; then a resume with one
//    more edit, a failing command and a failing patch. Hook stdout on SessionStart/UserPromptSubmit is
//    checked in the next model request.
// 2. forks of that session cut before prompt 2: our copy with a new id, Codex's own reference form,
//    and the app-server's thread/fork at turn 1 — each resumed, the request checked, the parent hashed.
// 3. probes: hook timeouts (unit, clamping), project `.codex/hooks.json`, untrusted hooks.
// --fixtures writes test/fixtures/agents/codex/real-<version>/ (machine paths replaced by
// placeholders); --keep (or KEEP_TMP=1) keeps the temp worlds. Exit 1 if a check fails.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureCodex, execArgs, repoRoot } from './codexCli';
import { shellQuote } from './codexHome';
import { type ScriptedModel, startScriptedModel } from '../kit/model.mjs';
import type { RequestRecord, Step } from '../kit/wire/responses.mjs';

type MockModel = ScriptedModel<Step>;
import { cutBeforeTurn, forkByCopy, forkByReference, kindOf, prompts, readLines, sessionIdOf } from './rollout';
import { CodexWorld, type HookRecord, type RunResult } from './session';

const args = new Set(process.argv.slice(2));
if (args.has('--keep')) process.env.KEEP_TMP = '1';
const failures: string[] = [];
const findings: string[] = [];
const say = (s: string) => console.log(s);
function check(name: string, problems: string[]): void {
  say(`   ${problems.length ? 'FAIL' : 'ok  '} ${name}${problems.length ? `\n        ${problems.join('\n        ')}` : ''}`);
  if (problems.length) failures.push(name);
}
const found = (s: string) => {
  findings.push(s);
  say(`   · ${s}`);
};

// ------------------------------------------------------------------------------ the scenario

const START = {
  'README.md': '# Demo\n\nPrints a greeting.\n',
  'src/app.js': "console.log('hello');\n",
  'src/old.js': '// unused\n',
  'notes/todo.txt': '- write tests\n',
  'config.ini': 'port=80\n',
};
const P1 = 'Add a greeting helper, use it, drop the old module, move the todo list to docs, bump the port, commit and push';
const P2 = 'Also mention the greeting in the README';
const P3 = 'Instead, tell me what to do next';

function patch(...ops: string[]): string {
  return ['*** Begin Patch', ...ops, '*** End Patch'].join('\n');
}

function script1(ws: string) {
  return [
    {
      text: 'I will add the helper and use it.',
      patch: patch(
        '*** Add File: src/greet.js',
        '+exports.greet = (name) => `Hello, ${name}!`;',
        '*** Update File: src/app.js',
        '@@',
        "-console.log('hello');",
        "+const { greet } = require('./greet');",
        "+console.log(greet('world'));",
        '*** Delete File: src/old.js',
      ),
    },
    // A move, with the source given as an absolute path.
    {
      patch: patch(
        `*** Update File: ${path.join(ws, 'notes/todo.txt')}`,
        '*** Move to: docs/todo.md',
        '@@',
        '-- write tests',
        '+- [ ] write tests',
      ),
    },
    { calls: [{ exec: 'ls' }, { exec: 'cat README.md' }] },
    { exec: "sed -i 's/port=80/port=8080/' config.ini && printf 'built\\n' > build.log" },
    { exec: 'git add -A && git -c user.name=Codex -c user.email=codex@example.com commit -q -m "Add greeting"' },
    { exec: 'git push -q origin main' },
    {
      text: 'Added src/greet.js, used it in src/app.js, removed src/old.js, moved the todo list to docs/todo.md, set the port to 8080, committed and pushed.',
    },
  ];
}

const script2 = [
  { patch: patch('*** Update File: README.md', '@@', ' # Demo', '+', '+Uses `greet()` from src/greet.js.') },
  { exec: 'cat does-not-exist.txt' },
  { patch: patch('*** Update File: README.md', '@@', '-this line is not there', '+x') },
  { text: 'Mentioned the greeting in the README.' },
];

const SS_JSON = (text: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
const UPS_JSON = (text: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: text } });

function reply(w: CodexWorld, event: string, text: string | null): void {
  const f = `${w.hookLog}.reply.${event}`;
  if (text === null) fs.rmSync(f, { force: true });
  else fs.writeFileSync(f, text + '\n');
}

function runOk(r: RunResult, model: MockModel): string[] {
  const p: string[] = [];
  if (r.run.status !== 0) p.push(`codex exited ${r.run.status}: ${r.run.stderr.slice(-800)}`);
  if (model.remaining()) p.push(`${model.remaining()} scripted step(s) never requested`);
  for (const q of r.requests) if (q.status !== 200) p.push(`request ${q.n} answered ${q.status}: ${q.problems.join(' ')}`);
  if (!r.sessionId) p.push('no session id');
  if (!r.rolloutPath) p.push('no rollout file for the session');
  return p;
}

const allText = (q: RequestRecord) => JSON.stringify(q.body?.input ?? []);
const eventsOf = (ps: HookRecord[]) =>
  ps.map((p) => String(p.payload.hook_event_name ?? p.event) + (p.payload.tool_name ? `(${p.payload.tool_name})` : ''));

interface Scenario {
  w: CodexWorld;
  r1: RunResult;
  r2: RunResult;
  parent: string;
  /** The rollout right after prompt 2, byte for byte. */
  parentText: string;
}

async function scenario(bin: string, model: MockModel): Promise<Scenario> {
  say('\n── 1. two prompts: patches, shell edits, parallel calls, commit, push; then a resume');
  const w = new CodexWorld('explore', bin, model, 'persisted');
  w.initRepo(START);
  await w.setup();
  found(`hook trust persisted through the app-server for ${w.trusted.length} hooks (config.toml [hooks.state."<key>"] trusted_hash)`);

  reply(w, 'SessionStart', SS_JSON('SS-JSON-CONTEXT: re-ground from SessionStart'));
  reply(w, 'UserPromptSubmit', 'UPS-PLAIN-CONTEXT: plain stdout of UserPromptSubmit');
  const r1 = await w.run('prompt 1', P1, script1(w.ws));
  check('prompt 1: codex exec ran the whole script, every request accepted', runOk(r1, model));
  say(`   events: ${eventsOf(r1.payloads).join(' ')}`);

  reply(w, 'SessionStart', 'SS-PLAIN-CONTEXT: plain stdout of SessionStart');
  reply(w, 'UserPromptSubmit', UPS_JSON('UPS-JSON-CONTEXT: additionalContext of UserPromptSubmit'));
  const r2 = await w.run('prompt 2 (resume)', P2, script2, { resume: r1.sessionId });
  reply(w, 'SessionStart', null);
  reply(w, 'UserPromptSubmit', null);
  check('prompt 2: `codex exec resume <id>` ran the whole script, every request accepted', runOk(r2, model));
  say(`   events: ${eventsOf(r2.payloads).join(' ')}`);
  check('resume keeps the session id and the rollout file', [
    ...(r2.sessionId !== r1.sessionId ? [`resume reported session ${r2.sessionId}, not ${r1.sessionId}`] : []),
    ...(r2.rolloutPath !== r1.rolloutPath ? [`resume wrote ${r2.rolloutPath}, not ${r1.rolloutPath}`] : []),
    ...(w.rollouts().length !== 1 ? [`${w.rollouts().length} rollout files`] : []),
  ]);

  // What reached disk and the remote.
  const disk = (rel: string) => (fs.existsSync(path.join(w.ws, rel)) ? fs.readFileSync(path.join(w.ws, rel), 'utf8') : null);
  check("the agent's effects happened (so the rest tests something)", [
    ...(disk('src/greet.js') === null ? ['src/greet.js not added'] : []),
    ...(disk('src/old.js') !== null ? ['src/old.js not deleted'] : []),
    ...(disk('notes/todo.txt') !== null || disk('docs/todo.md') !== '- [ ] write tests\n'
      ? ['notes/todo.txt not moved to docs/todo.md']
      : []),
    ...(disk('config.ini') !== 'port=8080\n' ? ['config.ini not edited by sed'] : []),
    ...(!disk('README.md')?.includes('greet()') ? ['README.md not edited in prompt 2'] : []),
    ...(w.git(['rev-parse', 'main'], w.remote) !== w.git(['rev-parse', 'HEAD']) ? ['the push did not reach the bare remote'] : []),
  ]);

  // Hook output → model.
  const firstReq = (r: RunResult) => r.requests.find((q) => q.kind === 'main');
  const q1 = firstReq(r1);
  const q2 = firstReq(r2);
  check('SessionStart JSON additionalContext and UserPromptSubmit plain stdout reach the model (prompt 1)', [
    ...(!q1?.developerTexts.some((t) => t.includes('SS-JSON-CONTEXT'))
      ? ['SessionStart additionalContext not in the first request as a developer message']
      : []),
    ...(!q1?.developerTexts.some((t) => t.includes('UPS-PLAIN-CONTEXT'))
      ? ['UserPromptSubmit stdout not in the first request as a developer message']
      : []),
  ]);
  check('SessionStart plain stdout and UserPromptSubmit JSON additionalContext reach the model (prompt 2, resume)', [
    ...(!q2?.developerTexts.some((t) => t.includes('SS-PLAIN-CONTEXT')) ? ['SessionStart stdout missing'] : []),
    ...(!q2?.developerTexts.some((t) => t.includes('UPS-JSON-CONTEXT')) ? ['UserPromptSubmit additionalContext missing'] : []),
  ]);
  if (q2) {
    const order = q2.summary.split(' | ').slice(-4).join(' | ');
    found(
      `hook context is a developer message: SessionStart's before the prompt, UserPromptSubmit's after it (end of prompt 2's first request: ${order})`,
    );
  }

  describePayloads([...r1.payloads, ...r2.payloads]);
  const parent = r1.rolloutPath!;
  describeRollout(parent);
  return { w, r1, r2, parent, parentText: fs.readFileSync(parent, 'utf8') };
}

function describePayloads(ps: HookRecord[]): void {
  const byEvent = new Map<string, Set<string>>();
  for (const p of ps) {
    const e = String(p.payload.hook_event_name ?? p.event);
    const s = byEvent.get(e) ?? new Set<string>();
    for (const k of Object.keys(p.payload)) s.add(k);
    byEvent.set(e, s);
  }
  for (const [e, keys] of byEvent) found(`payload ${e}: ${[...keys].join(', ')}`);
  const tools = [
    ...new Set(
      ps.filter((p) => p.payload.tool_name).map((p) => `${p.payload.tool_name} {${Object.keys(p.payload.tool_input ?? {}).join(', ')}}`),
    ),
  ];
  found(`tool_name / tool_input keys: ${tools.join('; ')}`);
  const pre = ps.filter((p) => p.payload.hook_event_name === 'PreToolUse');
  const post = ps.filter((p) => p.payload.hook_event_name === 'PostToolUse');
  const unpaired = pre.filter((p) => !post.some((q) => q.payload.tool_use_id === p.payload.tool_use_id));
  const expectedUnpaired = unpaired.filter(
    (p) => p.payload.tool_name === 'apply_patch' && String(p.payload.tool_input?.command).includes('this line is not there'),
  );
  check('every PreToolUse has one PostToolUse with the same tool_use_id, except the failing patch', [
    ...unpaired
      .filter((p) => !expectedUnpaired.includes(p))
      .map((p) => `${p.payload.tool_name} ${p.payload.tool_use_id} has no PostToolUse`),
    ...(expectedUnpaired.length !== 1
      ? [`the failing apply_patch has ${expectedUnpaired.length ? 'no' : 'a'} PostToolUse: the note below is out of date`]
      : []),
  ]);
  if (expectedUnpaired.length)
    found('a FAILED apply_patch (context not found) gets a PreToolUse and NO PostToolUse; there is no PostToolUseFailure event');
  const failedShell = post.find((p) => String(p.payload.tool_input?.command).startsWith('cat does-not-exist'));
  if (failedShell)
    found(
      `a failed shell command (exit 1) still gets PostToolUse; tool_response is only its output, no exit code: ${JSON.stringify(failedShell.payload.tool_response)}`,
    );
  const cwds = new Set(ps.map((p) => p.cwd));
  found(
    `hook cwd: ${[...cwds].join(', ')}; env keys: ${Object.keys(ps[0]?.env ?? {})
      .sort()
      .join(', ')}`,
  );
  const tx = ps.map((p) => `${p.payload.hook_event_name}:${p.transcript?.exists ? p.transcript.bytes : 'missing'}`);
  found(`transcript_path on disk when the hook ran (bytes): ${tx.join(' ')}`);
  const sources = ps.filter((p) => p.payload.hook_event_name === 'SessionStart').map((p) => p.payload.source);
  found(`SessionStart source per run: ${sources.join(', ')}`);
}

function describeRollout(file: string): void {
  const lines = readLines(file);
  const kinds = new Map<string, number>();
  for (const l of lines) if (l.obj) kinds.set(kindOf(l.obj), (kinds.get(kindOf(l.obj)) ?? 0) + 1);
  found(`rollout ${path.basename(file)}: ${lines.length} lines; ${[...kinds].map(([k, n]) => `${k}×${n}`).join(', ')}`);
  const ps = prompts(lines);
  found(
    `prompts (event_msg item_completed UserMessage): ${ps.map((p) => `#${p.index} turn ${p.turnId.slice(0, 13)}… "${p.text.slice(0, 40)}"`).join('; ')}`,
  );
  const bad = lines.filter((l) => !l.obj).length;
  check('every rollout line parses', bad ? [`${bad} unparsable line(s)`] : []);
}

// ------------------------------------------------------------------------------ forks

async function forks(s: Scenario, model: MockModel): Promise<void> {
  say('\n── 2. forks cut before prompt 2, resumed with `codex exec resume <new id>`');
  const { w, parent } = s;
  const lines = readLines(parent);
  const ps = prompts(lines);
  const p2 = ps[1];
  if (!p2) return check('the rollout has two prompts', ['fewer than two prompts found']);
  const cut = cutBeforeTurn(lines, p2.turnId);
  if (cut === null) return check('a clean cut point before prompt 2', ['no task_complete before prompt 2']);
  found(
    `cut before prompt 2 at line ${cut} (after turn 1's task_complete; drops ${lines.length - cut} lines starting with ${kindOf(lines[cut]!.obj!)})`,
  );
  const turn1 = ps[0]!.turnId;

  const verify = async (label: string, id: string, file?: string): Promise<RunResult> => {
    const r = await w.run(`fork: ${label}`, P3, [{ text: 'Next: add a test for greet().' }], { resume: id });
    const q = r.requests.find((x) => x.kind === 'main');
    const text = q ? allText(q) : '';
    check(`${label}: resumes, the model sees turn 1 and the new prompt, not prompt 2`, [
      ...runOk(r, model),
      ...(r.sessionId && r.sessionId !== id ? [`resume reported session ${r.sessionId}, not ${id}`] : []),
      ...(!q ? ['no model request'] : []),
      ...(q && !q.userTexts.some((t) => t === P1) ? ['prompt 1 missing'] : []),
      ...(q && !q.userTexts.some((t) => t === P3) ? ['the new prompt missing'] : []),
      ...(q && q.userTexts.some((t) => t === P2) ? ['prompt 2 is still there'] : []),
      ...(q && !q.calls.some((c) => c.name === 'apply_patch') ? ["turn 1's apply_patch calls missing"] : []),
      ...(text.includes('UPS-JSON-CONTEXT') || text.includes('SS-PLAIN-CONTEXT') ? ["prompt 2's hook context is still there"] : []),
    ]);
    check(`${label}: the parent rollout is byte-identical`, fs.readFileSync(parent, 'utf8') === s.parentText ? [] : ['the parent changed']);
    if (file) {
      const after = readLines(file);
      found(
        `${label}: after the resume the fork file has ${after.length} lines; SessionStart source: ${r.payloads.find((p) => p.payload.hook_event_name === 'SessionStart')?.payload.source}`,
      );
    }
    return r;
  };

  // A. Our copy: lines [0, cut) with a new session id.
  const copy = forkByCopy(parent, cut, w.codexHome);
  found(
    `copy fork ${path.relative(w.codexHome, copy.file)}: kept ${copy.keptLines}, dropped ${copy.droppedLines}, lines still naming the parent id: ${copy.parentIdLeft}`,
  );
  const dbBefore = threadInDb(w, copy.id);
  const listed = await listedThreads(w);
  found(
    `A. copy: listed by app-server thread/list before any resume: ${listed.includes(copy.id)} (the parent: ${listed.includes(copy.parent)})`,
  );
  await verify('A. copy with a new id', copy.id, copy.file);
  found(`A. copy: in the state db before the resume: ${dbBefore}; after: ${threadInDb(w, copy.id)}`);

  // B. Codex's own fork form: one session_meta line whose history_base names the parent and the cut.
  const bare = forkByReference(parent, cut, w.codexHome, { historyBase: false });
  const rb = await w.run('fork: B0', P3, [{ text: 'Next: add a test for greet().' }], { resume: bare.id });
  const qb = rb.requests.find((x) => x.kind === 'main');
  found(
    `B0. a session_meta with only forked_from_id + forked_from_ordinal_exclusive (no history_base) resumes with ${qb?.userTexts.includes(P1) ? "the parent's history" : 'NO history at all (a fresh conversation)'}`,
  );
  check('B0: the parent rollout is byte-identical', fs.readFileSync(parent, 'utf8') === s.parentText ? [] : ['the parent changed']);
  const ref = forkByReference(parent, cut, w.codexHome);
  await verify('B. reference fork (session_meta history_base {thread_id, end_ordinal_exclusive, end_byte_offset})', ref.id, ref.file);

  // C. The app-server: thread/fork through turn 1 (inclusive).
  const srv = await w.appServer();
  let forkId = '';
  try {
    const r = await srv.request<any>('thread/fork', { threadId: sessionIdOf(lines), lastTurnId: turn1, excludeTurns: true });
    forkId = r?.thread?.id ?? '';
    found(
      `C. app-server thread/fork {threadId, lastTurnId: <turn 1>} → thread ${forkId}, rollout ${r?.thread?.path ? path.relative(w.codexHome, r.thread.path) : '?'}`,
    );
  } catch (e) {
    check('C. app-server thread/fork', [(e as Error).message]);
  } finally {
    await srv.close();
  }
  if (forkId) {
    const file = w.rollouts().find((f) => f.endsWith(`-${forkId}.jsonl`));
    if (file) {
      const first = readLines(file)[0]?.obj?.payload;
      const ours = readLines(ref.file)[0]?.obj?.payload?.history_base;
      found(
        `C. its session_meta: forked_from_id is the parent: ${first?.forked_from_id === sessionIdOf(lines)}, history_base ${JSON.stringify(first?.history_base)}, same as ours (B): ${JSON.stringify(first?.history_base) === JSON.stringify(ours)}; ${readLines(file).length} line(s) before the resume`,
      );
    }
    await verify('C. app-server thread/fork at turn 1', forkId, file);
  }

  // A reference fork reads its history from the parent file: what if that file is gone (deleted, archived)?
  const away = `${parent}.moved-away`;
  fs.renameSync(parent, away);
  try {
    const r = await w.run('fork: B without its parent', P3, [{ text: 'ok' }], { resume: ref.id });
    const q = r.requests.find((x) => x.kind === 'main');
    found(
      `B with the parent rollout moved away: exit ${r.run.status}, ${q ? `the model saw ${q.userTexts.includes(P1) ? 'turn 1 (from the db projection?)' : 'NO turn 1'}` : 'no model request'}${
        r.run.status
          ? `; stderr: ${JSON.stringify(
              r.run.stderr
                .trim()
                .split('\n')
                .filter((l) => /error/i.test(l))
                .slice(-2)
                .join(' | '),
            )}`
          : ''
      }`,
    );
    model.setScript([]);
    const ra = await w.run('fork: A without its parent', P3, [{ text: 'ok' }], { resume: copy.id });
    const qa = ra.requests.find((x) => x.kind === 'main');
    check('A. the copy resumes with the parent rollout moved away (self-contained), turn 1 still there', [
      ...runOk(ra, model),
      ...(qa && !qa.userTexts.includes(P1) ? ['prompt 1 missing'] : []),
    ]);
  } finally {
    fs.renameSync(away, parent);
  }
}

async function listedThreads(w: CodexWorld): Promise<string[]> {
  const srv = await w.appServer();
  try {
    const r = await srv.request<any>('thread/list', {
      limit: 50,
      sourceKinds: ['exec', 'cli', 'vscode', 'appServer'],
      modelProviders: [],
      useStateDbOnly: false,
    });
    return (r?.data ?? []).map((t: any) => t.id);
  } catch (e) {
    return [`error: ${(e as Error).message}`];
  } finally {
    await srv.close();
  }
}

function threadInDb(w: CodexWorld, id: string): string {
  const db = fs.readdirSync(w.codexHome).find((f) => /^state_\d+\.sqlite$/.test(f));
  if (!db) return 'no state db';
  const r = spawnSync('sqlite3', [path.join(w.codexHome, db), `select history_mode from threads where id = '${id}'`], { encoding: 'utf8' });
  if (r.error) return 'sqlite3 not installed';
  return r.stdout.trim() ? `yes (history_mode ${r.stdout.trim()})` : 'no';
}

// ------------------------------------------------------------------------------ probes

async function probes(bin: string, model: MockModel): Promise<void> {
  say('\n── 3. probes: timeouts, project hooks, untrusted hooks');
  const w = new CodexWorld('probe', bin, model, 'persisted');
  try {
    w.initRepo({ 'a.txt': 'a\n', 'sub/keep.txt': 'k\n' });
    const rec = (event: string) =>
      [process.execPath, path.join(__dirname, '..', 'kit', 'recordHook.mjs'), w.hookLog, event].map(shellQuote).join(' ');
    const hooks = {
      hooks: {
        // A 5 s hook with `timeout: 1` (seconds), another spelled `timeout_sec`, and the default.
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: `sleep 5; ${rec('UserPromptSubmit')}`, timeout: 1 }] }],
        Stop: [{ hooks: [{ type: 'command', command: rec('Stop'), timeout_sec: 7 }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: rec('SessionStart') }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: rec('SessionEnd'), timeout: 60 }] }],
        // Matchers: Claude-style names and an anchored regex.
        PreToolUse: [
          { matcher: 'Write', hooks: [{ type: 'command', command: rec('PreToolUse-matcher-Write') }] },
          { matcher: 'Edit', hooks: [{ type: 'command', command: rec('PreToolUse-matcher-Edit') }] },
          { matcher: 'apply_patch', hooks: [{ type: 'command', command: rec('PreToolUse-matcher-apply_patch') }] },
          { matcher: '^Bash$', hooks: [{ type: 'command', command: rec('PreToolUse-matcher-^Bash$') }] },
          { matcher: 'exec_command', hooks: [{ type: 'command', command: rec('PreToolUse-matcher-exec_command') }] },
          { matcher: 'shell', hooks: [{ type: 'command', command: rec('PreToolUse-matcher-shell') }] },
        ],
        PostToolUse: [{ hooks: [{ type: 'command', command: rec('PostToolUse') }] }],
      },
    };
    fs.mkdirSync(path.join(w.ws, '.codex'), { recursive: true });
    // Project hooks: one hook in <repo>/.codex/hooks.json.
    fs.writeFileSync(
      path.join(w.ws, '.codex', 'hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: rec('PreToolUse-project') }] }] } }, null, 2),
    );
    await w.setup({ hooksJson: JSON.stringify(hooks, null, 2) });
    const srv = await w.appServer();
    try {
      const list = await srv.hooksList(w.ws);
      found(`hooks/list: ${list.hooks.map((h) => `${h.eventName} timeoutSec=${h.timeoutSec} ${h.source} ${h.trustStatus}`).join('; ')}`);
      if (list.warnings.length) found(`hooks/list warnings: ${list.warnings.join(' | ')}`);
    } finally {
      await srv.close();
    }
    const r = await w.run('probe', 'Run ls', [
      { exec: 'ls' },
      { patch: patch('*** Add File: b.txt', '+b') },
      // exec_command's own `workdir` argument, and a command that outlives its yield time, polled with write_stdin.
      { call: { name: 'exec_command', arguments: { cmd: 'pwd > where.txt', workdir: 'sub' } } },
      { call: { name: 'exec_command', arguments: { cmd: 'sleep 2; echo late > late.txt; echo finished', yield_time_ms: 250 } } },
      { stdin: { yield_time_ms: 5000 } },
      { text: 'ok' },
    ]);
    const evs = r.payloads.map((p) => p.event);
    check('probe: the run finished', runOk(r, model));
    found(
      `a 5 s UserPromptSubmit hook with timeout 1 → ${evs.includes('UserPromptSubmit') ? 'finished (not killed!)' : 'killed, the turn went on'}; run took ${(r.run.ms / 1000).toFixed(1)} s`,
    );
    const wd = r.payloads.find(
      (p) => p.payload.hook_event_name === 'PreToolUse' && String(p.payload.tool_input?.command).startsWith('pwd'),
    );
    found(
      `exec_command {cmd, workdir: "sub"} → PreToolUse tool_input ${JSON.stringify(wd?.payload.tool_input)} (the workdir is not in the payload; it ran in ${fs.existsSync(path.join(w.ws, 'sub/where.txt')) ? 'sub/' : '?'})`,
    );
    const late = r.payloads.filter((p) => String(p.payload.tool_input?.command).startsWith('sleep 2'));
    const lpre = late.find((p) => p.payload.hook_event_name === 'PreToolUse');
    const lpost = late.find((p) => p.payload.hook_event_name === 'PostToolUse');
    found(
      `a command still running when exec_command returns (yield 250 ms): PreToolUse at 0 s, PostToolUse ${lpost && lpre ? `${((lpost.at - lpre.at) / 1000).toFixed(1)} s later, when it exited (during the write_stdin poll), same tool_use_id: ${lpost.payload.tool_use_id === lpre.payload.tool_use_id}, tool_response ${JSON.stringify(lpost.payload.tool_response)}` : 'never'}; write_stdin fires no hook: ${!r.payloads.some((p) => p.payload.tool_name === 'write_stdin')}`,
    );
    const m = (e: string) => r.payloads.filter((p) => p.event === e).map((p) => p.payload.tool_name);
    found(
      `PreToolUse matchers → tools they fired for: ${['Write', 'Edit', 'apply_patch', '^Bash$', 'exec_command', 'shell'].map((x) => `${x}: [${m(`PreToolUse-matcher-${x}`).join(', ')}]`).join('; ')}`,
    );
    found(
      `project .codex/hooks.json PreToolUse hook (trusted project, hook trusted) ${evs.includes('PreToolUse-project') ? 'ran' : 'did NOT run'}`,
    );
    const timedOut = /hook timed out[^\n]*/.exec(r.run.stderr)?.[0] ?? /timed out[^\n]*/.exec(r.run.stderr)?.[0];
    if (timedOut) found(`codex says: ${timedOut}`);

    // Untrusted: change the hook command (its hash changes) and run again without re-trusting.
    const j = JSON.parse(fs.readFileSync(path.join(w.codexHome, 'hooks.json'), 'utf8'));
    j.hooks.SessionStart[0].hooks[0].command += ' # changed';
    fs.writeFileSync(path.join(w.codexHome, 'hooks.json'), JSON.stringify(j, null, 2));
    const r2 = await w.run('probe untrusted', 'Say hi', [{ text: 'hi' }]);
    const said = r2.run.stderr.split('\n').filter((l) => /SessionStart|trust|review|modified/i.test(l));
    found(
      `a hook changed after it was trusted ("modified") ${r2.payloads.some((p) => p.event === 'SessionStart') ? 'still RAN' : 'was skipped'}; codex exec says: ${said.length ? said.map((l) => JSON.stringify(l.trim())).join(' ') : 'nothing'}`,
    );
    const r3 = await w.run('probe bypass', 'Say hi', [{ text: 'hi' }], { args: execArgs('Say hi', { bypassHookTrust: true }) });
    found(
      `…and with --dangerously-bypass-hook-trust it ${r3.payloads.some((p) => p.event === 'SessionStart') ? 'runs' : 'still does not run'}`,
    );
  } finally {
    w.cleanup();
  }
}

// ------------------------------------------------------------------------------ fixtures

function scrubber(s: Scenario, bin: string): (t: string) => string {
  const pairs: [string, string][] = [
    // bin is <install dir>/node_modules/.bin/codex; the hooks' PATH names the vendored helpers in it.
    [path.resolve(bin, '../../..'), '/CODEX_INSTALL'],
    [s.w.ws, '/WORKSPACE'],
    [s.w.codexHome, '/CODEX_HOME'],
    [s.w.remote, '/REMOTE.git'],
    [s.w.home, '/HOME'],
    [s.w.root, '/TMPROOT'],
    [__dirname, '/REPO/test/compat/codex'],
    [repoRoot, '/REPO'],
    [process.execPath, '/usr/bin/node'],
    // The machine's own PATH (inherited by codex, hence by the hooks).
    ...(process.env.PATH ? ([[process.env.PATH, '/usr/local/bin:/usr/bin:/bin']] as [string, string][]) : []),
  ];
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (t) => pairs.reduce((acc, [from, to]) => acc.split(from).join(to), t);
}

function writeFixtures(s: Scenario, bin: string, version: string): void {
  const out = path.join(repoRoot, 'test', 'fixtures', 'agents', 'codex', `real-${version}`);
  fs.mkdirSync(out, { recursive: true });
  const scrub = scrubber(s, bin);
  const hooks = [...s.r1.payloads, ...s.r2.payloads].map((p) =>
    JSON.stringify({ event: p.event, argv: p.argv, cwd: p.cwd, env: p.env, transcript: p.transcript, payload: p.payload }),
  );
  fs.writeFileSync(path.join(out, 'hooks.jsonl'), scrub(hooks.join('\n') + '\n'));
  fs.writeFileSync(path.join(out, 'rollout.jsonl'), scrub(s.parentText));
  say(
    `\nwrote ${path.relative(repoRoot, out)}/hooks.jsonl (${hooks.length} payloads) and rollout.jsonl (${s.parentText.split('\n').length - 1} lines)`,
  );
}

// ------------------------------------------------------------------------------ main

async function main(): Promise<void> {
  const t0 = Date.now();
  const codex = ensureCodex();
  say(`codex ${codex.version} (${codex.how}): ${codex.bin}`);
  const model = await startScriptedModel({ wire: 'openai-responses' });
  let s: Scenario | undefined;
  try {
    s = await scenario(codex.bin, model);
    await forks(s, model);
    await probes(codex.bin, model);
    if (model.stats.otherPaths.length)
      found(`requests to other paths of the loopback server: ${[...new Set(model.stats.otherPaths)].join(', ')}`);
    if (args.has('--fixtures')) writeFixtures(s, codex.bin, codex.version);
  } finally {
    await model.close();
    if (s) {
      if (failures.length || process.env.KEEP_TMP) say(`(kept ${s.w.root})`);
      else s.w.cleanup();
    }
  }
  say(
    `\n${failures.length ? `${failures.length} check(s) FAILED: ${failures.join('; ')}` : 'all checks passed'} — ${findings.length} findings, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
