// The compat tier for the REAL OpenAI Codex CLI (pinned 0.171.0, or CODEX_VERSION): installed by
// codexCli.ts into the ignored tools folder, run offline against the scripted Responses API
// (kit/model.mjs, wire openai-responses, 127.0.0.1 only; plugins, analytics, feedback, update checks off: codexHome.ts).
// Our hooks are connected exactly as "Connect Agents…" writes them (src/agents/codex/connect.ts:
// `<workspace>/.codex/hooks.json`, the project trusted, our hooks trusted through `codex app-server`
// with `trustCodexHooks`). A recorder in the user layer ($CODEX_HOME/hooks.json) keeps every raw
// payload for the drift report.
//   1. prompt 1: apply_patch add + update + delete, a move with an absolute source, a shell edit,
//      git commit, git push to a local bare remote; prompt 2 (`codex exec resume`): a patch and a
//      shell-made file.
//   2. through the CLI: checkpoints, plan (files and what will not be undone), rewind files, verify,
//      undo — checked on disk.
//   3. re-grounding after a files-only rewind: prompt 3 in the same session; the model's request holds
//      our UserPromptSubmit context.
//   4. conversation: `conversation fork` before prompt 2, parent byte-identical, `codex exec resume
//      <fork id>`: the model gets turn 1 and the new prompt only, every call paired, and the fork's
//      re-grounding (SessionStart context); a second fork resumed with the interactive `codex resume
//      <fork id> <prompt>` (the TUI in a pseudo-terminal from util-linux `script`).
//   5. drift: payload fields and rollout types the adapter does not know (a new response_item type fails).
// Prints every check, then exactly one line `codex <version>: <n> checks, <n> passed, <n> failed`.
// Started by test/compat/run.mjs after the Claude Code run.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { trustCodexHooks } from '../../../src/agents/codex/connect';
import { CHECKED_CODEX_VERSION } from '../../../src/agents/codex/conversation';
import { KNOWN_PAYLOAD_FIELDS } from '../../../src/agents/codex/hookPayload';
import { EVENT_MSG_TYPES, ITEM_TYPES, RESPONSE_ITEM_TYPES, ROLLOUT_LINE_TYPES } from '../../../src/agents/codex/knownFormats';
import { ensureBuilt } from '../build';
import { payloadFieldDrift, treeDiff } from '../checkers';
import { sha256, tree } from '../harness';
import { Report } from '../report';
import { ensureCodex, repoRoot } from './codexCli';
import { type ScriptedModel, startScriptedModel } from '../kit/model.mjs';
import type { RequestRecord, Step } from '../kit/wire/responses.mjs';

type MockModel = ScriptedModel<Step>;
import type { RolloutLine } from './rollout';
import { CodexWorld, type RunResult } from './session';
import { registry } from '../../../src/agents/registry';

const codexConnector = registry.connector('codex')!;

const report = new Report();
const CLI = path.join(repoRoot, 'dist', 'cli.js');

const START = {
  'README.md': '# Demo\n\nPrints a greeting.\n',
  'src/app.js': "console.log('hello');\n",
  'src/old.js': '// unused\n',
  'notes/todo.txt': '- write tests\n',
  'config.ini': 'port=80\n',
};
const P1 = 'Add a greeting helper, use it, drop the old module, move the todo list to docs, bump the port, commit and push';
const P2 = 'Also mention the greeting in the README and write a VERSION file';
const P3 = 'What did you change so far?';
const P4 = 'Forget the README: what should we do next?';
const P5 = 'And after that?';

const patch = (...ops: string[]) => ['*** Begin Patch', ...ops, '*** End Patch'].join('\n');

function script1(ws: string) {
  return [
    {
      text: 'Adding the helper.',
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
    {
      patch: patch(
        `*** Update File: ${path.join(ws, 'notes/todo.txt')}`,
        '*** Move to: docs/todo.md',
        '@@',
        '-- write tests',
        '+- [ ] write tests',
      ),
    },
    { exec: "sed -i 's/port=80/port=8080/' config.ini && printf 'built\\n' > build.log" },
    { exec: 'git add -A && git -c user.name=Codex -c user.email=codex@example.com commit -q -m "Add greeting"' },
    { exec: 'git push -q origin main' },
    { text: 'Done: helper added and used, old module dropped, todo moved, port bumped, committed and pushed.' },
  ];
}
const script2 = [
  { patch: patch('*** Update File: README.md', '@@', ' # Demo', '+', '+Uses `greet()` from src/greet.js.') },
  { exec: "printf '1.0.0\\n' > VERSION" },
  { text: 'README updated, VERSION written.' },
];

function ar(w: CodexWorld, store: string, args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args, '--store', store], { cwd: w.ws, encoding: 'utf8', timeout: 60000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function arJson<T = any>(w: CodexWorld, store: string, args: string[]): T {
  const r = ar(w, store, [...args, '--json']);
  if (r.status !== 0) throw new Error(`agent-rewind ${args.join(' ')} exited ${r.status}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout) as T;
}

function runProblems(r: RunResult, model: MockModel): string[] {
  const p: string[] = [];
  if (r.run.status !== 0) p.push(`codex exited ${r.run.status}: ${r.run.stderr.slice(-600)}`);
  if (model.remaining()) p.push(`${model.remaining()} scripted step(s) never requested`);
  for (const q of r.requests) if (q.status !== 200) p.push(`request ${q.n} answered ${q.status}: ${q.problems.join(' ')}`);
  if (!r.sessionId) p.push('no session id');
  if (!r.rolloutPath) p.push('no rollout for the session');
  return p;
}

async function step(
  w: CodexWorld,
  label: string,
  prompt: string,
  steps: Parameters<CodexWorld['run']>[2],
  resume?: string,
): Promise<RunResult> {
  const r = await w.run(label, prompt, steps, { ...(resume ? { resume } : {}), timeoutMs: 90000 });
  report.check(`${label}: the real CLI ran its whole script, every request accepted (${(r.run.ms / 1000).toFixed(1)} s)`, () =>
    runProblems(r, w.model),
  );
  return r;
}

const firstMain = (r: RunResult): RequestRecord | undefined => r.requests.find((q) => q.kind === 'main');

function errorsLog(store: string): string[] {
  const f = path.join(store, 'errors.log');
  return fs.existsSync(f)
    ? fs
        .readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
    : [];
}

interface Checkpoint {
  id: string;
  kind: string;
  label: string;
  session?: string;
  agent?: string;
}

async function scenario(bin: string, model: MockModel): Promise<{ payloads: Record<string, unknown>[]; rollouts: string[] }> {
  const w = new CodexWorld('compat', bin, model, 'persisted');
  const store = path.join(w.root, 'store');
  try {
    w.initRepo(START);
    await w.setup(); // config.toml (our provider on 127.0.0.1, the project trusted) + the recorder, trusted

    // ---- Connect, the way the extension does it
    report.begin('1. Connect: .codex/hooks.json written by the connector, our hooks trusted through codex app-server');
    const target = { node: process.execPath, cli: CLI, store };
    const connected = codexConnector.connect(w.ws, target);
    report.check('connector wrote .codex/hooks.json and says what Codex needs (trust)', () => [
      ...(connected.changed ? [] : ['nothing written']),
      ...(codexConnector.state(w.ws, target) === 'connected' ? [] : [`state ${codexConnector.state(w.ws, target)}`]),
      ...(connected.notes.some((n) => /trust/i.test(n)) ? [] : ['no note about trust']),
    ]);
    const trust = await trustCodexHooks(bin, w.ws, w.env());
    report.check(`trustCodexHooks trusted exactly our ${trust.trusted.length} hooks and Codex lists them as trusted`, () => [
      ...(trust.listed === 6 ? [] : [`Codex lists ${trust.listed} of our hooks, expected 6`]),
      ...(trust.trusted.length === 6 ? [] : [`trusted ${trust.trusted.length}`]),
      ...trust.untrusted.map((k) => `still untrusted: ${k}`),
    ]);

    // ---- Two prompts
    report.begin('2. two prompts through the real client: apply_patch add/update/delete/move, shell edits, commit, push');
    const T0 = tree(w.ws);
    const r1 = await step(w, 'prompt 1', P1, script1(w.ws));
    const T1 = tree(w.ws);
    const r2 = await step(w, 'prompt 2 (exec resume)', P2, script2, r1.sessionId);
    const T2 = tree(w.ws);
    const session = r1.sessionId;
    report.check("the agent's effects happened (so the rest tests something)", () => {
      const p: string[] = [];
      if (!T1['src/greet.js'] || T1['src/old.js'] || !T1['docs/todo.md'] || T1['notes/todo.txt']) p.push('prompt 1 patches did not apply');
      if (Buffer.from(T1['config.ini'] ?? '', 'base64').toString() !== 'port=8080\n') p.push('sed did not run');
      if (!T2['VERSION'] || T2['README.md'] === T1['README.md']) p.push('prompt 2 did not change README.md and VERSION');
      if (w.git(['rev-parse', 'main'], w.remote) !== w.git(['rev-parse', 'HEAD'])) p.push('the push did not reach the bare remote');
      return p;
    });
    report.check('errors.log stays empty: every payload of the real client was accepted', () =>
      errorsLog(store).map((l) => l.slice(0, 300)),
    );

    const cps = arJson<Checkpoint[]>(w, store, ['checkpoints']);
    const prompts = cps.filter((c) => c.kind === 'prompt');
    const cp1 = prompts.find((c) => c.label === P1);
    const cp2 = prompts.find((c) => c.label === P2);
    report.check('checkpoints: a session start and one prompt checkpoint per prompt, agent codex, the session id of the run', () => [
      ...(cp1 && cp2 ? [] : [`prompt checkpoints: ${JSON.stringify(prompts.map((c) => c.label))}`]),
      ...cps.filter((c) => c.agent !== 'codex' && c.kind !== 'rewind').map((c) => `${c.kind} checkpoint of agent ${c.agent}`),
      ...prompts.filter((c) => c.session !== session).map((c) => `prompt checkpoint of session ${c.session}, not ${session}`),
      ...(cps.some((c) => c.kind === 'session-start') ? [] : ['no session-start checkpoint']),
    ]);

    // ---- Files: plan, rewind, verify, undo
    report.begin('3. files through the CLI: plan, rewind to before prompt 2, verify, undo');
    if (!cp1 || !cp2) throw new Error('no prompt checkpoints: cannot go on');
    const everything = [...new Set([...Object.keys(T0), ...Object.keys(T1), ...Object.keys(T2)])];
    const plan1 = arJson<{ files: { path: string; action: string }[]; notUndone: { summary: string; effect: string }[] }>(w, store, [
      'plan',
      '--to',
      cp1.id,
    ]);
    report.check('plan --to prompt 1: every file the agent changed, by patch or by shell, with the right action', () => {
      const planned = new Map(plan1.files.map((f) => [path.relative(w.ws, f.path), f.action]));
      const p: string[] = [];
      for (const f of everything) {
        if (T0[f] === T2[f]) {
          if (planned.has(f)) p.push(`${f} planned (${planned.get(f)}) but unchanged`);
          continue;
        }
        const want = T0[f] === undefined ? 'delete' : T2[f] === undefined ? 'recreate' : 'restore';
        if (planned.get(f) !== want) p.push(`${f}: planned ${planned.get(f) ?? 'nothing'}, expected ${want}`);
      }
      return p;
    });
    report.check('plan --to prompt 1: the push is listed as irreversible and the commit as compensatable', () => {
      const push = plan1.notUndone.find((n) => /git push/.test(n.summary));
      const commit = plan1.notUndone.find((n) => /git .*commit/.test(n.summary));
      return [
        ...(push?.effect === 'irreversible' ? [] : [`push: ${JSON.stringify(push)}`]),
        ...(commit?.effect === 'compensatable' ? [] : [`commit: ${JSON.stringify(commit)}`]),
      ];
    });
    const rw = ar(w, store, ['rewind', '--to', cp2.id, '--json']);
    const res = rw.status === 0 ? (JSON.parse(rw.stdout) as { checkpoint: string }) : null;
    report.check('rewind --to prompt 2: the whole tree byte-exact as before prompt 2 (patch and shell changes undone)', () =>
      res ? treeDiff(T1, tree(w.ws), everything) : [`rewind exited ${rw.status}: ${rw.stderr.slice(0, 300)}`],
    );
    const verify = ar(w, store, ['verify']);
    report.check('verify: the store is sound after the rewind', () =>
      verify.status === 0 ? [] : [`verify exited ${verify.status}: ${verify.stdout}`],
    );
    if (res) {
      const undo = ar(w, store, ['rewind', '--to', res.checkpoint, '--json']);
      report.check('undo the rewind: every file back as the agent left it', () =>
        undo.status === 0 ? treeDiff(T2, tree(w.ws), everything) : [`undo exited ${undo.status}: ${undo.stderr.slice(0, 300)}`],
      );
    }

    // ---- Re-grounding after a files-only rewind
    report.begin('4. re-grounding after a files-only rewind reaches the model (UserPromptSubmit hook output)');
    const again = ar(w, store, ['rewind', '--to', cp2.id, '--json']);
    report.check('rewind --to prompt 2 again (files only; the conversation goes on)', () =>
      again.status === 0 ? treeDiff(T1, tree(w.ws), everything) : [`rewind exited ${again.status}: ${again.stderr.slice(0, 300)}`],
    );
    const r3 = await step(
      w,
      'prompt 3 (exec resume, same session)',
      P3,
      [{ text: 'I reverted nothing myself; the files were rewound.' }],
      session,
    );
    report.check('the model request of prompt 3 holds our context: files were rewound, README.md and VERSION named', () => {
      const dev = firstMain(r3)?.developerTexts ?? [];
      const ours = dev.find((t) => t.includes('[Agent Rewind] Files were rewound'));
      if (!ours) return [`no re-grounding developer message; developer texts: ${JSON.stringify(dev.map((t) => t.slice(0, 80)))}`];
      return ['README.md', 'VERSION'].filter((f) => !ours.includes(f)).map((f) => `${f} not named`);
    });

    // ---- Conversation fork and resume
    report.begin('5. conversation: fork before prompt 2, parent byte-identical, `codex exec resume <fork id>` continues from the cut');
    const parent = r1.rolloutPath!;
    const shown = arJson<{ session: string; prompts: { uuid: string; text: string }[] }>(w, store, [
      'conversation',
      'show',
      '--transcript',
      parent,
    ]);
    const turn2 = shown.prompts.find((p) => p.text === P2)?.uuid;
    const ups = r2.payloads.find((p) => p.payload.hook_event_name === 'UserPromptSubmit')?.payload.turn_id;
    report.check('conversation show: the three prompts, prompt 2 under the turn id its UserPromptSubmit hook carried', () => [
      ...(JSON.stringify(shown.prompts.map((p) => p.text)) === JSON.stringify([P1, P2, P3])
        ? []
        : [`prompts ${JSON.stringify(shown.prompts.map((p) => p.text))}`]),
      ...(shown.session === session ? [] : [`session ${shown.session}`]),
      ...(turn2 && turn2 === ups ? [] : [`prompt 2 id ${turn2}, hook turn_id ${String(ups)}`]),
    ]);
    const before = sha256(parent);
    const forkBefore2 = () =>
      arJson<{ session: string; transcript: string; parent: string; resume: string }>(w, store, [
        'conversation',
        'fork',
        '--transcript',
        parent,
        '--before',
        turn2 ?? 'none',
      ]);
    const fork = forkBefore2();
    report.check(
      'conversation fork: JSON as DESIGN §5 with `codex resume <id>`, new rollout under CODEX_HOME/sessions, 0600, parent byte-identical',
      () => [
        ...(fork.parent === session ? [] : [`parent ${fork.parent}`]),
        ...(fork.resume === `codex resume ${fork.session}` ? [] : [`resume ${fork.resume}`]),
        ...(fork.transcript.startsWith(path.join(w.codexHome, 'sessions') + path.sep) && fork.transcript.endsWith(`-${fork.session}.jsonl`)
          ? []
          : [`transcript ${fork.transcript}`]),
        ...((fs.statSync(fork.transcript).mode & 0o777) === 0o600 ? [] : ['mode not 0600']),
        ...(sha256(parent) === before ? [] : ['the parent changed']),
      ],
    );
    const r4 = await step(
      w,
      'resume of the fork (codex exec resume <fork id>)',
      P4,
      [{ text: 'Next: add tests for greet().' }],
      fork.session,
    );
    const q4 = firstMain(r4);
    report.check('the resumed fork sends turn 1 and the new prompt only (prompts 2 and 3 and their context are gone)', () => {
      const users = q4?.userTexts ?? [];
      // Our re-grounding (a developer message) quotes the cut prompt: look everywhere else.
      const all = JSON.stringify((q4?.body?.input ?? []).filter((i: any) => !JSON.stringify(i).includes('[Agent Rewind]')));
      return [
        ...(users.some((t) => t.includes(P1)) ? [] : ['prompt 1 missing']),
        ...(users.some((t) => t.includes(P4)) ? [] : ['the new prompt missing']),
        ...(all.includes(P2) || all.includes('greet()') ? ['prompt 2 (or its patch) still there'] : []),
        ...(all.includes(P3) ? ['prompt 3 still there'] : []),
        ...((q4?.calls.length ?? 0) >= 5 ? [] : [`only ${q4?.calls.length ?? 0} tool calls of turn 1 replayed`]),
      ];
    });
    report.check('the resumed fork is its own session: SessionStart source resume with the fork id, the parent untouched', () => {
      const ss = r4.payloads.find((p) => p.payload.hook_event_name === 'SessionStart')?.payload;
      return [
        ...(ss?.source === 'resume' ? [] : [`SessionStart source ${String(ss?.source)}`]),
        ...(ss?.session_id === fork.session ? [] : [`SessionStart session ${String(ss?.session_id)}`]),
        ...(r4.rolloutPath === fork.transcript ? [] : [`resume wrote ${r4.rolloutPath}`]),
        ...(sha256(parent) === before ? [] : ['the parent changed']),
      ];
    });
    report.check('the fork is re-grounded through SessionStart: the model is told what the discarded turns left behind', () => {
      const ours = (q4?.developerTexts ?? []).find((t) => t.includes('[Agent Rewind] This conversation was rewound'));
      return ours ? (ours.includes(session) ? [] : ['parent session not named']) : ['no fork re-grounding in the request'];
    });

    // The same with the command the UI offers, `codex resume <id>`: the interactive TUI, in a pseudo-terminal.
    const fork2 = forkBefore2();
    const r5 = await w.resumeInteractive('interactive `codex resume <fork id>`', fork2.session, P5, [{ text: 'Next: a README section.' }]);
    report.check(
      `interactive \`codex resume <fork id> <prompt>\` in a pseudo-terminal: the TUI served the turn and quit (${(r5.run.ms / 1000).toFixed(1)} s)`,
      () => [
        ...(r5.timedOut ? [`timed out; screen tail: ${JSON.stringify(r5.run.stdout.slice(-400))}`] : []),
        ...(w.model.remaining() ? [`${w.model.remaining()} scripted step(s) never requested`] : []),
        ...r5.requests.filter((q) => q.status !== 200).map((q) => `request ${q.n} answered ${q.status}: ${q.problems.join(' ')}`),
      ],
    );
    const q5 = firstMain(r5);
    report.check(
      "the interactive resume continues the fork from the cut: turn 1 and the new prompt, prompts 2 and 3 gone, into the fork's rollout",
      () => {
        const users = q5?.userTexts ?? [];
        const all = JSON.stringify((q5?.body?.input ?? []).filter((i: any) => !JSON.stringify(i).includes('[Agent Rewind]')));
        const ss = r5.payloads.find((p) => p.payload.hook_event_name === 'SessionStart')?.payload;
        return [
          ...(users.some((t) => t.includes(P1)) ? [] : ['prompt 1 missing']),
          ...(users.some((t) => t.includes(P5)) ? [] : ['the new prompt missing']),
          ...(all.includes(P2) || all.includes(P3) ? ['prompt 2 or 3 still there'] : []),
          ...(ss?.source === 'resume' && ss?.session_id === fork2.session
            ? []
            : [`SessionStart ${String(ss?.source)} ${String(ss?.session_id)}`]),
          ...(r5.rolloutPath === fork2.transcript && fs.readFileSync(fork2.transcript, 'utf8').includes(P5)
            ? []
            : [`the new prompt is not in the fork's rollout (the resume's session: ${String(r5.rolloutPath)})`]),
          ...(sha256(parent) === before ? [] : ['the parent changed']),
        ];
      },
    );
    const daemon = w.stopDaemon();
    report.check('`codex app-server daemon stop` stops the daemon the TUI left running; only its pid-update-loop stays, ended here', () => [
      ...daemon.afterStop.filter((l) => !l.endsWith(' app-server daemon pid-update-loop')).map((l) => `still running after stop: ${l}`),
      ...daemon.afterKill.map((l) => `still running: ${l}`),
    ]);
    report.check('errors.log still empty after the rewinds, the forks and their resumes', () =>
      errorsLog(store).map((l) => l.slice(0, 300)),
    );
    return { payloads: w.payloads().map((p) => p.payload), rollouts: w.rollouts().map((f) => fs.readFileSync(f, 'utf8')) };
  } finally {
    w.cleanup();
  }
}

function drift(payloads: Record<string, unknown>[], rollouts: string[]): void {
  report.begin('6. format drift: payload fields and rollout types the adapter does not know');
  const fields = payloadFieldDrift(payloads, KNOWN_PAYLOAD_FIELDS);
  const events: Record<string, number> = {};
  for (const p of payloads) events[String(p.hook_event_name)] = (events[String(p.hook_event_name)] ?? 0) + 1;
  report.note(
    `hook events: ${Object.entries(events)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  if (fields.unknown.length) report.note(`NEW payload fields (reported, not failed): ${fields.unknown.join(', ')}`);
  const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const top = new Map<string, number>();
  const items = new Map<string, number>();
  const events2 = new Map<string, number>();
  const completed = new Map<string, number>();
  let garbage = 0;
  for (const text of rollouts) {
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      let o: RolloutLine | null = null;
      try {
        o = JSON.parse(raw) as RolloutLine;
      } catch {
        /* counted below */
      }
      if (!o || typeof o !== 'object' || typeof o.type !== 'string') {
        garbage++;
        continue;
      }
      count(top, o.type);
      if (o.type === 'response_item') count(items, String(o.payload?.type));
      if (o.type === 'event_msg') count(events2, String(o.payload?.type));
      if (o.type === 'event_msg' && o.payload?.type === 'item_completed') count(completed, String(o.payload?.item?.type));
    }
  }
  const fmt = (m: Map<string, number>) => [...m].map(([k, v]) => `${k} ${v}`).join(', ');
  report.note(
    `rollout line types: ${fmt(top)}; response_item: ${fmt(items)}; event_msg: ${fmt(events2)}; item_completed: ${fmt(completed)}`,
  );
  const unknown = (m: Map<string, number>, known: ReadonlySet<string>) => [...m.keys()].filter((k) => !known.has(k));
  for (const [what, u] of [
    ['line types', unknown(top, ROLLOUT_LINE_TYPES)],
    ['event_msg types', unknown(events2, EVENT_MSG_TYPES)],
    ['item_completed item types', unknown(completed, ITEM_TYPES)],
  ] as const)
    if (u.length) report.note(`NEW rollout ${what} (reported, not failed): ${u.join(', ')}`);
  report.check('every response_item type in the real rollouts is one the reader and forker know (RESPONSE_ITEM_TYPES)', () => [
    ...unknown(items, RESPONSE_ITEM_TYPES).map(
      (t) =>
        `new response_item type "${t}" (${items.get(t)} line(s)): teach src/agents/codex (pairing, cut), then add it to knownFormats.ts`,
    ),
    ...(garbage ? [`${garbage} rollout line(s) are not JSON objects`] : []),
  ]);
}

async function main(): Promise<void> {
  const t0 = Date.now();
  ensureBuilt();
  let bin: string;
  let version: string;
  try {
    const c = ensureCodex();
    bin = c.bin;
    version = c.version;
    console.log(
      `Codex CLI ${version} (${c.how}): ${bin}${version === CHECKED_CODEX_VERSION ? '' : ` — the adapter was checked against ${CHECKED_CODEX_VERSION}`}`,
    );
  } catch (e) {
    console.error(`compat: cannot run the real Codex CLI: ${(e as Error).message}`);
    console.log(`codex ${process.env.CODEX_VERSION || 'unknown'}: 1 checks, 0 passed, 1 failed`);
    process.exit(1);
  }
  const model = await startScriptedModel({ wire: 'openai-responses', bodies: true });
  try {
    const { payloads, rollouts } = await scenario(bin, model);
    drift(payloads, rollouts);
  } catch (e) {
    report.check('the scenario ran to its end', () => [(e as Error).stack?.split('\n').slice(0, 4).join(' | ') ?? String(e)]);
  } finally {
    await model.close();
  }
  console.log(report.summary(1, (Date.now() - t0) / 1000).replace('compat:', `compat (Codex CLI ${version}):`));
  console.log(report.line('codex', version));
  process.exitCode = report.count('fail') ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
