// One scripted Gemini CLI world: a temp folder with a git workspace (and a bare remote), an
// isolated HOME with our user settings, the recorder hook on every event, and a runner for one
// headless prompt that returns what it produced: session id, chat file, the hook payloads and
// the model requests of that run.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runInPty } from '../pty';
import { command, type GeminiRun, geminiEnv, promptArgs, runGemini, sessionFiles } from './geminiCli';
import { readRequests, type ScriptedModel } from '../kit/model.mjs';
import type { RequestRecord, Step } from '../kit/wire/gemini.mjs';
import { type HookEvent, projectSettingsPath, recorderHooks, trustFolder, userSettings, userSettingsPath, writeJson } from './settings';

export interface HookLine {
  at: number;
  pid: number;
  event: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  otherEnv: string[];
  payload: Record<string, unknown>;
  replied?: unknown;
  sleptMs?: number;
  /** A second line a sleeping hook writes when it wakes (it was not killed). */
  woke?: boolean;
}

export interface RunOutcome {
  label: string;
  run: GeminiRun;
  /** From `-o json` (`session_id`), else from the hook payloads. */
  session: string | undefined;
  /** The chat file the hooks named last (`transcript_path` of the last payload). */
  chatFile: string | undefined;
  payloads: HookLine[];
  /** Events whose sleeping hook woke up (was not killed by the timeout). */
  woke: string[];
  requests: RequestRecord[];
  /** Hosts other than loopback the CLI tried to reach (from kit/netGuard.cjs). */
  network: string[];
}

function readLines<T>(file: string): T[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export type Trust = 'env' | 'file' | 'none';

export class GeminiWorld {
  readonly root: string;
  readonly ws: string;
  readonly home: string;
  readonly remote: string;
  readonly hookLog: string;
  readonly requestLog: string;
  readonly netLog: string;
  readonly replies: string;
  private gitEnv: NodeJS.ProcessEnv;

  /**
   * `userExtra`: more user settings, e.g. `{ general: { sessionRetention: { enabled: false } } }`
   * (merged into our `general` block, see settings.ts).
   */
  constructor(
    readonly name: string,
    readonly bin: string,
    readonly model: ScriptedModel<Step>,
    readonly userExtra: Record<string, unknown> = {},
    /** The project folder (default `<root>/app`): the integration tier records in its VS Code workspace. */
    ws?: string,
  ) {
    this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `ar-gemini-${name}-`)));
    this.ws = ws ?? path.join(this.root, 'app');
    this.home = path.join(this.root, 'home');
    this.remote = path.join(this.root, 'remote.git');
    this.hookLog = path.join(this.root, 'hooks.jsonl');
    this.requestLog = path.join(this.root, 'requests.jsonl');
    this.netLog = path.join(this.root, 'net.log');
    this.replies = path.join(this.root, 'replies.json');
    fs.mkdirSync(this.ws, { recursive: true });
    fs.mkdirSync(this.home, { recursive: true });
    this.gitEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' };
    writeJson(userSettingsPath(this.home), userSettings(this.userExtra));
    this.setReplies({});
  }

  git(args: string[], cwd = this.ws): string {
    const r = spawnSync('git', args, { cwd, env: this.gitEnv, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout.trim();
  }

  /** A git repository with the files committed and pushed to a local bare remote `origin`. */
  initRepo(files: Record<string, string>): void {
    for (const [rel, content] of Object.entries(files)) {
      const p = path.join(this.ws, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    }
    this.git(['init', '-q', '--bare', '-b', 'main', this.remote], this.root);
    this.git(['init', '-q', '-b', 'main']);
    // Our settings folder stays out of the agent's commits.
    fs.writeFileSync(path.join(this.ws, '.git', 'info', 'exclude'), '.gemini/\n');
    this.git(['add', '-A']);
    this.git(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-m', 'Initial commit']);
    this.git(['remote', 'add', 'origin', this.remote]);
    this.git(['push', '-q', '-u', 'origin', 'main']);
  }

  /** The recorder on every event, in the project settings (or the user settings). */
  installRecorder(
    opts: { where?: 'project' | 'user'; timeoutMs?: number; env?: Record<string, string>; events?: readonly HookEvent[] } = {},
  ): void {
    const hooks = recorderHooks({
      log: this.hookLog,
      replies: this.replies,
      timeoutMs: opts.timeoutMs,
      env: opts.env,
      events: opts.events,
    });
    if (opts.where === 'user') writeJson(userSettingsPath(this.home), userSettings({ ...this.userExtra, hooks }));
    else writeJson(projectSettingsPath(this.ws), { hooks });
  }

  /** What the recorder prints per event from now on (`{}`: nothing). */
  setReplies(replies: Record<string, unknown>): void {
    fs.writeFileSync(this.replies, JSON.stringify(replies));
  }

  hookLines(): HookLine[] {
    return readLines<HookLine>(this.hookLog);
  }

  requests(): RequestRecord[] {
    return readRequests<RequestRecord>(this.requestLog);
  }

  sessionFiles(): string[] {
    return sessionFiles(this.home, this.ws);
  }

  /**
   * One headless prompt. `trust`: `env` (GEMINI_CLI_TRUST_WORKSPACE=true), `file`
   * (trustedFolders.json, written here), `none`. `netGuard`: log every non-loopback connect.
   */
  async run(
    label: string,
    prompt: string,
    steps: Step[],
    opts: {
      resume?: string;
      approval?: 'yolo' | 'auto_edit' | 'default';
      trust?: Trust;
      strict?: boolean;
      extraArgs?: string[];
      env?: Record<string, string>;
      timeoutMs?: number;
      /** The interactive UI in a pseudo-terminal (`-i <prompt>` instead of `-p`), quit once the turn ended (AfterAgent). */
      interactive?: boolean;
    } = {},
  ): Promise<RunOutcome> {
    const trust = opts.trust ?? 'env';
    if (trust === 'file') trustFolder(this.home, this.ws);
    const hooksBefore = this.hookLines().length;
    const requestsBefore = this.requests().length;
    const netBefore = readLines<string>(this.netLog).length;
    this.model.setLog(this.requestLog);
    this.model.setStrict(opts.strict ?? true);
    this.model.setScript(steps, label);
    const env = this.runEnv(trust, opts.env);
    const args = [...promptArgs(prompt, { resume: opts.resume, approval: opts.approval }), ...(opts.extraArgs ?? [])];
    const run = opts.interactive
      ? await this.interactive(args, env, hooksBefore, opts.timeoutMs)
      : await runGemini(this.bin, args, { cwd: this.ws, env, timeoutMs: opts.timeoutMs });
    const lines = this.hookLines().slice(hooksBefore);
    const payloads = lines.filter((l) => !l.woke);
    const withSession = payloads.find((p) => typeof p.payload.session_id === 'string');
    // The last one: on --resume, SessionStart names a new empty file the CLI never writes to (see README).
    const withTranscript = [...payloads].reverse().find((p) => typeof p.payload.transcript_path === 'string');
    return {
      label,
      run,
      session: run.result?.session_id ?? (withSession?.payload.session_id as string | undefined),
      chatFile: withTranscript?.payload.transcript_path as string | undefined,
      payloads,
      woke: lines.filter((l) => l.woke).map((l) => l.event),
      requests: this.requests().slice(requestsBefore),
      network: readLines<{ host: string }>(this.netLog)
        .slice(netBefore)
        .map((l) => l.host),
    };
  }

  private runEnv(trust: Trust, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return geminiEnv(this.home, this.model.url, {
      ...(trust === 'env' ? { GEMINI_CLI_TRUST_WORKSPACE: 'true' } : {}),
      NODE_OPTIONS: `--require ${path.join(__dirname, '..', 'kit', 'netGuard.cjs')}`,
      AGENT_REWIND_NET_LOG: this.netLog,
      ...extra,
    });
  }

  /** `gemini -i <prompt> …` in a pseudo-terminal, as a GeminiRun (no JSON result: the UI draws instead). */
  private async interactive(args: string[], env: NodeJS.ProcessEnv, hooksBefore: number, timeoutMs?: number): Promise<GeminiRun> {
    // The prompt with -i, and no `-o json` (the UI draws instead).
    const ui = args.map((a) => (a === '-p' ? '-i' : a));
    const o = ui.indexOf('-o');
    if (o >= 0) ui.splice(o, 2);
    const [cmd, argv] = command(this.bin, ui);
    const ended = () =>
      this.hookLines()
        .slice(hooksBefore)
        .some((l) => l.event === 'AfterAgent');
    const r = await runInPty(cmd, argv, { cwd: this.ws, env, done: () => this.model.remaining() === 0 && ended(), timeoutMs });
    return {
      status: r.timedOut ? null : r.status,
      stdout: r.stdout,
      stderr: r.stderr + (r.timedOut ? '\n[gemini] the UI did not quit; killed.' : ''),
      ms: r.ms,
    };
  }

  /**
   * Renames a session file as if its session had started a minute earlier (the CLI finds sessions
   * by content, any `session-*.jsonl` name works): a `--resume` then always happens in a later
   * minute than the file's name, as it does for real users (see README: what a resume in the same
   * minute does instead).
   */
  backdate(file: string): string {
    const m = /^session-(\d{4}-\d\d-\d\dT\d\d-\d\d)-(.+)$/.exec(path.basename(file));
    if (!m) throw new Error(`${file} is not a session file name`);
    const [d, hm] = m[1]!.split('T') as [string, string];
    const t = new Date(`${d}T${hm.replace('-', ':')}:00Z`).getTime() - 60000;
    const to = path.join(path.dirname(file), `session-${new Date(t).toISOString().slice(0, 16).replace(/:/g, '-')}-${m[2]}`);
    fs.renameSync(file, to);
    return to;
  }

  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
