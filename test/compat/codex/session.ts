// One temp world for scripted runs of the real Codex CLI: a git workspace with a local bare remote,
// an isolated HOME and CODEX_HOME (config.toml + hooks.json from codexHome.ts), the recorder's log,
// the model's request log. `run()` is one `codex exec [resume <id>] <prompt>` with a scripted model
// turn and returns what it produced: the session id, its rollout, the hook payloads, the requests.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppServer } from './appServer';
import { type CodexRun, codexEnv, execArgs, runCodex, runCodexTui } from './codexCli';
import { API_KEY_VAR, writeCodexHome } from './codexHome';
import { readRequests, type ScriptedModel } from '../kit/model.mjs';
import type { RequestRecord, Step } from '../kit/wire/responses.mjs';
import { rolloutFiles, rolloutOf } from './rollout';

/** One line of the recorder's log (kit/recordHook.mjs). */
export interface HookRecord {
  at: number;
  pid: number;
  ppid: number;
  event: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  transcript: { exists: boolean; bytes?: number } | null;
  payload: Record<string, any>;
}

export interface RunResult {
  label: string;
  run: CodexRun;
  sessionId: string;
  rolloutPath?: string;
  payloads: HookRecord[];
  requests: RequestRecord[];
}

export type TrustMode = 'bypass' | 'persisted';

export class CodexWorld {
  readonly root: string;
  readonly ws: string;
  readonly remote: string;
  readonly home: string;
  readonly codexHome: string;
  readonly tmp: string;
  readonly hookLog: string;
  readonly requestLog: string;
  trusted: string[] = [];

  constructor(
    readonly name: string,
    readonly bin: string,
    readonly model: ScriptedModel<Step>,
    readonly trust: TrustMode = 'persisted',
    /** The project folder (default `<root>/app`): the integration tier records in its VS Code workspace. */
    ws?: string,
  ) {
    this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `ar-codex-${name}-`)));
    this.ws = ws ?? path.join(this.root, 'app');
    this.remote = path.join(this.root, 'remote.git');
    this.home = path.join(this.root, 'home');
    this.codexHome = path.join(this.root, 'codex-home');
    this.tmp = path.join(this.root, 'tmp');
    this.hookLog = path.join(this.root, 'hooks.jsonl');
    this.requestLog = path.join(this.root, 'requests.jsonl');
    for (const d of [this.ws, this.home, this.tmp]) fs.mkdirSync(d, { recursive: true });
    model.setLog(this.requestLog);
  }

  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return codexEnv({ home: this.home, codexHome: this.codexHome, tmp: this.tmp, apiKeyVar: API_KEY_VAR, extra });
  }

  git(args: string[], cwd = this.ws): string {
    const r = spawnSync('git', args, {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout.trim();
  }

  /** The workspace as a git repository with `files` committed and pushed to a local bare `origin`. */
  initRepo(files: Record<string, string>): void {
    for (const [rel, content] of Object.entries(files)) {
      const p = path.join(this.ws, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    }
    this.git(['init', '-q', '-b', 'main']);
    this.git(['add', '-A']);
    this.git(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-m', 'Initial commit']);
    this.git(['init', '-q', '--bare', this.remote], this.root);
    this.git(['remote', 'add', 'origin', this.remote]);
    this.git(['push', '-q', 'origin', 'main']);
  }

  /** CODEX_HOME with our provider and the recorder on every event; trusted through the app-server when `persisted`. */
  async setup(opts: { hooksJson?: string; extraToml?: string } = {}): Promise<void> {
    writeCodexHome({ codexHome: this.codexHome, modelUrl: this.model.url, trustedProjects: [this.ws], hookLog: this.hookLog, ...opts });
    if (this.trust === 'persisted') this.trusted = await this.trustHooks();
  }

  /** What Codex's /hooks review does: trust every listed hook at its current hash (config.toml `[hooks.state]`). */
  async trustHooks(): Promise<string[]> {
    const s = await AppServer.start(this.bin, this.ws, this.env());
    try {
      return await s.trust(this.ws);
    } finally {
      await s.close();
    }
  }

  /** Starts an app-server in this world (the caller closes it). */
  appServer(): Promise<AppServer> {
    return AppServer.start(this.bin, this.ws, this.env());
  }

  payloads(): HookRecord[] {
    if (!fs.existsSync(this.hookLog)) return [];
    return fs
      .readFileSync(this.hookLog, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as HookRecord);
  }

  rollouts(): string[] {
    return rolloutFiles(this.codexHome);
  }

  /** One scripted `codex exec` (a new session, or `resume` of `resume`). */
  async run(
    label: string,
    prompt: string,
    steps: Step[],
    o: { resume?: string; args?: string[]; timeoutMs?: number } = {},
  ): Promise<RunResult> {
    const before = this.payloads().length;
    const reqBefore = readRequests<RequestRecord>(this.requestLog).length;
    this.model.setScript(steps, label);
    const args = o.args ?? execArgs(prompt, { resume: o.resume, bypassHookTrust: this.trust === 'bypass' });
    const run = await runCodex(this.bin, args, { cwd: this.ws, env: this.env(), timeoutMs: o.timeoutMs });
    const payloads = this.payloads().slice(before);
    const requests = readRequests<RequestRecord>(this.requestLog).slice(reqBefore);
    const sessionId = run.sessionId ?? String(payloads.find((p) => p.payload.session_id)?.payload.session_id ?? '');
    return { label, run, sessionId, rolloutPath: sessionId ? rolloutOf(this.codexHome, sessionId) : undefined, payloads, requests };
  }

  /**
   * One interactive `codex resume <id> <prompt>` (the TUI, in a pseudo-terminal): done once the scripted
   * steps were all served and the turn's Stop hook ran, then quit with Ctrl-C.
   */
  async resumeInteractive(
    label: string,
    session: string,
    prompt: string,
    steps: Step[],
    timeoutMs = 120000,
  ): Promise<RunResult & { timedOut: boolean }> {
    const before = this.payloads().length;
    const reqBefore = readRequests<RequestRecord>(this.requestLog).length;
    this.model.setScript(steps, label);
    const stopped = () =>
      this.payloads()
        .slice(before)
        .some((p) => p.payload.hook_event_name === 'Stop');
    const run = await runCodexTui(this.bin, ['resume', session, prompt], {
      cwd: this.ws,
      env: this.env(),
      done: () => this.model.remaining() === 0 && stopped(),
      timeoutMs,
    });
    const payloads = this.payloads().slice(before);
    const requests = readRequests<RequestRecord>(this.requestLog).slice(reqBefore);
    const sessionId = String(payloads.find((p) => p.payload.session_id)?.payload.session_id ?? '');
    return {
      label,
      run,
      timedOut: run.timedOut,
      sessionId,
      rolloutPath: sessionId ? rolloutOf(this.codexHome, sessionId) : undefined,
      payloads,
      requests,
    };
  }

  /**
   * The interactive TUI runs its turns in a managed app-server daemon (a copy of the binary under
   * CODEX_HOME/packages/app-server-daemon/) that outlives it ("Any running work continues"). Stopped the
   * supported way, `codex app-server daemon stop`; that leaves the daemon's `pid-update-loop` running, which
   * is then ended by its pid (it runs from this world's CODEX_HOME, so it is ours). Returns what ran from
   * CODEX_HOME after the stop, and after that kill.
   */
  stopDaemon(): { afterStop: string[]; afterKill: string[] } {
    if (fs.existsSync(path.join(this.codexHome, 'packages', 'app-server-daemon')))
      spawnSync(this.bin, ['app-server', 'daemon', 'stop'], { cwd: this.ws, env: this.env(), stdio: 'ignore', timeout: 30000 });
    const afterStop = processesUnder(this.codexHome);
    for (const p of afterStop.filter((l) => l.endsWith(' app-server daemon pid-update-loop'))) {
      try {
        process.kill(Number(p.split(' ')[0]), 'SIGTERM');
      } catch {
        // already gone
      }
    }
    const until = Date.now() + 5000;
    let afterKill = processesUnder(this.codexHome);
    while (afterKill.length && Date.now() < until) {
      spawnSync('sleep', ['0.2']);
      afterKill = processesUnder(this.codexHome);
    }
    return { afterStop, afterKill };
  }

  cleanup(): void {
    this.stopDaemon();
    if (!process.env.KEEP_TMP) fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** Processes whose command line names `dir` (Linux /proc; elsewhere none are found). */
function processesUnder(dir: string): string[] {
  let pids: string[] = [];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const pid of pids) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (cmd.includes(dir)) found.push(`${pid} ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
