// The compat kit's shared session for a real client that records through a connector: a git
// workspace, Connect exactly as "Connect Agents…" writes it (through a stable copy of dist/, as the
// extension installs it), a first prompt that creates a file, edits one and changes two through the
// shell (a delete and an in-place edit), a second prompt that continues the same session with the
// client's own resume option, then checkpoints / plan / rewind / verify / undo through our CLI,
// checked byte-exact on disk. Each client (opencode/compat.ts, qwen/compat.ts) gives a driver: how to
// prepare its world, run one prompt, and what its tools are called. No fixed waits: each step waits
// for the real process to end.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectorFor } from '../../../src/agents/connectors';
import type { HookTarget } from '../../../src/agents/common/connector';
import { type CheckpointJson, checkPromptCheckpoints, type PlanJson, planProblems, type Tree, treeDiff } from '../checkers';
import { ensureBuilt, installCliCopy, storeCli, tree } from '../harness';
import { Report } from '../report';
import { type CliRun, ensureTool, type ToolSpec } from './cli';
import { readRequests, type ScriptedModel, startScriptedModel } from './model.mjs';
import type { RequestRecord, Step } from './wire/chat.mjs';

export interface ClientWorld {
  root: string;
  home: string;
  ws: string;
  store: string;
  model: ScriptedModel<Step>;
  requestLog: string;
}

export interface PromptRun {
  run: CliRun;
  /** The session id the client reported (or the one the hooks saw). */
  session?: string;
}

export interface ClientDriver {
  /** The agent id of its connector and of `agent-rewind hook <agent>`. */
  agent: string;
  version: string;
  /** Tool calls in this client's names: one or more steps each (Qwen Code must read a file before it edits it). */
  tools: {
    write(file: string, content: string): Step[];
    edit(file: string, oldText: string, newText: string): Step[];
    /** `touches`: the files the command changes in place (absolute). */
    shell(command: string, touches?: string[]): Step[];
  };
  /** Config and environment files the client needs in this world (the model endpoint among them). */
  prepare(w: ClientWorld): void;
  /** One non-interactive prompt; `resume`: a session to continue. */
  prompt(w: ClientWorld, text: string, resume?: string): Promise<PromptRun>;
  /**
   * False when the client fires no prompt hook in the mode we drive it (Droid's `exec`): no prompt
   * checkpoints are expected, and the rewind goes to the session's first checkpoint instead.
   */
  promptHook?: boolean;
  /** The prompt as the client hands it to its hooks and model, when a command-line prompt is changed on the way (OpenCode quotes it). */
  promptAsSent?(text: string): string;
  /** Files of the workspace that are the client's own (config, plugin folder), not the project's. */
  ownFiles: string[];
  /** Client-specific checks and notes after the session (conversation storage, payload shape…). */
  after?(w: ClientWorld, report: Report, sessions: { session?: string; resumed?: string; prompts: string[] }): Promise<void> | void;
}

const P1 = 'Release 1.1.0: add a changelog, bump the version, drop the old notes and turn debug off.';
const P2 = 'Also say in the changelog that the release is ready.';
/** The project every files session starts from (Gemini's session too). */
export const START = {
  'version.txt': 'version=1.0.0\n',
  'old-notes.txt': 'Notes nobody reads.\n',
  'config.ini': '[app]\ndebug=true\n',
  'README.md': '# App\n',
};
const AGENT_FILES = ['CHANGELOG.md', 'version.txt', 'old-notes.txt', 'config.ini', 'README.md'];

function git(cwd: string, args: string[]): string {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function errorsLog(store: string): string[] {
  const f = path.join(store, 'errors.log');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim().split('\n').slice(0, 3) : [];
}

/** A client's compat entry point: its install (a failure is one failed check, said why), then the session; exits 1 on any failure. */
export async function runClient(agent: string, spec: ToolSpec, driver: (bin: string, version: string) => ClientDriver): Promise<never> {
  let install;
  try {
    install = ensureTool(spec);
  } catch (e) {
    console.error(`${agent}: ${(e as Error).message}`);
    console.log(`${agent} ${process.env[spec.versionVar] || spec.pin}: 1 checks, 0 passed, 1 failed`);
    process.exit(1);
  }
  const failed = await runFilesScenario(driver(install.bin, install.version));
  process.exit(failed ? 1 : 0);
}

/** Our CLI on the scenario's store (harness.ts storeCli). */
type Ar = ReturnType<typeof storeCli>['ar'];

/**
 * Rewind to `target`, the store verified, then the rewind undone: the agent's `files` must be as at the start
 * (`before`), then as the agent left them (`after`). `what` says what the rewind undoes, for the report.
 */
export function checkRewindAndUndo(
  report: Report,
  ar: Ar,
  target: string,
  what: string,
  w: { ws: string; before: Tree; after: Tree; files: readonly string[] },
): void {
  const rw = ar(['rewind', '--to', target, '--json']);
  const res = rw.status === 0 ? (JSON.parse(rw.stdout) as { checkpoint: string }) : null;
  report.check(`rewind --to ${what} undone, byte-exact on disk`, () =>
    res ? treeDiff(w.before, tree(w.ws), w.files) : [`rewind exited ${rw.status}: ${rw.stderr.slice(0, 300)}`],
  );
  report.check('verify: the store is sound', () => {
    const v = ar(['verify', '--json']);
    return v.status === 0 ? [] : [`verify exited ${v.status}: ${v.stdout.slice(0, 300)} ${v.stderr.slice(0, 300)}`];
  });
  if (res) {
    const undo = ar(['rewind', '--to', res.checkpoint, '--json']);
    report.check('undo the rewind: every file back as the agent left it', () =>
      undo.status === 0 ? treeDiff(w.after, tree(w.ws), w.files) : [`undo exited ${undo.status}: ${undo.stderr.slice(0, 300)}`],
    );
  }
}

/** Runs the session for one client and prints its compat line; resolves to the number of failed checks. */
export async function runFilesScenario(d: ClientDriver): Promise<number> {
  const report = new Report();
  const t0 = Date.now();
  ensureBuilt();
  report.begin(`${d.agent} ${d.version}: create, edit, shell delete and edit, resume; rewind, verify, undo`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `ar-compat-${d.agent}-`));
  const requestLog = path.join(root, 'requests.jsonl');
  const model = await startScriptedModel({ wire: 'openai-chat', log: requestLog });
  const w: ClientWorld = {
    root,
    home: path.join(root, 'home'),
    ws: path.join(root, 'ws'),
    store: path.join(root, 'store'),
    model,
    requestLog,
  };
  try {
    await session(d, w, report);
  } catch (e) {
    report.check('the session ran to its end', () => [(e as Error).stack?.split('\n').slice(0, 4).join(' | ') ?? String(e)]);
  } finally {
    await model.close();
    if (process.env.KEEP_TMP) console.log(`   kept ${root}`);
    else fs.rmSync(root, { recursive: true, force: true });
  }
  console.log(report.summary(1, (Date.now() - t0) / 1000));
  console.log(report.line(d.agent, d.version));
  return report.count('fail');
}

async function session(d: ClientDriver, w: ClientWorld, report: Report): Promise<void> {
  fs.mkdirSync(w.home, { recursive: true });
  fs.mkdirSync(w.ws, { recursive: true });
  for (const [f, c] of Object.entries(START)) fs.writeFileSync(path.join(w.ws, f), c);
  git(w.ws, ['init', '-q', '-b', 'main']);
  git(w.ws, ['add', '-A']);
  git(w.ws, ['-c', 'user.name=User', '-c', 'user.email=user@example.com', 'commit', '-q', '-m', 'start']);

  // The hook command points at a stable copy of dist/, as the extension installs it.
  const target: HookTarget = { node: process.execPath, cli: installCliCopy(w.root), store: w.store };
  const { ar, arJson } = storeCli(w.store);

  const connector = connectorFor(d.agent);
  const connected = report.check(`Connect writes ${d.agent}'s hook; connecting twice changes nothing`, () => {
    if (!connector || connector.agent !== d.agent) return [`no connector for ${d.agent} in src/agents/connectors.ts`];
    const p: string[] = [];
    if (!connector.connect(w.ws, target).changed) p.push('connect reported no change');
    if (connector.connect(w.ws, target).changed) p.push('second connect changed something');
    if (connector.state(w.ws, target) !== 'connected') p.push(`state ${connector.state(w.ws, target)}`);
    return p;
  });
  if (!connected) return;
  d.prepare(w);
  const T0 = tree(w.ws);

  const ran = (label: string, r: PromptRun, before: number): RequestRecord[] => {
    const reqs = readRequests<RequestRecord>(w.requestLog).slice(before);
    report.check(`${label}: the real client exited 0 and asked for every scripted step (${(r.run.ms / 1000).toFixed(1)} s)`, () => {
      const p: string[] = [];
      if (r.run.status !== 0 || r.run.timedOut)
        p.push(`exited ${r.run.status}${r.run.timedOut ? ' (timed out)' : ''}: ${r.run.stderr.slice(-600)}`);
      if (w.model.remaining() !== 0) p.push(`${w.model.remaining()} scripted step(s) never requested`);
      return p;
    });
    report.check(`${label}: every main-loop request accepted (each tool call answered once), no unknown endpoint`, () => [
      ...reqs
        .filter((q) => q.kind === 'main' && (q.status !== 200 || q.problems?.length))
        .map((q) => `#${q.n}: ${q.status} ${q.problems?.join('; ')}`),
      ...reqs.filter((q) => q.kind === 'unknown').map((q) => `asked for ${q.url}`),
    ]);
    return reqs.filter((q) => q.kind === 'main');
  };

  // ---- prompt 1: create, edit, shell delete, shell edit
  w.model.setScript(
    [
      ...d.tools.write(path.join(w.ws, 'CHANGELOG.md'), '# Changelog\n\n## 1.1.0\n- Added this changelog.\n'),
      ...d.tools.edit(path.join(w.ws, 'version.txt'), '1.0.0', '1.1.0'),
      ...d.tools.shell('rm old-notes.txt'),
      ...d.tools.shell("sed -i 's/debug=true/debug=false/' config.ini", [path.join(w.ws, 'config.ini')]),
      { text: 'Released 1.1.0.' },
    ],
    'prompt 1',
  );
  let before = readRequests(w.requestLog).length;
  const r1 = await d.prompt(w, P1);
  ran('prompt 1', r1, before);
  const T1 = tree(w.ws);
  report.check('prompt 1: the workspace changed as scripted', () => {
    const p: string[] = [];
    if (!T1['CHANGELOG.md'] || T1['old-notes.txt']) p.push(`tree: ${Object.keys(T1).join(', ')}`);
    if (!fs.readFileSync(path.join(w.ws, 'config.ini'), 'utf8').includes('debug=false')) p.push('config.ini unchanged');
    if (!fs.readFileSync(path.join(w.ws, 'version.txt'), 'utf8').includes('1.1.0')) p.push('version.txt unchanged');
    return p;
  });

  // ---- prompt 2: the same session, continued with the client's own resume option
  w.model.setScript(
    [...d.tools.edit(path.join(w.ws, 'CHANGELOG.md'), '- Added this changelog.', '- Added this changelog.\n- Ready.'), { text: 'Noted.' }],
    'prompt 2',
  );
  before = readRequests(w.requestLog).length;
  const r2 = await d.prompt(w, P2, r1.session);
  const main2 = ran('prompt 2 (resumed)', r2, before);
  report.check('prompt 2 continued the session: prompt 1 and its tool calls are in the history the model got', () => {
    const q = main2[0];
    const p: string[] = [];
    if (!r1.session) p.push('the first run reported no session id');
    if (!q?.userTexts?.some((t) => t.includes(P1))) p.push('prompt 1 is not in the history');
    if ((q?.toolCalls?.length ?? 0) < 4) p.push(`${q?.toolCalls?.length ?? 0} tool calls in the history, expected 4`);
    return p;
  });
  const T2 = tree(w.ws);
  report.check('prompt 2: the workspace changed as scripted', () =>
    fs.readFileSync(path.join(w.ws, 'CHANGELOG.md'), 'utf8').includes('- Ready.') ? [] : ['CHANGELOG.md unchanged'],
  );
  report.check('recording: nothing in errors.log after two prompts', () => errorsLog(w.store));

  // ---- files: checkpoints, plan, rewind, verify, undo
  const cps = arJson<CheckpointJson[]>(['checkpoints']).filter((c) => !r1.session || c.session === r1.session);
  let first: CheckpointJson | undefined;
  if (d.promptHook === false) {
    first = cps[0];
    report.check(`no prompt hook in this mode: the session's first checkpoint (${first?.kind ?? 'none'}) comes before any change`, () =>
      first ? [] : [`no checkpoint at all for session ${r1.session}`],
    );
  } else {
    const sent = [P1, P2].map((p) => d.promptAsSent?.(p) ?? p);
    report.check('one prompt checkpoint per prompt, labelled with the prompt, in the session the client reported', () =>
      checkPromptCheckpoints(cps, sent, r1.session),
    );
    first = cps.find((c) => c.kind === 'prompt');
  }
  if (first) {
    const plan = arJson<PlanJson>(['plan', '--to', first.id]);
    report.check('plan --to the first checkpoint: every file the agent touched, with the right action', () =>
      planProblems(plan, w.ws, {
        'CHANGELOG.md': 'delete',
        'version.txt': 'restore',
        'config.ini': 'restore',
        'old-notes.txt': 'recreate',
      }),
    );
    checkRewindAndUndo(report, ar, first.id, 'the first checkpoint: the tool edits and the shell changes', {
      ws: w.ws,
      before: T0,
      after: T2,
      files: AGENT_FILES,
    });
  }
  report.check("after rewind and undo the client's own files (config, our connector) are still there", () =>
    d.ownFiles.filter((f) => !fs.existsSync(path.join(w.ws, f))).map((f) => `${f} is gone`),
  );
  await d.after?.(w, report, { session: r1.session, resumed: r2.session, prompts: [P1, P2] });
}
