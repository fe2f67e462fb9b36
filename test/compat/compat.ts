// The compat tier: our hooks, store and CLI against the REAL Claude Code CLI (pinned version, or
// CLAUDE_CODE_VERSION), run offline against our scripted Messages API server. Started by
// test/compat/run.mjs (which bounds its time). Prints every check, then the counts.
//
// Checks that need a capability (shell capture, conversation fork, re-grounding) probe for it
// first; a missing one fails with what the probe found.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KNOWN_PAYLOAD_FIELDS } from '../../src/agents/claude/hookPayload';
import { CHAIN_LINE_TYPES, METADATA_LINE_TYPES } from '../../src/agents/claude/knownFormats';
import { connectClaude, disconnectClaudeFile, readSettingsFile, settingsPath } from '../../src/agents/claude/settings';
import { CONNECT_MARKER } from '../../src/agents/common/hookCommand';
import {
  checkAllAccepted,
  checkEventOrder,
  checkNotUndone,
  checkPromptCheckpoints,
  checkResumedRequest,
  type CheckpointJson,
  lineTypeDrift,
  type NotUndoneJson,
  payloadFieldDrift,
  type Tree,
  treeDiff,
} from './checkers';
import { ensureClaude, repoRoot } from './claudeCli';
import { ensureBuilt } from './build';
import { type RunOutcome, sha256, tree, World } from './harness';
import { startScriptedModel } from './kit/model.mjs';
import { Report } from './report';

const report = new Report();
const allPayloads: Record<string, unknown>[] = [];
const transcriptText: string[] = [];
/** Keeps every transcript line of a world before its temp folder goes. */
function keepTranscripts(w: World): void {
  for (const f of w.transcriptFiles()) transcriptText.push(...fs.readFileSync(f, 'utf8').split('\n'));
}
const observations: string[] = [];
const observe = (s: string) => {
  if (!observations.includes(s)) observations.push(s);
};

const b64 = (s: string) => Buffer.from(s).toString('base64');

function files(t: Tree): string[] {
  return Object.keys(t);
}

function hookOk(r: RunOutcome): string[] {
  const p: string[] = [];
  if (r.run.status !== 0) p.push(`claude exited ${r.run.status}: ${r.run.stderr.slice(0, 400)}`);
  if (r.run.result?.is_error) p.push(`claude reported an error: ${String(r.run.result.result).slice(0, 300)}`);
  if (/did not load|Invalid or malformed JSON/i.test(r.run.stderr))
    p.push(`claude did not load the settings: ${r.run.stderr.slice(0, 400)}`);
  return p;
}

function collect(r: RunOutcome): void {
  for (const c of r.payloads) allPayloads.push(c.payload);
}

function transcriptLines(file: string): Record<string, any>[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
}

/** Runs `claude` and checks the basics every run must satisfy. */
async function step(w: World, label: string, prompt: string, steps: Parameters<World['claude']>[2], resume?: string): Promise<RunOutcome> {
  const r = await w.claude(label, prompt, steps, resume);
  collect(r);
  report.check(`${label}: the real CLI ran, loaded our settings, finished its script (${(r.run.ms / 1000).toFixed(1)} s)`, () => {
    const p = hookOk(r);
    if (w.model.remaining() !== 0) p.push(`${w.model.remaining()} scripted step(s) never requested`);
    return p;
  });
  report.check(`${label}: hook events in the order our recorder relies on`, () => checkEventOrder(r.payloads.map((c) => c.payload)));
  report.check(`${label}: every main-loop request accepted by the (scripted) API`, () => checkAllAccepted(r.requests));
  return r;
}

// ---------------------------------------------------------------------------------- scenario A

const P1 = 'Add a greeting helper with a test, use it in src/app.js, and move the port into config/app.json';
const P2 = 'Commit the greeting work and push it to origin';
const P3 = 'Push to the backup remote as well, and write down what you did in NOTES.md';
const P4 = 'Actually, only keep the greeting helper — what would you do next?';
const P5 = 'Carry on from here';
const P6 = 'Say hello';

const START_FILES = {
  'package.json': '{\n  "name": "greeter",\n  "version": "1.0.0",\n  "scripts": { "test": "node --test" }\n}\n',
  'README.md': '# Demo app\n\nPrints a greeting.\n',
  'src/app.js': "const { pad } = require('./util');\n\nconsole.log('hello');\n",
  'src/util.js': 'exports.pad = (s) => ` ${s} `;\n',
  '.gitignore': 'node_modules/\nbuild/\n*.log\n.claude/settings.local.json\n',
  'build/out.js': '// generated, ignored\n',
  'app.log': 'boot\n',
};
const IGNORED = ['build/out.js', 'app.log'];

async function scenarioSession(bin: string): Promise<void> {
  report.begin('A. multi-turn session: Write, Edit, shell edits, commit, push (local remote), failing push');
  const failsBefore = report.count('fail');
  const model = await startScriptedModel({ wire: 'anthropic' });
  const w = new World('session', bin, model, { hostilePaths: true });
  model.setLog(w.requestLog);
  try {
    await runSessionScenario(w);
  } finally {
    keepTranscripts(w);
    await model.close();
    if (report.count('fail') === failsBefore) w.cleanup();
    else console.log(`   (kept ${w.root} for inspection)`);
  }
}

async function runSessionScenario(w: World): Promise<void> {
  const ws = w.ws;
  const remote = path.join(w.root, 'remote.git');
  w.initRepo(START_FILES);
  w.git(['init', '-q', '--bare', remote], w.root);
  w.git(['remote', 'add', 'origin', remote]);
  w.git(['push', '-q', 'origin', 'main']);
  const head0 = w.git(['rev-parse', 'HEAD']);

  const userText = w.writeUserSettings();
  const c1 = w.connect();
  report.check("Connect merges into the user's settings (their permission rule and hook kept)", () => {
    const t = readSettingsFile(settingsPath(ws))!;
    const j = JSON.parse(t);
    const p: string[] = [];
    if (!c1.changed) p.push('connect reported no change');
    if (JSON.stringify(j.permissions) !== JSON.stringify(JSON.parse(userText).permissions)) p.push('permissions changed');
    if (!j.hooks.PostToolUse.some((g: any) => g.matcher === 'Write|Edit')) p.push("the user's PostToolUse hook is gone");
    if (c1.problems.length) p.push(`settings problems: ${c1.problems.join(', ')}`);
    return p;
  });
  report.check('Connect twice changes nothing (idempotent on the real file)', () =>
    w.connect().changed ? ['second connect changed the file'] : [],
  );
  w.addCaptureHook();

  const T0 = tree(ws);
  const greet = 'exports.greet = (name) => `Hello, ${name}!`;\n';
  const greetTest =
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('../src/greet');\n\ntest('greets', () => assert.equal(greet('Ana'), 'Hello, Ana!'));\n";
  const r1 = await step(w, 'run 1 (new session)', P1, [
    {
      tool_uses: [
        { name: 'Write', input: { file_path: path.join(ws, 'src/greet.js'), content: greet } },
        { name: 'Write', input: { file_path: path.join(ws, 'test/greet.test.js'), content: greetTest } },
      ],
      text: 'I will add the helper and its test.',
    },
    {
      tool_use: {
        name: 'Edit',
        input: {
          file_path: path.join(ws, 'src/app.js'),
          old_string: "const { pad } = require('./util');\n\nconsole.log('hello');",
          new_string: "const { greet } = require('./greet');\n\nconsole.log(greet('world'));",
        },
      },
    },
    {
      tool_use: {
        name: 'Bash',
        input: {
          command:
            "mkdir -p config && printf '{\\n  \"port\": 8080\\n}\\n' > config/app.json && sed -i 's/Demo app/Greeting app/' README.md && echo started >> app.log && rm src/util.js",
          description: 'Write the config, rename the app in the README, drop the unused util',
        },
      },
    },
    { text: 'Added src/greet.js with a test, used it in src/app.js, and moved the port into config/app.json.' },
  ]);
  const session = r1.session;
  const T1 = tree(ws);
  observe(
    `event order, run 1 (two parallel Writes, an Edit, a Bash): ${r1.payloads.map((c) => String(c.payload.hook_event_name).replace('ToolUse', '') + (c.payload.tool_name ? `(${c.payload.tool_name})` : '')).join(' ')}`,
  );
  report.check("run 1: the agent's effects happened on disk (so the rest tests something)", () => {
    const p: string[] = [];
    if (T1['src/greet.js'] !== b64(greet)) p.push('src/greet.js not written');
    if (!T1['config/app.json']) p.push('config/app.json not created by the shell');
    if (T1['src/util.js']) p.push('src/util.js not deleted by the shell');
    if (T1['app.log'] !== b64('boot\nstarted\n')) p.push('app.log not appended');
    return p;
  });

  const r2 = await step(
    w,
    'run 2 (--resume)',
    P2,
    [
      {
        tool_use: {
          name: 'Bash',
          input: {
            command: 'git add -A && git -c user.name=Agent -c user.email=agent@example.com commit -q -m "Add greeting helper"',
            description: 'Commit',
          },
        },
      },
      {
        tool_use: {
          name: 'Bash',
          input: { command: `git -C ${ws} -c user.name=Agent push -q origin HEAD:main`, description: 'Push to origin' },
        },
      },
      {
        tool_use: {
          name: 'Edit',
          input: {
            file_path: path.join(ws, 'README.md'),
            old_string: 'Prints a greeting.',
            new_string: 'Prints a greeting.\n\nRun `node src/app.js`.',
          },
        },
      },
      { text: 'Committed and pushed to origin/main.' },
    ],
    session,
  );
  const T2 = tree(ws);
  const head1 = w.git(['rev-parse', 'HEAD']);
  report.check('run 2: the commit and the push really happened', () => {
    const p: string[] = [];
    if (head1 === head0) p.push('no new commit');
    if (w.git(['rev-parse', 'main'], remote) !== head1) p.push('the remote did not receive the commit');
    return p;
  });

  const r3 = await step(
    w,
    'run 3 (--resume)',
    P3,
    [
      { tool_use: { name: 'Bash', input: { command: 'git push backup main', description: 'Push to backup' } } },
      {
        tool_use: {
          name: 'Write',
          input: {
            file_path: path.join(ws, 'NOTES.md'),
            content: '# Notes\n\nPushed to origin; the backup remote is not configured yet.\n',
          },
        },
      },
      { tool_use: { name: 'Edit', input: { file_path: path.join(ws, 'src/greet.js'), old_string: 'Hello', new_string: 'Hi' } } },
      { text: 'The backup remote does not exist; I noted it in NOTES.md.' },
    ],
    session,
  );
  const T3 = tree(ws);
  const runs = [r1, r2, r3];
  const transcript = String(r1.payloads.find((c) => c.payload.transcript_path)?.payload.transcript_path ?? w.transcriptOf(session));

  // ---- what the real CLI sent our hooks
  report.check('--resume keeps the session id; transcript_path is the documented location', () => {
    const p: string[] = [];
    if (!session) p.push('no session id');
    for (const r of runs) if (r.session !== session) p.push(`${r.label} ran as session ${r.session}`);
    if (transcript !== w.transcriptOf(session)) p.push(`transcript_path ${transcript}, expected ${w.transcriptOf(session)}`);
    if (!fs.existsSync(transcript)) p.push('transcript file missing');
    return p;
  });
  report.check('SessionStart source is startup, then resume', () => {
    const src = runs.map((r) => r.payloads.find((c) => c.payload.hook_event_name === 'SessionStart')?.payload.source);
    return src.join(',') === 'startup,resume,resume' ? [] : [`sources: ${src.join(',')}`];
  });
  report.check('the failing push fires PostToolUseFailure (with the error), the good push PostToolUse', () => {
    const all = runs.flatMap((r) => r.payloads.map((c) => c.payload));
    const post = (needle: string) =>
      all.filter((p) => String((p.tool_input as any)?.command ?? '').includes(needle) && p.hook_event_name !== 'PreToolUse');
    const bad = post('push backup');
    const good = post('push -q origin');
    const p: string[] = [];
    if (bad.length !== 1 || bad[0]!.hook_event_name !== 'PostToolUseFailure')
      p.push(`failing push: ${bad.map((x) => x.hook_event_name).join(',') || 'no post event'}`);
    else if (!/backup/.test(String(bad[0]!.error))) p.push(`error field: ${JSON.stringify(bad[0]!.error)}`);
    if (good.length !== 1 || good[0]!.hook_event_name !== 'PostToolUse')
      p.push(`good push: ${good.map((x) => x.hook_event_name).join(',')}`);
    if (bad[0])
      observe(
        `failed Bash → PostToolUseFailure with fields: ${Object.keys(bad[0]).sort().join(', ')}; error starts "${String(bad[0].error).split('\n')[0]}"`,
      );
    return p;
  });
  report.check('hooks run in the workspace with CLAUDE_PROJECT_DIR set; our hooks wrote no errors', () => {
    const p: string[] = [];
    const c = r1.payloads[0];
    if (!c) return ['no payload captured'];
    if (c.cwd !== ws) p.push(`hook cwd ${c.cwd}`);
    if (c.env.CLAUDE_PROJECT_DIR !== ws) p.push(`CLAUDE_PROJECT_DIR=${c.env.CLAUDE_PROJECT_DIR}`);
    observe(`hook environment carries: ${Object.keys(c.env).sort().join(', ')}`);
    const summaries = transcriptLines(transcript).filter((l) => l.type === 'system' && l.subtype === 'stop_hook_summary');
    for (const s of summaries)
      if (Array.isArray(s.hookErrors) && s.hookErrors.length)
        p.push(`hook errors in transcript: ${JSON.stringify(s.hookErrors).slice(0, 300)}`);
    const errs = w.errorsLog();
    if (errs.trim()) p.push(`errors.log: ${errs.slice(0, 500)}`);
    return p;
  });
  report.check('tool_use_id and prompt_id in payloads match the transcript', () => {
    const lines = transcriptLines(transcript);
    const ids = new Set(
      lines
        .filter((l) => l.type === 'assistant')
        .flatMap((l) => (l.message?.content ?? []).filter((b: any) => b.type === 'tool_use').map((b: any) => b.id)),
    );
    const promptIds = new Set(lines.filter((l) => l.type === 'user' && l.promptId).map((l) => l.promptId));
    const p: string[] = [];
    for (const r of runs)
      for (const c of r.payloads) {
        const id = c.payload.tool_use_id;
        if (typeof id === 'string' && !ids.has(id)) p.push(`tool_use_id ${id} not in the transcript`);
        const pid = c.payload.prompt_id;
        if (c.payload.hook_event_name === 'UserPromptSubmit' && (typeof pid !== 'string' || !promptIds.has(pid)))
          p.push(`prompt_id ${pid} not in the transcript`);
      }
    return p;
  });
  report.check("the user's own hook (kept by Connect) still ran for every Write/Edit", () => {
    const n = fs.existsSync(w.userHookLog) ? fs.readFileSync(w.userHookLog, 'utf8').split('\n').filter(Boolean).length : 0;
    return n === 6 ? [] : [`the user's hook ran ${n} time(s), expected 6 (4 Write + 2 Edit... see runs)`];
  });
  report.check('hostile store/CLI paths were quoted: the store is where the command says, nothing ran from a path', () => {
    const p: string[] = [];
    if (!fs.existsSync(path.join(w.store, 'files.jsonl'))) p.push(`no files.jsonl in ${w.store}`);
    for (const d of [ws, w.root, w.home]) if (fs.existsSync(path.join(d, 'pwned'))) p.push(`a command substitution ran in ${d}`);
    return p;
  });

  // ---- what we recorded
  const cps = w.arJson<CheckpointJson[]>(['checkpoints']);
  const prompts = cps.filter((c) => c.kind === 'prompt');
  report.check('one checkpoint per real prompt, labelled with the prompt text, in order', () =>
    checkPromptCheckpoints(cps, [P1, P2, P3], session),
  );
  report.check('a session-start checkpoint per run; before-tool checkpoints before the commit and both pushes', () => {
    const p: string[] = [];
    const starts = cps.filter((c) => c.kind === 'session-start');
    if (starts.length !== 3) p.push(`${starts.length} session-start checkpoints`);
    const bt = cps.filter((c) => c.kind === 'before-tool').map((c) => c.label);
    for (const needle of ['commit -q -m', 'push -q origin', 'push backup'])
      if (!bt.some((l) => l.startsWith('Bash: ') && l.includes(needle)))
        p.push(`no before-tool checkpoint for ${needle} (have: ${bt.join(' ; ')})`);
    return p;
  });
  report.check('store verifies; the P1 span lists the files the agent wrote', () => {
    const v = w.ar(['verify', '--json']);
    const p: string[] = [];
    if (v.status !== 0) p.push(`verify exited ${v.status}: ${v.stdout.slice(0, 300)}`);
    if (!prompts[0] || !(prompts[0].files! > 0)) p.push(`P1 checkpoint lists ${prompts[0]?.files} files`);
    return p;
  });

  const records = w.records();
  const shellCapture = records.some((r) => r.t === 'snap' && (r.tool === 'Bash' || r.tool === 'PowerShell'));
  report.note(`shell capture in the store: ${shellCapture ? 'yes (snapshots with tool Bash)' : 'not yet (no snapshot with tool Bash)'}`);
  const agentOnly = ['src/greet.js', 'test/greet.test.js', 'src/app.js', 'NOTES.md']; // only Write/Edit touch these
  const shellTouched = ['config/app.json', 'README.md', 'src/util.js'];
  const everything = [...new Set([...files(T0), ...files(T1), ...files(T2), ...files(T3)])].filter((f) => !IGNORED.includes(f));
  if (shellCapture) {
    report.check("shell capture: the command's created/edited/deleted files are recorded, ignored files are not", () => {
      const paths = new Set(records.filter((r) => r.t === 'snap' && r.tool === 'Bash').map((r) => path.relative(ws, r.path)));
      const p: string[] = [];
      for (const f of shellTouched) if (!paths.has(f)) p.push(`${f} not recorded`);
      for (const f of IGNORED) if (records.some((r) => r.t === 'snap' && r.path === path.join(ws, f))) p.push(`ignored ${f} was recorded`);
      return p;
    });
  } else
    report.missing(
      "shell capture: the command's created/edited/deleted files are recorded, ignored files are not",
      'no snapshot with tool "Bash" in the store (shell capture not landed)',
    );

  // ---- rewinding files to each prompt, then undoing
  const before = [T0, T1, T2];
  for (let i = prompts.length - 1; i >= 0; i--) {
    const cp = prompts[i]!;
    const want = before[i]!;
    const name = `P${i + 1}`;
    const plan = w.arJson<{ files: { path: string; action: string }[]; notUndone: NotUndoneJson[]; blocked: unknown[] }>([
      'plan',
      '--to',
      cp.id,
    ]);
    report.check(`plan --to ${name}: files to write and their actions match what the agent did`, () => {
      const p: string[] = [];
      const planned = new Map(plan.files.map((f) => [path.relative(ws, f.path), f.action]));
      for (const f of agentOnly) {
        const was = want[f];
        const now = T3[f];
        if (was === now) {
          if (planned.has(f)) p.push(`${f} planned (${planned.get(f)}) but unchanged since ${name}`);
          continue;
        }
        const action = was === undefined ? 'delete' : now === undefined ? 'recreate' : 'restore';
        if (planned.get(f) !== action) p.push(`${f}: planned ${planned.get(f) ?? 'nothing'}, expected ${action}`);
      }
      for (const f of IGNORED) if (planned.has(f)) p.push(`ignored ${f} is planned`);
      if (plan.blocked.length) p.push(`blocked: ${JSON.stringify(plan.blocked)}`);
      return p;
    });
    const rw = w.ar(['rewind', '--to', cp.id, '--json']);
    const res = rw.status === 0 ? JSON.parse(rw.stdout) : null;
    const now = tree(ws);
    report.check(`rewind files to ${name}: Write/Edit files byte-exact as before that prompt`, () => {
      if (!res) return [`rewind exited ${rw.status}: ${rw.stderr.slice(0, 400)}`];
      const p = treeDiff(want, now, agentOnly);
      if (res.files.some((f: any) => !f.ok)) p.push(`not ok: ${JSON.stringify(res.files.filter((f: any) => !f.ok))}`);
      return p;
    });
    report.check(`rewind files to ${name}: ignored and never-touched files left alone`, () =>
      treeDiff(T3, now, [...IGNORED, 'package.json', '.gitignore']),
    );
    if (shellCapture)
      report.check(`rewind files to ${name}: shell-made changes undone too (the whole tree as before ${name})`, () =>
        treeDiff(want, now, everything),
      );
    else
      report.missing(
        `rewind files to ${name}: shell-made changes undone too (the whole tree as before ${name})`,
        'shell capture not landed',
      );
    if (res && res.status !== 'nothing') {
      const undo = w.ar(['rewind', '--to', res.checkpoint, '--json']);
      report.check(`undo the rewind to ${name}: every file back as the agent left it`, () =>
        undo.status !== 0
          ? [`undo exited ${undo.status}: ${undo.stderr.slice(0, 300)}`]
          : treeDiff(T3, tree(ws), [...everything, ...IGNORED]),
      );
    }
  }

  // ---- what will not be undone
  const commitComp = `git -C ${ws} reset --soft ${head0}`;
  const planAt = (i: number) => w.arJson<{ notUndone: NotUndoneJson[] }>(['plan', '--to', prompts[i]!.id]).notUndone;
  report.check('plan --to P2 lists the commit (with its compensation), the push with global options, and the failed push', () =>
    checkNotUndone(planAt(1), [
      { summary: ['git -c user.name=Agent', 'commit'], effect: 'compensatable', compensation: commitComp },
      { summary: [`git -C ${ws} -c user.name=Agent push`], effect: 'irreversible' },
      { summary: ['git push backup main'], effect: 'irreversible' },
    ]),
  );
  report.check('plan --to P1 lists the same and not the local shell command of turn 1', () =>
    checkNotUndone(
      planAt(0),
      [
        { summary: ['commit'], effect: 'compensatable' },
        { summary: ['push -q origin'], effect: 'irreversible' },
        { summary: ['push backup'], effect: 'irreversible' },
      ],
      ['mkdir -p config'],
    ),
  );
  report.check('plan --to P3 lists only the failed push (the commit and push happened before P3)', () =>
    checkNotUndone(planAt(2), [{ summary: ['git push backup main'], effect: 'irreversible' }], ['commit', 'push -q origin']),
  );
  {
    const failed = planAt(2).find((n) => n.summary.includes('push backup'));
    if (failed)
      observe(
        `a push that FAILED (PostToolUseFailure) is still listed as "not undone" (${failed.effect}/${failed.severity}); nothing was sent`,
      );
  }

  // ---- transcript line types
  report.check('transcript: every line is JSON; chain lines carry uuid/parentUuid/sessionId', () => {
    const p: string[] = [];
    const raw = fs
      .readFileSync(transcript, 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    for (const l of raw) {
      try {
        const j = JSON.parse(l);
        if (typeof j.uuid === 'string' && (!('parentUuid' in j) || j.sessionId !== session))
          p.push(`chain line ${j.type} ${j.uuid} lacks parentUuid or sessionId`);
      } catch {
        p.push(`not JSON: ${l.slice(0, 80)}`);
      }
    }
    return p;
  });

  await conversationChecks(w, {
    transcript,
    session,
    prompts: [P1, P2, P3],
    runs,
    ws,
    T3,
    pushSummary: `git -C ${ws} -c user.name=Agent push -q origin HEAD:main`,
  });

  // ---- disconnect: ours gone, the user's and the capture hooks still run
  const beforeDisconnect = w.records().length;
  const d = disconnectClaudeFile(ws);
  const left = readSettingsFile(settingsPath(ws)) ?? '';
  const r6 = await w.claude('run after Disconnect', P6, [{ text: 'Hello!' }]);
  collect(r6);
  report.check('Disconnect removes our entries only: the next run records nothing, other hooks still fire', () => {
    const p: string[] = [];
    if (!d.changed) p.push('disconnect changed nothing');
    if (left.includes(CONNECT_MARKER)) p.push('marker still in the file');
    if (!left.includes('Write|Edit')) p.push("the user's hook was removed");
    p.push(...hookOk(r6));
    if (w.records().length !== beforeDisconnect) p.push(`${w.records().length - beforeDisconnect} record(s) added after Disconnect`);
    if (r6.payloads.length === 0) p.push('the capture hook did not fire (settings broken?)');
    if (connectClaude(left, w.hook) === left) p.push('connect on the disconnected file would change nothing');
    return p;
  });
}

interface ConvCtx {
  transcript: string;
  session: string;
  prompts: string[];
  runs: RunOutcome[];
  ws: string;
  T3: Tree;
  pushSummary: string;
}

/** Probes our hook for SessionStart output on a COPY of the store (the probe records a checkpoint). */
function probeReground(w: World, payload: Record<string, unknown>): string {
  const copy = path.join(w.root, `probe-${Date.now()}`);
  fs.cpSync(w.store, copy, { recursive: true });
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'hook', 'claude', '--store', copy], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 30000,
  });
  fs.rmSync(copy, { recursive: true, force: true });
  const out = (r.stdout ?? '').trim();
  if (!out) return '';
  try {
    const j = JSON.parse(out);
    return String(j?.hookSpecificOutput?.additionalContext ?? out);
  } catch {
    return out;
  }
}

function parseJson<T>(r: { status: number; stdout: string }): T | null {
  if (r.status !== 0) return null;
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    return null;
  }
}

async function conversationChecks(w: World, c: ConvCtx): Promise<void> {
  const show = w.ar(['conversation', 'show', '--transcript', c.transcript, '--json']);
  const names = [
    'conversation show: the real prompts, in order, with their tool calls and effects',
    'conversation fork --before P2: new transcript beside the parent, 0600, sessionId rewritten, parent byte-identical',
    'resumed fork: the model gets exactly turn 1 + the new prompt, no unanswered tool call',
    'conversation fork --before the first prompt, or before a non-prompt line: refused (exit 4), nothing written',
    're-grounding after a conversation rewind reaches the model (kept files, pushes already done)',
    're-grounding after a files-only rewind reaches the model (reverted files)',
  ];
  if (show.status === 2 || /not built yet/i.test(show.stderr)) {
    for (const n of names)
      report.missing(n, `\`conversation show\` not available yet (exit ${show.status}: ${show.stderr.trim().slice(0, 120)})`);
    return;
  }
  type Shown = {
    session: string;
    prompts: { uuid: string; text: string; time: string; tools: { id: string; name: string; effect: string }[] }[];
  };
  const shown = parseJson<Shown>(show);
  report.check(names[0]!, () => {
    if (!shown) return [`exit ${show.status}: ${show.stderr.slice(0, 300)} ${show.stdout.slice(0, 200)}`];
    const s = shown;
    const p: string[] = [];
    if (s.session !== c.session) p.push(`session ${s.session}`);
    const texts = s.prompts.map((x) => x.text);
    if (JSON.stringify(texts) !== JSON.stringify(c.prompts)) p.push(`prompts ${JSON.stringify(texts)}`);
    const userUuids = new Set(
      transcriptLines(c.transcript)
        .filter((l) => l.type === 'user')
        .map((l) => l.uuid),
    );
    for (const x of s.prompts) {
      if (!userUuids.has(x.uuid)) p.push(`uuid ${x.uuid} is not a user line`);
      if (Number.isNaN(Date.parse(x.time)) || !/T.*Z$/.test(x.time)) p.push(`time ${x.time} not ISO 8601`);
    }
    // The local shell command of turn 1 only changes workspace files: `none`, or `rewindable` once
    // shell capture records it — never listed as not undone.
    const tools = s.prompts.map((x) =>
      x.tools
        .map((t) => `${t.name}:${t.name === 'Bash' && (t.effect === 'none' || t.effect === 'rewindable') ? 'local' : t.effect}`)
        .join(','),
    );
    const want = [
      'Write:rewindable,Write:rewindable,Edit:rewindable,Bash:local',
      'Bash:compensatable,Bash:irreversible,Edit:rewindable',
      'Bash:irreversible,Write:rewindable,Edit:rewindable',
    ];
    want.forEach((t, i) => {
      if (tools[i] !== t) p.push(`prompt ${i + 1} tools ${tools[i]}, expected ${t} (local = none or rewindable)`);
    });
    return p;
  });
  const s = shown;
  if (!s || s.prompts.length < 3) {
    for (const n of names.slice(1)) report.check(n, () => ['conversation show failed; nothing to fork']);
    return;
  }
  const parentHash = sha256(c.transcript);
  const dir = path.dirname(c.transcript);
  const listing = () => fs.readdirSync(dir).sort().join(',');
  const fork = w.ar(['conversation', 'fork', '--transcript', c.transcript, '--before', s.prompts[1]!.uuid, '--json']);
  const forked = parseJson<{ session: string; transcript: string; parent: string; resume: string }>(fork);
  report.check(names[1]!, () => {
    if (!forked) return [`exit ${fork.status}: ${fork.stderr.slice(0, 300)} ${fork.stdout.slice(0, 200)}`];
    const f = forked;
    const p: string[] = [];
    if (f.parent !== c.session) p.push(`parent ${f.parent}`);
    if (f.resume !== `claude --resume ${f.session}`) p.push(`resume ${f.resume}`);
    if (f.transcript !== path.join(dir, `${f.session}.jsonl`)) p.push(`transcript ${f.transcript}`);
    if (!fs.existsSync(f.transcript)) return [...p, 'fork file missing'];
    if ((fs.statSync(f.transcript).mode & 0o777) !== 0o600) p.push(`mode ${(fs.statSync(f.transcript).mode & 0o777).toString(8)}`);
    if (sha256(c.transcript) !== parentHash) p.push('parent changed');
    const lines = transcriptLines(f.transcript);
    for (const l of lines) if ('sessionId' in l && l.sessionId !== f.session) p.push(`a ${l.type} line keeps sessionId ${l.sessionId}`);
    const kinds = new Set(lines.map((l) => l.type));
    for (const k of ['progress', 'summary', 'last-prompt', 'queue-operation', 'file-history-snapshot'])
      if (kinds.has(k)) p.push(`fork keeps ${k} lines`);
    const texts = JSON.stringify(lines);
    if (texts.includes(c.prompts[1]!) || texts.includes('NOTES.md')) p.push('fork contains discarded turns');
    return p;
  });
  const f = forked;
  if (f) {
    const probe = probeReground(w, {
      session_id: f.session,
      transcript_path: f.transcript,
      cwd: c.ws,
      hook_event_name: 'SessionStart',
      source: 'resume',
    });
    const r4 = await step(
      w,
      'run 4 (--resume the fork)',
      P4,
      [{ text: 'Only the greeting helper remains in this conversation.' }],
      f.session,
    );
    const first = r4.requests[0];
    report.check(names[2]!, () => {
      const p = checkResumedRequest(first, {
        userTexts: [c.prompts[0]!, P4],
        forbidden: [c.prompts[1]!, c.prompts[2]!],
        toolNames: ['Write', 'Write', 'Edit', 'Bash'],
      });
      if (sha256(c.transcript) !== parentHash) p.push('resuming the fork changed the parent transcript');
      if (r4.session !== f.session) p.push(`resumed as ${r4.session}`);
      return p;
    });
    if (!probe) report.missing(names[4]!, 'our SessionStart hook prints no context for the forked session (re-grounding not landed)');
    else
      report.check(names[4]!, () => {
        const text = first?.text ?? '';
        const p: string[] = [];
        const line =
          probe
            .split('\n')
            .map((x) => x.trim())
            .sort((a, b) => b.length - a.length)[0] ?? '';
        if (!text.includes(line)) p.push(`the model did not receive our context (looked for ${JSON.stringify(line.slice(0, 80))})`);
        // Wording-free facts: the discarded turns' files are named, the kept turn's are not (they
        // hold exactly what this conversation remembers), and the pushes are there.
        for (const f of ['NOTES.md', 'README.md', 'src/greet.js'])
          if (!probe.includes(path.join(c.ws, f))) p.push(`the context does not name ${f} (changed in a discarded turn, still on disk)`);
        for (const f of ['src/app.js', 'test/greet.test.js', 'config/app.json']) {
          if (probe.includes(path.join(c.ws, f)))
            p.push(
              `the context names ${f}, which holds exactly what the kept turn left: ${JSON.stringify(probe.split('\n').find((l) => l.includes(path.join(c.ws, f))))}`,
            );
        }
        if (!probe.includes(c.pushSummary)) p.push('the context does not mention the push that already happened');
        if (!probe.includes('git push backup main')) p.push('the context does not mention the failed push of the discarded turns');
        return p;
      });
  }
  report.check(names[3]!, () => {
    const p: string[] = [];
    const before = listing();
    const a = w.ar(['conversation', 'fork', '--transcript', c.transcript, '--before', s.prompts[0]!.uuid, '--json']);
    if (a.status !== 4) p.push(`before the first prompt: exit ${a.status}`);
    const asst = transcriptLines(c.transcript).find((l) => l.type === 'assistant');
    const b = w.ar(['conversation', 'fork', '--transcript', c.transcript, '--before', asst?.uuid ?? 'x', '--json']);
    if (b.status !== 4) p.push(`before an assistant line: exit ${b.status}`);
    if (listing() !== before) p.push('a refused fork wrote a file');
    if (sha256(c.transcript) !== parentHash) p.push('parent changed');
    return p;
  });

  // Files-only rewind to P3 (reverts NOTES.md and the greet.js edit), then resume the original session.
  const cps = w.arJson<CheckpointJson[]>(['checkpoints']).filter((x) => x.kind === 'prompt' && x.session === c.session);
  const p3 = cps[2];
  if (!p3) {
    report.check(names[5]!, () => ['no P3 checkpoint']);
    return;
  }
  const rw = w.ar(['rewind', '--to', p3.id, '--json']);
  if (rw.status !== 0) {
    report.check(names[5]!, () => [`rewind to P3 exited ${rw.status}: ${rw.stderr.slice(0, 300)}`]);
    return;
  }
  const probe = probeReground(w, {
    session_id: c.session,
    transcript_path: c.transcript,
    cwd: c.ws,
    hook_event_name: 'SessionStart',
    source: 'resume',
  });
  const r5 = await step(w, 'run 5 (--resume after a files-only rewind)', P5, [{ text: 'I will re-read the files first.' }], c.session);
  if (!probe) report.missing(names[5]!, 'our SessionStart hook prints no context after a files-only rewind (not landed)');
  else
    report.check(names[5]!, () => {
      const text = r5.requests[0]?.text ?? '';
      const p: string[] = [];
      if (!text.includes('NOTES.md')) p.push('the model was not told NOTES.md was reverted');
      return p;
    });
}

// ---------------------------------------------------------------------------------- scenario B

async function scenarioNoRemote(bin: string): Promise<void> {
  report.begin('B. no remote: first commit, pushes that fail (plain, with global options, chained after a commit)');
  const failsBefore = report.count('fail');
  const model = await startScriptedModel({ wire: 'anthropic' });
  const w = new World('noremote', bin, model);
  model.setLog(w.requestLog);
  try {
    w.initRepo({ 'index.js': "console.log('v1');\n", '.gitignore': '.claude/\n' }, { commit: false });
    w.connect();
    w.addCaptureHook();
    const P = 'Save my work: commit everything and push it';
    const r = await step(w, 'run 1', P, [
      { tool_use: { name: 'Write', input: { file_path: path.join(w.ws, 'notes.txt'), content: 'remember the milk\n' } } },
      {
        tool_use: {
          name: 'Bash',
          input: {
            command: 'git add -A && git -c user.name=x -c user.email=x@example.com commit -q -m first',
            description: 'First commit',
          },
        },
      },
      { tool_use: { name: 'Bash', input: { command: `git -C ${w.ws} -c user.name=x push`, description: 'Push' } } },
      { tool_use: { name: 'Edit', input: { file_path: path.join(w.ws, 'index.js'), old_string: 'v1', new_string: 'v2' } } },
      {
        tool_use: {
          name: 'Bash',
          input: {
            command: 'git add -A && git -c user.name=x -c user.email=x@example.com commit -q -m second && git push',
            description: 'Commit and push',
          },
        },
      },
      { text: 'Committed twice; there is no remote to push to.' },
    ]);
    report.check('both pushes fail with PostToolUseFailure; the commits happened', () => {
      const p: string[] = [];
      const posts = r.payloads.map((c) => c.payload).filter((x) => x.tool_name === 'Bash' && x.hook_event_name !== 'PreToolUse');
      const ev = posts.map((x) => x.hook_event_name).join(',');
      if (ev !== 'PostToolUse,PostToolUseFailure,PostToolUseFailure') p.push(`Bash post events: ${ev}`);
      const count = w.git(['rev-list', '--count', 'HEAD']);
      if (count !== '2') p.push(`${count} commit(s)`);
      return p;
    });
    const cps = w.arJson<CheckpointJson[]>(['checkpoints']);
    report.check('one prompt checkpoint labelled with the prompt', () => checkPromptCheckpoints(cps, [P], r.session));
    const prompt = cps.find((c) => c.kind === 'prompt');
    if (!prompt) return;
    const plan = w.arJson<{ notUndone: NotUndoneJson[]; files: { path: string; action: string }[] }>(['plan', '--to', prompt.id]);
    report.check('notUndone: the first commit (un-commit compensation), the -C/-c push, the chained commit+push', () =>
      checkNotUndone(plan.notUndone, [
        { summary: ['commit -q -m first'], effect: 'compensatable', compensation: `git -C ${w.ws} update-ref -d HEAD` },
        { summary: [`git -C ${w.ws} -c user.name=x push`], effect: 'irreversible' },
        { summary: ['commit -q -m second', 'git push'], effect: 'irreversible' },
      ]),
    );
    const chained = plan.notUndone.find((n) => n.summary.includes('-m second'));
    if (chained && !chained.compensation)
      observe(
        "a chained `git commit … && git push` is listed once, as irreversible, without the commit's compensation (the chain takes its worst part)",
      );
    const rw = w.ar(['rewind', '--to', prompt.id, '--json']);
    report.check('rewind to the prompt: notes.txt deleted, index.js back to v1, .git untouched', () => {
      const p: string[] = [];
      if (rw.status !== 0) return [`rewind exited ${rw.status}: ${rw.stderr.slice(0, 300)}`];
      if (fs.existsSync(path.join(w.ws, 'notes.txt'))) p.push('notes.txt still there');
      if (fs.readFileSync(path.join(w.ws, 'index.js'), 'utf8') !== "console.log('v1');\n") p.push('index.js not restored');
      if (w.git(['rev-list', '--count', 'HEAD']) !== '2') p.push('git history changed');
      return p;
    });
    report.check('no errors logged by our hook', () => (w.errorsLog().trim() ? [w.errorsLog().slice(0, 500)] : []));
  } finally {
    keepTranscripts(w);
    await model.close();
    if (report.count('fail') === failsBefore) w.cleanup();
    else console.log(`   (kept ${w.root} for inspection)`);
  }
}

// ---------------------------------------------------------------------------------- scenario D

async function scenarioEdges(bin: string): Promise<void> {
  report.begin('C. edges: an Edit that fails validation, a denied tool, a Write outside the workspace');
  const failsBefore = report.count('fail');
  const model = await startScriptedModel({ wire: 'anthropic' });
  const w = new World('edges', bin, model);
  model.setLog(w.requestLog);
  try {
    w.initRepo({ 'a.txt': 'a0\n' });
    w.connect();
    w.addCaptureHook();
    const outside = path.join(w.root, 'outside.txt'); // beside the workspace, inside the temp world
    const P = 'Try a few things';
    const r = await w.claude('run 1', P, [
      { tool_use: { name: 'Edit', input: { file_path: path.join(w.ws, 'a.txt'), old_string: 'not there', new_string: 'x' } } },
      { tool_use: { name: 'WebFetch', input: { url: 'http://127.0.0.1:9/x', prompt: 'read it' } } },
      { tool_use: { name: 'Write', input: { file_path: outside, content: 'written outside\n' } } },
      { tool_use: { name: 'Edit', input: { file_path: path.join(w.ws, 'a.txt'), old_string: 'a0', new_string: 'a1' } } },
      { text: 'Done.' },
    ]);
    collect(r);
    const events = r.payloads.map((c) => `${c.payload.hook_event_name}${c.payload.tool_name ? `(${c.payload.tool_name})` : ''}`);
    observe(
      `an Edit whose old_string is not in the file fires no hook at all; a tool denied in -p mode (WebFetch) fires PreToolUse and nothing after it; events: ${events.join(' ')}`,
    );
    report.check('the run finished; our hook logged no error for the denied call or the outside write', () => [
      ...hookOk(r),
      ...(w.errorsLog().trim() ? [w.errorsLog().slice(0, 400)] : []),
    ]);
    report.check('a denied call leaves a PreToolUse without Post: recorded as a call, no snapshot', () => {
      const p: string[] = [];
      if (events.filter((e) => e.endsWith('(WebFetch)')).join(',') !== 'PreToolUse(WebFetch)')
        p.push(`WebFetch events: ${events.filter((e) => e.includes('WebFetch')).join(',')}`);
      if (!w.records().some((x) => x.t === 'call' && x.tool === 'WebFetch')) p.push('no call line for the denied WebFetch');
      // Two Edits were called; only the valid one reaches the hooks (the other fails validation first).
      if (events.filter((e) => e === 'PreToolUse(Edit)').length !== 1)
        p.push(`PreToolUse(Edit) fired ${events.filter((e) => e === 'PreToolUse(Edit)').length} time(s), expected 1`);
      return p;
    });
    const prompt = w.arJson<CheckpointJson[]>(['checkpoints']).find((c) => c.kind === 'prompt');
    const plan = prompt
      ? w.arJson<{ files: { path: string }[]; notRestorable: { path: string; reason: string }[] }>(['plan', '--to', prompt.id])
      : null;
    report.check('plan: a file written outside the workspace is reported as not restorable, never written', () => {
      if (!plan) return ['no prompt checkpoint'];
      const p: string[] = [];
      if (plan.files.some((f) => f.path === outside)) p.push('the outside file is planned for writing');
      const n = plan.notRestorable.find((x) => x.path === outside);
      if (!n) p.push(`not listed as not restorable: ${JSON.stringify(plan.notRestorable)}`);
      else if (n.reason !== 'outside-workspace') p.push(`reason ${n.reason}`);
      if (!plan.files.some((f) => f.path === path.join(w.ws, 'a.txt'))) p.push('a.txt (edited in the workspace) is not planned');
      return p;
    });
  } finally {
    keepTranscripts(w);
    await model.close();
    if (report.count('fail') === failsBefore) w.cleanup();
    else console.log(`   (kept ${w.root} for inspection)`);
  }
}

// ---------------------------------------------------------------------------------- drift

function driftChecks(): void {
  report.begin('D. format drift: payload fields and transcript line types seen in the real CLI');
  const fields = payloadFieldDrift(allPayloads, KNOWN_PAYLOAD_FIELDS);
  const events: Record<string, number> = {};
  for (const p of allPayloads) events[String(p.hook_event_name)] = (events[String(p.hook_event_name)] ?? 0) + 1;
  report.note(
    `hook events captured: ${Object.entries(events)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  report.note(
    `payload fields: ${Object.entries(fields.counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  if (fields.unknown.length)
    report.note(`NEW payload fields (not in KNOWN_PAYLOAD_FIELDS; reported, not failed): ${fields.unknown.join(', ')}`);
  for (const [ev, ks] of Object.entries(fields.perEvent)) observe(`${ev} payload fields (union over runs): ${ks.join(', ')}`);
  const values = (ev: string, k: string) =>
    [...new Set(allPayloads.filter((p) => p.hook_event_name === ev).map((p) => JSON.stringify(p[k])))].join(', ');
  observe(
    `SessionStart source values: ${values('SessionStart', 'source')}; SessionEnd reason values: ${values('SessionEnd', 'reason')}; effort values: ${values('PreToolUse', 'effort')}`,
  );
  const types = lineTypeDrift(transcriptText, CHAIN_LINE_TYPES, METADATA_LINE_TYPES);
  report.note(
    `transcript chain line types: ${Object.entries(types.chain)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  report.note(
    `transcript metadata line types: ${Object.entries(types.metadata)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  if (types.unknownMetadata.length) report.note(`NEW metadata line types (reported, not failed): ${types.unknownMetadata.join(', ')}`);
  report.check('every chain line type in the real transcripts is one the reader knows (CHAIN_LINE_TYPES)', () => [
    ...types.unknownChain.map(
      (t) => `new chain line type "${t}" (${types.chain[t]} line(s)): teach the transcript reader/forker, then add it to knownFormats.ts`,
    ),
    ...(types.garbage ? [`${types.garbage} transcript line(s) are not JSON objects`] : []),
  ]);
}

// ---------------------------------------------------------------------------------- main

async function main(): Promise<void> {
  const t0 = Date.now();
  ensureBuilt();
  let bin: string;
  let version: string;
  try {
    const c = ensureClaude();
    bin = c.bin;
    version = c.version;
    console.log(`Claude Code ${version} (${c.how}): ${bin}`);
  } catch (e) {
    console.error(`compat: cannot run the real Claude Code CLI: ${(e as Error).message}`);
    process.exit(1);
  }
  await scenarioSession(bin);
  await scenarioNoRemote(bin);
  await scenarioEdges(bin);
  driftChecks();
  if (observations.length) {
    console.log('\nObserved in the real CLI (compare with the documented hook format):');
    for (const o of observations) console.log(`  - ${o}`);
  }
  console.log(report.summary(4, (Date.now() - t0) / 1000).replace('compat:', `compat (Claude Code ${version}):`));
  console.log(report.line('claude', version));
  process.exitCode = report.count('fail') ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
