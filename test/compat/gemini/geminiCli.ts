// The real Gemini CLI for the compat tier and explore.ts, through the compat kit's driver
// (../kit/cli.ts): installed pinned into the tools folder, run offline against the kit's scripted
// model server (wire `gemini`) with an isolated HOME.
//
//   <tools dir>/gemini-cli-<version>/node_modules/@google/gemini-cli/bundle/gemini.js
//   (GEMINI_CLI_VERSION; AGENT_REWIND_GEMINI_BIN = gemini.js of an existing install)
//
// The package is plain JavaScript (a bundle, no native parts needed, no install scripts) and wants
// Node >= 20, so it runs on the node that runs us. Its version is read from the installed
// package.json (fast); `gemini --version` takes seconds.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureTool, jsonOf, runCli, type ToolInstall, type ToolSpec } from '../kit/cli';

export { command } from '../kit/cli';
export { repoRoot, toolsDir } from '../kit/cli';

export const GEMINI_CLI_PIN = '0.61.0';
const PACKAGE = '@google/gemini-cli';

/** The package.json beside `bundle/gemini.js`. */
function packageOf(bin: string): { version?: string; engines?: { node?: string } } | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(bin), '..', 'package.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** `>=20` and the like against this node; anything fancier is not checked. */
function nodeSatisfies(range: string | undefined): boolean {
  const m = /^>=\s*(\d+)/.exec(range ?? '');
  return !m || Number(process.versions.node.split('.')[0]) >= Number(m[1]);
}

export const GEMINI_TOOL: ToolSpec = {
  id: 'gemini-cli',
  pkg: PACKAGE,
  pin: GEMINI_CLI_PIN,
  versionVar: 'GEMINI_CLI_VERSION',
  binVar: 'AGENT_REWIND_GEMINI_BIN',
  candidates: (dir) => [path.join(dir, 'node_modules', ...PACKAGE.split('/'), 'bundle', 'gemini.js')],
  versionOf: (bin) => packageOf(bin)?.version ?? null,
  unusable(bin) {
    const range = packageOf(bin)?.engines?.node;
    return nodeSatisfies(range)
      ? null
      : `Gemini CLI needs node ${range}, this is ${process.version}; run the compat tier with a newer node.`;
  },
};

export type GeminiInstall = ToolInstall;

/** A runnable Gemini CLI (GEMINI_CLI_VERSION or the pin), from the cache or installed. */
export function ensureGemini(opts: Parameters<typeof ensureTool>[1] = {}): GeminiInstall {
  return ensureTool(GEMINI_TOOL, opts);
}

/**
 * The environment of a scripted run: isolated HOME (so ~/.gemini is ours), our local API with a
 * dummy key (the auth type comes from the user settings, see settings.ts), TMPDIR inside the
 * world (error reports land there), nothing phoning home.
 */
export function geminiEnv(home: string, apiUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: path.join(home, '..', 'tmp'),
    LANG: process.env.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    // The agent's hooks record by themselves: no resident recorder outlives the run (scripts/test.mjs).
    AGENT_REWIND_RESIDENT: process.env.AGENT_REWIND_RESIDENT ?? '0',
    GEMINI_API_KEY: 'dummy-key-for-the-local-mock',
    GOOGLE_GEMINI_BASE_URL: apiUrl,
    // No git identity or config from the machine: the scripted commands carry `-c user.name=…`.
    GIT_CONFIG_NOSYSTEM: '1',
    ...extra,
  };
}

export interface GeminiRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** `-o json` result, when it parsed: `{ session_id, response, stats }` or `{ session_id, error }`. */
  result?: {
    session_id?: string;
    response?: string;
    error?: { type?: string; message?: string; code?: number };
    stats?: unknown;
    [k: string]: unknown;
  };
}

/**
 * One `gemini` run, bounded by `timeoutMs` (default 120 s). The CLI relaunches itself as a child (same
 * node, GEMINI_CLI_NO_RELAUNCH=true): the driver kills the whole group at the limit.
 */
export async function runGemini(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<GeminiRun> {
  fs.mkdirSync(String(opts.env.TMPDIR ?? path.join(opts.cwd, '..', 'tmp')), { recursive: true });
  const r = await runCli(bin, args, { ...opts, name: 'gemini' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: r.ms, result: jsonOf<GeminiRun['result']>(r.stdout) };
}

/** The arguments of a scripted headless prompt: tools run without asking (`yolo`), JSON result. */
export function promptArgs(prompt: string, opts: { resume?: string; approval?: 'yolo' | 'auto_edit' | 'default' } = {}): string[] {
  return ['-p', prompt, '--approval-mode', opts.approval ?? 'yolo', '-o', 'json', ...(opts.resume ? ['--resume', opts.resume] : [])];
}

/** `projectHash` in chat files: sha256 of the project root path (hex). */
export function projectHash(projectRoot: string): string {
  return crypto.createHash('sha256').update(projectRoot).digest('hex');
}

/**
 * `~/.gemini/tmp/<slug>/chats` of a project: the slug comes from `~/.gemini/projects.json`
 * (`{ "projects": { "<abs root>": "<slug>" } }`; a new root gets its base name, lower-cased, with
 * `-1`, `-2`… on collisions, claimed by a `.project_root` marker file in the slug folder).
 */
export function chatsDir(home: string, projectRoot: string): string | null {
  try {
    const reg = JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'projects.json'), 'utf8')) as { projects?: Record<string, string> };
    const slug = reg.projects?.[path.resolve(projectRoot)];
    return slug ? path.join(home, '.gemini', 'tmp', slug, 'chats') : null;
  } catch {
    return null;
  }
}

/** Session files of a project (`session-<YYYY-MM-DDTHH-mm>-<first 8 of id>.jsonl`), by name. */
export function sessionFiles(home: string, projectRoot: string): string[] {
  const dir = chatsDir(home, projectRoot);
  if (!dir || !fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('session-') && /\.jsonl?$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}
