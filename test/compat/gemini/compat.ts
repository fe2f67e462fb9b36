// The Gemini CLI compat tier: our hooks, store and CLI against the REAL Gemini CLI (pinned, installed
// into the ignored tool folder by geminiCli.ts), offline against the scripted Gemini API
// (kit/model.mjs, wire gemini: loopback, dummy key; kit/netGuard.cjs logs any other host), our hooks connected the
// way "Connect Agents…" writes them (src/agents/gemini/connect.ts). One session: a prompt that
// creates, edits and deletes files (write_file, replace, rm through the shell), changes a file with
// a shell command, commits and pushes to a local bare remote; a second prompt on `--resume`; then
// plan / rewind / verify / undo through our CLI, checked on disk; the conversation forked before the
// second prompt and resumed by the real client from the cut; re-grounding after a files-only rewind
// seen in the request the model gets; a second fork resumed in the interactive UI (`-i`, in a
// pseudo-terminal); format drift. Prints one line
// `gemini <version>: <n> checks, <n> passed, <n> failed` and exits 1 on any failure.
//
//   node --import tsx test/compat/gemini/compat.ts      (test/compat/run.mjs runs it after Claude's)
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KNOWN_MESSAGE_FIELDS, KNOWN_RECORD_KINDS, readChat } from '../../../src/agents/gemini/chatFile';
import { KNOWN_PAYLOAD_FIELDS } from '../../../src/agents/gemini/hookPayload';
import { geminiToolKind } from '../../../src/agents/gemini/toolKind';
import {
  checkNotUndone,
  checkPromptCheckpoints,
  type CheckpointJson,
  type NotUndoneJson,
  payloadFieldDrift,
  type PlanJson,
  planProblems,
  treeDiff,
} from '../checkers';
import { ensureBuilt, installCliCopy, storeCli, tree } from '../harness';
import { Report } from '../report';
import { ensureGemini } from './geminiCli';
import { checkRewindAndUndo, START } from '../kit/filesScenario';
import { startScriptedModel } from '../kit/model.mjs';
import type { RequestRecord, Step } from '../kit/wire/gemini.mjs';
import { GeminiWorld, type RunOutcome } from './session';
import { KEEP_RESUMED_SESSIONS, projectSettingsPath } from './settings';
import { registry } from '../../../src/agents/registry';

const geminiConnector = registry.connector('gemini')!;

const report = new Report();
const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const mainRequests = (r: RunOutcome) => r.requests.filter((q) => q.kind === 'main');
const hasText = (q: RequestRecord | undefined, s: string) => (q?.userTexts ?? []).some((t) => t.includes(s));
/** A user turn that is this prompt (not a mention of it, as in the re-grounding text). */
const hasPrompt = (q: RequestRecord | undefined, s: string) => (q?.userTexts ?? []).some((t) => t.trim() === s);

const P1 = 'Release 1.1.0: add a changelog, bump the version, drop the old notes, turn debug off, commit and push.';
const P2 = 'Also say in the changelog that the release was pushed.';
const P3 = 'Instead, give the release a date in the changelog.';
const P4 = 'What is in the changelog now?';
const P5 = 'Leave the changelog undated after all.';

const AGENT_FILES = ['CHANGELOG.md', 'version.txt', 'old-notes.txt', 'config.ini', 'docs/a.md'];
/** The user's own project settings before Connect: kept by Connect, given back by Disconnect. */
const USER_PROJECT_SETTINGS = '{\n  "general": { "vimMode": true },\n  "context": { "fileName": "GEMINI.md" }\n}\n';

/** The basics every run must satisfy. */
function ran(w: GeminiWorld, r: RunOutcome, opts: { duplicatesExpected?: boolean } = {}): void {
  report.check(`${r.label}: the real CLI exited 0 and consumed its script (${(r.run.ms / 1000).toFixed(1)} s)`, () => {
    const p: string[] = [];
    if (r.run.status !== 0) p.push(`gemini exited ${r.run.status}: ${r.run.stderr.slice(0, 400)}`);
    if (r.run.result?.error) p.push(`gemini reported: ${JSON.stringify(r.run.result.error).slice(0, 300)}`);
    if (w.model.remaining() !== 0) p.push(`${w.model.remaining()} scripted step(s) never requested`);
    return p;
  });
  if (opts.duplicatesExpected) {
    // 0.61 resends every earlier tool result twice on a plain resume (google-gemini/gemini-cli#29365):
    // the real API refuses that; our scripted one answers anyway and we only note it.
    const dup = mainRequests(r).filter((q) => q.problems?.length).length;
    report.note(`${r.label}: ${dup} request(s) with duplicated function responses (0.61 bug #29365, not ours)`);
  }
  report.check(
    `${r.label}: ${opts.duplicatesExpected ? '' : 'every main-loop request accepted (each call answered once) and '}no host but loopback`,
    () => [
      ...(opts.duplicatesExpected ? [] : mainRequests(r).filter((q) => q.status !== 200 || q.problems?.length)).map(
        (q) => `request #${q.n}: ${q.status} ${q.problems?.join('; ').slice(0, 300) ?? ''}`,
      ),
      ...[...new Set(r.network)].map((h) => `tried to reach ${h}`),
    ],
  );
}

function chatOf(w: GeminiWorld, session: string): string {
  const mine = w
    .sessionFiles()
    .map((f) => ({ f, c: readChat(f) }))
    .filter((x) => x.c.meta.sessionId === session);
  mine.sort((a, b) => b.c.messages.length - a.c.messages.length);
  return mine[0]?.f ?? '';
}

function errorsLog(store: string): string[] {
  const f = path.join(store, 'errors.log');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim().split('\n').slice(0, 3) : [];
}

async function scenario(bin: string, version: string): Promise<void> {
  report.begin(`Gemini CLI ${version}: create, edit, delete, shell edit, push; rewind files and conversation`);
  const model = await startScriptedModel({ wire: 'gemini' });
  const w = new GeminiWorld('compat', bin, model, KEEP_RESUMED_SESSIONS);
  try {
    await run(w);
  } finally {
    await model.close();
    if (!process.env.KEEP) w.dispose();
    else console.log(`   kept ${w.root}`);
  }
}

async function run(w: GeminiWorld): Promise<void> {
  const ws = w.ws;
  const store = path.join(w.root, 'store');
  w.initRepo(START);
  // The hook command points at a stable copy of dist/, as the extension installs it.
  const target = { node: process.execPath, cli: installCliCopy(w.root), store };
  const { ar, arJson } = storeCli(store);

  // ---- Connect, on the user's own project settings
  fs.mkdirSync(path.dirname(projectSettingsPath(ws)), { recursive: true });
  fs.writeFileSync(projectSettingsPath(ws), USER_PROJECT_SETTINGS);
  const c1 = geminiConnector.connect(ws, target);
  report.check("Connect merges our hooks into the user's .gemini/settings.json; twice changes nothing", () => {
    const j = JSON.parse(fs.readFileSync(projectSettingsPath(ws), 'utf8'));
    const p: string[] = [];
    if (!c1.changed) p.push('connect reported no change');
    if (j.general?.vimMode !== true) p.push("the user's setting is gone");
    if (geminiConnector.connect(ws, target).changed) p.push('second connect changed the file');
    if (geminiConnector.state(ws, target) !== 'connected') p.push(`state ${geminiConnector.state(ws, target)}`);
    return p;
  });
  // Test only: the raw payloads of the events we use, from a recorder in the user settings.
  w.installRecorder({ where: 'user', events: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'] });
  const T0 = tree(ws);

  // ---- prompt 1: create, edit, delete, shell edit, commit, push
  const steps1: Step[] = [
    { call: { name: 'write_file', args: { file_path: 'CHANGELOG.md', content: '# Changelog\n\n## 1.1.0\n- Added this changelog.\n' } } },
    {
      call: {
        name: 'replace',
        args: { file_path: path.join(ws, 'version.txt'), old_string: '1.0.0', new_string: '1.1.0', instruction: 'Bump.' },
      },
    },
    { call: { name: 'write_file', args: { file_path: 'docs/a.md', content: '# A\n' } } },
    { call: { name: 'replace', args: { file_path: 'docs/a.md', old_string: '# A', new_string: '# About', instruction: 'Retitle.' } } },
    { call: { name: 'run_shell_command', args: { command: 'rm old-notes.txt', description: 'Delete the old notes.' } } },
    { call: { name: 'run_shell_command', args: { command: "sed -i 's/debug=true/debug=false/' config.ini", description: 'Debug off.' } } },
    {
      call: {
        name: 'run_shell_command',
        args: {
          command: "git add -A && git -c user.name=Agent -c user.email=agent@example.com commit -q -m 'Release 1.1.0'",
          description: 'Commit.',
        },
      },
    },
    { call: { name: 'run_shell_command', args: { command: 'git push -q origin main', description: 'Push.' } } },
    { text: 'Released 1.1.0.' },
  ];
  const head0 = w.git(['rev-parse', 'HEAD']);
  const r1 = await w.run('prompt 1', P1, steps1);
  ran(w, r1);
  const T1 = tree(ws);
  report.check('prompt 1: the workspace changed as scripted and the commit reached the bare remote', () => {
    const p: string[] = [];
    if (!T1['CHANGELOG.md'] || !T1['docs/a.md'] || T1['old-notes.txt']) p.push(`tree: ${Object.keys(T1).join(', ')}`);
    if (!fs.readFileSync(path.join(ws, 'config.ini'), 'utf8').includes('debug=false')) p.push('config.ini unchanged');
    if (w.git(['rev-parse', 'main'], w.remote) !== w.git(['rev-parse', 'HEAD'])) p.push('not pushed');
    return p;
  });
  const session = r1.session!;
  w.backdate(r1.chatFile!); // a resume a minute later, as for real users (see the README)

  // ---- prompt 2, resumed
  const r2 = await w.run(
    'prompt 2 (--resume)',
    P2,
    [
      {
        call: {
          name: 'replace',
          args: {
            file_path: 'CHANGELOG.md',
            old_string: '- Added this changelog.',
            new_string: '- Added this changelog.\n- Pushed.',
            instruction: 'Note.',
          },
        },
      },
      { text: 'Noted.' },
    ],
    { resume: session, strict: false },
  );
  ran(w, r2, { duplicatesExpected: true });
  const T2 = tree(ws);
  report.check('recording: nothing in errors.log after two prompts', () => errorsLog(store));

  // ---- files: checkpoints, plan, rewind, verify, undo
  const cps = arJson<CheckpointJson[]>(['checkpoints']).filter((c) => c.session === session);
  report.check('one prompt checkpoint per prompt, labelled with the prompt', () => checkPromptCheckpoints(cps, [P1, P2], session));
  const prompts = cps.filter((c) => c.kind === 'prompt');
  if (prompts.length === 2) {
    const plan1 = arJson<PlanJson & { notUndone: NotUndoneJson[] }>(['plan', '--to', prompts[0]!.id]);
    const want = {
      'CHANGELOG.md': 'delete',
      'docs/a.md': 'delete',
      'version.txt': 'restore',
      'config.ini': 'restore',
      'old-notes.txt': 'recreate',
    };
    // Only these files are checked here, as before: another file planned is not an error in this suite.
    report.check('plan --to prompt 1: every file the agent touched, with the right action', () => planProblems(plan1, ws, want, true));
    report.check('plan --to prompt 1 lists the push as not undone and the commit with its compensation', () =>
      checkNotUndone(plan1.notUndone, [
        { summary: ['git push'], effect: 'irreversible' },
        { summary: ['commit'], effect: 'compensatable', compensation: `git -C ${ws} reset --soft ${head0}` },
      ]),
    );
    checkRewindAndUndo(report, ar, prompts[0]!.id, 'prompt 1: write_file, replace and shell changes', {
      ws,
      before: T0,
      after: T2,
      files: AGENT_FILES,
    });
  }

  // ---- conversation: show, fork before prompt 2, resume the fork with the real client
  // The session's real chat: the file holding its conversation (0.61 names a second, metadata-only
  // file in SessionStart's transcript_path on every resume, #27368).
  const chat = chatOf(w, session);
  report.note(`chat named by the last hook: ${path.basename(r2.chatFile ?? '?')}; the conversation is in ${path.basename(chat)}`);
  const parentSha = sha(chat);
  const shown = arJson<{ session: string; prompts: { uuid: string; text: string; tools: { name: string; effect: string }[] }[] }>([
    'conversation',
    'show',
    '--transcript',
    chat,
  ]);
  report.check('conversation show: the chat file is recognised, both prompts with their tool calls', () => {
    const p: string[] = [];
    if (shown.session !== session) p.push(`session ${shown.session}, expected ${session}`);
    if (JSON.stringify(shown.prompts.map((x) => x.text)) !== JSON.stringify([P1, P2]))
      p.push(`prompts ${JSON.stringify(shown.prompts.map((x) => x.text))}`);
    const tools = shown.prompts[0]?.tools ?? [];
    if (tools.length !== 8) p.push(`${tools.length} tool calls in prompt 1, expected 8`);
    if (!tools.some((t) => t.name === 'run_shell_command' && t.effect === 'irreversible')) p.push('the push is not irreversible');
    return p;
  });
  const cut = shown.prompts[1]?.uuid ?? '';
  const forked = ar(['conversation', 'fork', '--transcript', chat, '--before', cut, '--json']);
  const fork = forked.status === 0 ? (JSON.parse(forked.stdout) as { session: string; transcript: string; resume: string }) : null;
  report.check('conversation fork before prompt 2: a new chat, the parent byte-identical, resume = gemini --resume <id>', () => {
    if (!fork) return [`fork exited ${forked.status}: ${forked.stderr.slice(0, 300)}`];
    const p: string[] = [];
    if (sha(chat) !== parentSha) p.push('the parent changed');
    if (fork.resume !== `gemini --resume ${fork.session}`) p.push(`resume ${fork.resume}`);
    if (path.dirname(fork.transcript) !== path.dirname(chat)) p.push('not beside the parent');
    return p;
  });
  if (fork) {
    const r3 = await w.run('fork resumed', P3, [{ text: 'Dated.' }], { resume: fork.session });
    ran(w, r3);
    const q = mainRequests(r3)[0];
    report.check('the fork resumes from the cut: prompt 1 and its calls in the history, prompt 2 not, the new prompt last', () => {
      const p: string[] = [];
      if (!hasPrompt(q, P1)) p.push('prompt 1 missing from the history');
      if (hasPrompt(q, P2)) p.push('prompt 2 (after the cut) is in the history');
      if (!hasPrompt(q, P3)) p.push('the new prompt is missing');
      if ((q?.functionCalls?.length ?? 0) !== 8) p.push(`${q?.functionCalls?.length ?? 0} function calls in the history, expected 8`);
      if (r3.session !== fork.session) p.push(`the run's session is ${r3.session}, not the fork's`);
      return p;
    });
    report.check("the fork's first prompt is re-grounded (our BeforeAgent output reached the model)", () =>
      hasText(q, '[Agent Rewind] This conversation was rewound')
        ? []
        : [`no re-grounding text in: ${(q?.userTexts ?? []).map((t) => t.slice(0, 80)).join(' | ')}`],
    );
    report.check('the parent chat is still byte-identical after the fork ran', () =>
      sha(chat) === parentSha ? [] : ['the parent changed'],
    );
    // The command the UI offers, in the interactive UI: `gemini --resume <id> -i <prompt>` in a pseudo-terminal.
    const forked2 = ar(['conversation', 'fork', '--transcript', chat, '--before', cut, '--json']);
    const fork2 = forked2.status === 0 ? (JSON.parse(forked2.stdout) as { session: string }) : null;
    if (fork2) {
      const r5 = await w.run('fork resumed interactively', P5, [{ text: 'Undated.' }], { resume: fork2.session, interactive: true });
      const q5 = mainRequests(r5)[0];
      report.check(
        `interactive \`gemini --resume <fork id> -i <prompt>\` in a pseudo-terminal: served the turn and quit (${(r5.run.ms / 1000).toFixed(1)} s)`,
        () => [
          ...(r5.run.status === null
            ? [`did not quit: ${r5.run.stderr.slice(-300)} screen tail ${JSON.stringify(r5.run.stdout.slice(-300))}`]
            : []),
          ...(w.model.remaining() ? [`${w.model.remaining()} scripted step(s) never requested`] : []),
          ...[...new Set(r5.network)].map((h) => `tried to reach ${h}`),
        ],
      );
      report.check(
        "the interactive resume continues the fork from the cut: prompt 1 and its calls, not prompt 2, the new prompt, the fork's session",
        () => {
          const p: string[] = [];
          if (!hasPrompt(q5, P1)) p.push('prompt 1 missing from the history');
          if (hasPrompt(q5, P2)) p.push('prompt 2 (after the cut) is in the history');
          if (!hasPrompt(q5, P5)) p.push('the new prompt is missing');
          if ((q5?.functionCalls?.length ?? 0) !== 8) p.push(`${q5?.functionCalls?.length ?? 0} function calls in the history, expected 8`);
          if (r5.session !== fork2.session) p.push(`the run's session is ${r5.session}, not the fork's`);
          if (sha(chat) !== parentSha) p.push('the parent changed');
          return p;
        },
      );
    } else report.check('a second fork before prompt 2', () => [`fork exited ${forked2.status}: ${forked2.stderr.slice(0, 300)}`]);
  }

  // ---- files-only rewind, then the parent session resumed: the model is told
  const afterFork = arJson<CheckpointJson[]>(['checkpoints']).filter((c) => c.session === session && c.kind === 'prompt');
  if (afterFork[1]) {
    const rw2 = ar(['rewind', '--to', afterFork[1].id, '--json']);
    report.check('files-only rewind to prompt 2 (CHANGELOG.md back as before it)', () =>
      rw2.status === 0 ? treeDiff(T1, tree(ws), ['CHANGELOG.md']) : [`rewind exited ${rw2.status}: ${rw2.stderr.slice(0, 300)}`],
    );
    const r4 = await w.run('parent resumed after a files-only rewind', P4, [{ text: 'Let me re-read it.' }], {
      resume: session,
      strict: false,
    });
    ran(w, r4, { duplicatesExpected: true });
    const q = mainRequests(r4)[0];
    report.check('re-grounding after the files-only rewind reached the model, naming CHANGELOG.md, in the prompt turn', () => {
      const ctx = (q?.userTexts ?? []).find((t) => t.includes('[Agent Rewind] Files were rewound'));
      if (!ctx) return [`no re-grounding text in: ${(q?.userTexts ?? []).map((t) => t.slice(0, 80)).join(' | ')}`];
      return ctx.includes('CHANGELOG.md') ? [] : ['CHANGELOG.md not named'];
    });
  }
  report.check('recording: errors.log still empty at the end', () => errorsLog(store));

  // ---- Disconnect gives back the user's file
  const d = geminiConnector.disconnect(ws);
  report.check("Disconnect gives back the user's settings byte for byte", () =>
    d.changed && fs.readFileSync(projectSettingsPath(ws), 'utf8') === USER_PROJECT_SETTINGS ? [] : ['the file differs'],
  );

  // ---- format drift
  drift(w);
}

function drift(w: GeminiWorld): void {
  const payloads = w.hookLines().map((l) => l.payload);
  const fields = payloadFieldDrift(payloads, KNOWN_PAYLOAD_FIELDS);
  report.note(
    `payload fields: ${fields.unknown.length ? `NOT KNOWN to the adapter: ${fields.unknown.join(', ')}` : 'all known to the adapter'}`,
  );
  const tools = [...new Set(payloads.map((p) => p.tool_name).filter((t): t is string => typeof t === 'string'))];
  const unmapped = tools.filter((t) => geminiToolKind(t, {}).kind === 'other');
  report.note(`tools seen: ${tools.join(', ')}${unmapped.length ? `; not mapped to a kind: ${unmapped.join(', ')}` : ''}`);
  const kinds: Record<string, number> = {};
  const msgFields = new Set<string>();
  for (const f of w.sessionFiles()) {
    const c = readChat(f);
    for (const [k, n] of Object.entries(c.recordKinds)) kinds[k] = (kinds[k] ?? 0) + n;
    for (const m of c.messages) for (const k of Object.keys(m)) if (!KNOWN_MESSAGE_FIELDS.has(k)) msgFields.add(k);
  }
  report.note(`chat record kinds: ${JSON.stringify(kinds)}`);
  if (msgFields.size) report.note(`message fields not known to the reader: ${[...msgFields].join(', ')}`);
  report.check('chat files: every record kind is known to the reader (a new kind could change the conversation)', () =>
    Object.keys(kinds)
      .filter((k) => !KNOWN_RECORD_KINDS.has(k))
      .map((k) => `unknown record kind ${k} (${kinds[k]}×)`),
  );
}

async function main(): Promise<void> {
  const t0 = Date.now();
  ensureBuilt();
  let install: ReturnType<typeof ensureGemini>;
  try {
    install = ensureGemini();
  } catch (e) {
    console.error(`compat: cannot run the real Gemini CLI: ${(e as Error).message}`);
    console.log(`gemini ${process.env.GEMINI_CLI_VERSION || '0.61.0'}: 1 checks, 0 passed, 1 failed`);
    process.exit(1);
  }
  console.log(`Gemini CLI ${install.version} (${install.how}): ${install.bin}`);
  try {
    await scenario(install.bin, install.version);
  } catch (e) {
    report.check('the scenario ran to the end', () => [(e as Error).stack?.split('\n').slice(0, 4).join(' | ') ?? String(e)]);
  }
  const failed = report.results.filter((r) => r.status === 'fail');
  if (failed.length) console.log(['FAILED:', ...failed.map((r) => `  - ${r.name}`)].join('\n'));
  console.log(`(${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`gemini ${install.version}: ${report.results.length} checks, ${report.count('pass')} passed, ${failed.length} failed`);
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
