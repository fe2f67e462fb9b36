// Pieces shared by the compat scenarios: a temp world (workspace, HOME, store, a stable copy of our
// CLI), our hooks connected through the settings writer exactly as the "Connect Claude Code"
// command does, a test-only capture hook beside them, scripted real-CLI runs, and our CLI.
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectClaudeFile, readSettingsFile, settingsPath, writeSettingsFile } from '../../src/agents/claude/settings';
import { hookCommand, shellQuote } from '../../src/agents/common/hookCommand';
import { claudeEnv, type ClaudeRun, projectDir, promptArgs, repoRoot, runClaude } from './claudeCli';
import type { Tree } from './checkers';
import { readRequests, type ScriptedModel } from './kit/model.mjs';
import type { RequestRecord, Step } from './kit/wire/anthropic.mjs';

export const DIST = path.join(repoRoot, 'dist');

export interface Captured {
  at: number;
  cwd: string;
  env: Record<string, string>;
  payload: Record<string, unknown>;
}

export function sha256(file: string): string | null {
  try {
    return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

/** Every regular file under `dir` (relative path → base64), without .git and .claude. */
export function tree(dir: string): Tree {
  const out: Tree = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (d === dir && (e.name === '.git' || e.name === '.claude')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[path.relative(dir, p)] = fs.readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

/** A stable copy of dist/ under `root` for hook commands, as the extension installs it; → its cli.js. */
export function installCliCopy(root: string): string {
  const cliDir = path.join(root, 'agent-rewind', 'dist');
  fs.mkdirSync(cliDir, { recursive: true });
  for (const f of ['cli.js', 'hook.js', 'commands.js']) fs.copyFileSync(path.join(DIST, f), path.join(cliDir, f));
  return path.join(cliDir, 'cli.js');
}

/** Our CLI on one store: `ar` gives status and output, `arJson` the parsed `--json` answer (throws on a failure). */
export function storeCli(store: string): {
  ar(args: string[]): { status: number; stdout: string; stderr: string };
  arJson<T>(args: string[]): T;
} {
  const ar = (args: string[]) => {
    const env = { ...process.env };
    delete env.AGENT_REWIND_STORE;
    const r = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), ...args, '--store', store], {
      encoding: 'utf8',
      env,
      timeout: 60000,
    });
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  const arJson = <T>(args: string[]): T => {
    const r = ar([...args, '--json']);
    if (r.status !== 0) throw new Error(`agent-rewind ${args.join(' ')} exited ${r.status}: ${r.stderr.trim()}`);
    return JSON.parse(r.stdout) as T;
  };
  return { ar, arJson };
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

export interface RunOutcome {
  label: string;
  run: ClaudeRun;
  session: string;
  payloads: Captured[];
  requests: RequestRecord[];
}

export class World {
  readonly root: string;
  readonly ws: string;
  readonly home: string;
  readonly store: string;
  readonly payloadLog: string;
  readonly requestLog: string;
  readonly userHookLog: string;
  /** The stable copy of dist/ the hook command points at (as the extension would install it). */
  readonly cliCopy: string;
  readonly hook: { command: string };
  private gitEnv: NodeJS.ProcessEnv;

  constructor(
    readonly name: string,
    readonly bin: string,
    readonly model: ScriptedModel<Step>,
    opts: { hostilePaths?: boolean } = {},
  ) {
    this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `ar-compat-${name}-`)));
    this.ws = path.join(this.root, 'app');
    this.home = path.join(this.root, 'home');
    // Hostile names prove the settings writer's quoting through the real CLI's own shell.
    this.store = path.join(this.root, opts.hostilePaths ? 'store dir \'q\' $HOME `touch pwned` "x"' : 'store');
    const cliDir = path.join(this.root, opts.hostilePaths ? 'agent rewind "v0.1" $(id)' : 'agent-rewind', 'dist');
    this.payloadLog = path.join(this.root, 'payloads.jsonl');
    this.requestLog = path.join(this.root, 'requests.jsonl');
    this.userHookLog = path.join(this.root, 'user-hook.jsonl');
    fs.mkdirSync(this.ws, { recursive: true });
    fs.mkdirSync(this.home, { recursive: true });
    this.cliCopy = installCliCopy(path.dirname(path.dirname(cliDir)));
    this.hook = { command: hookCommand({ node: process.execPath, cli: this.cliCopy, store: this.store, agent: 'claude' }) };
    this.gitEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' };
  }

  git(args: string[], cwd = this.ws): string {
    const r = spawnSync('git', args, { cwd, env: this.gitEnv, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout.trim();
  }

  /** A git repository with the files committed (identity given per command, none configured). */
  initRepo(files: Record<string, string>, opts: { commit?: boolean } = {}): void {
    writeFiles(this.ws, files);
    this.git(['init', '-q', '-b', 'main']);
    if (opts.commit !== false) {
      this.git(['add', '-A']);
      this.git(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-m', 'Initial commit']);
    }
  }

  /** The user's own settings before Connect: a permission rule and a PostToolUse hook of theirs. */
  writeUserSettings(): string {
    const text =
      JSON.stringify(
        {
          permissions: { allow: ['Bash(npm test)'] },
          hooks: {
            PostToolUse: [
              {
                matcher: 'Write|Edit',
                hooks: [
                  {
                    type: 'command',
                    command: `${shellQuote(process.execPath)} ${shellQuote(path.join(__dirname, 'kit', 'recordHook.mjs'))} ${shellQuote(this.userHookLog)}`,
                  },
                ],
              },
            ],
          },
        },
        null,
        2,
      ) + '\n';
    writeSettingsFile(settingsPath(this.ws), text);
    return text;
  }

  /** Connect, exactly as the VS Code command does. */
  connect(): ReturnType<typeof connectClaudeFile> {
    return connectClaudeFile(this.ws, this.hook);
  }

  /**
   * Test only: a capture hook on every event (and a few we do not use, to see what fires), added
   * after Connect so Connect is proven on the user's file alone.
   */
  addCaptureHook(): void {
    const file = settingsPath(this.ws);
    const j = JSON.parse(readSettingsFile(file) ?? '{}');
    const command = `${shellQuote(process.execPath)} ${shellQuote(path.join(__dirname, 'kit', 'recordHook.mjs'))} ${shellQuote(this.payloadLog)}`;
    j.hooks ??= {};
    for (const e of [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'Stop',
      'SessionEnd',
      'Notification',
      'SubagentStop',
      'PreCompact',
    ]) {
      (j.hooks[e] ??= []).push({ ...(e.includes('ToolUse') ? { matcher: '*' } : {}), hooks: [{ type: 'command', command }] });
    }
    writeSettingsFile(file, JSON.stringify(j, null, 2) + '\n');
  }

  payloads(): Captured[] {
    if (!fs.existsSync(this.payloadLog)) return [];
    return fs
      .readFileSync(this.payloadLog, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Captured);
  }

  /** One scripted `claude -p` run; what the hooks and the model saw during it. */
  async claude(label: string, prompt: string, steps: Step[], resume?: string): Promise<RunOutcome> {
    const before = this.payloads().length;
    const reqBefore = readRequests<RequestRecord>(this.requestLog).length;
    this.model.setScript(steps, label);
    const run = await runClaude(this.bin, promptArgs(prompt, resume), { cwd: this.ws, env: claudeEnv(this.home, this.model.url) });
    const payloads = this.payloads().slice(before);
    const requests = readRequests<RequestRecord>(this.requestLog).slice(reqBefore);
    const session = run.result?.session_id ?? String(payloads[0]?.payload.session_id ?? '');
    return { label, run, session, payloads, requests };
  }

  /** Every transcript the CLI wrote for this workspace (sessions and forks). */
  transcriptFiles(): string[] {
    const dir = projectDir(this.home, this.ws);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => path.join(dir, f));
  }

  transcriptOf(session: string): string {
    return path.join(projectDir(this.home, this.ws), `${session}.jsonl`);
  }

  /** Our CLI (dist/cli.js) on this world's store. */
  ar(args: string[], input = ''): { status: number; stdout: string; stderr: string } {
    const env = { ...process.env };
    delete env.AGENT_REWIND_STORE;
    const r = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), ...args, '--store', this.store], {
      input,
      env,
      encoding: 'utf8',
      timeout: 60000,
    });
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  arJson<T = any>(args: string[]): T {
    const r = this.ar([...args, '--json']);
    if (r.status !== 0) throw new Error(`agent-rewind ${args.join(' ')} exited ${r.status}: ${r.stderr.trim()}`);
    return JSON.parse(r.stdout) as T;
  }

  /** The store's files.jsonl records. */
  records(): Record<string, any>[] {
    const f = path.join(this.store, 'files.jsonl');
    if (!fs.existsSync(f)) return [];
    return fs
      .readFileSync(f, 'utf8')
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

  errorsLog(): string {
    try {
      return fs.readFileSync(path.join(this.store, 'errors.log'), 'utf8');
    } catch {
      return '';
    }
  }

  cleanup(): void {
    if (!process.env.KEEP_TMP) fs.rmSync(this.root, { recursive: true, force: true });
  }
}

export { ensureBuilt } from './build';
