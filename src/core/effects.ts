// Tool classification: what undoing a tool call would take (seed 004, DESIGN §4).
//   rewindable    we hold the old content and can put it back (agent file edits; shell commands whose
//                 only effect is on workspace files, which shell capture records)
//   none          nothing to undo (reads, searches, web fetches, todo lists, `ls`, `npm test`)
//   compensatable a second action offsets it (`git commit` → `git reset --soft <HEAD before>`)
//   irreversible  nothing we can send makes it not have happened (pushes, publishes, deploys,
//                 requests that change remote state, messages sent, MCP tools by default)
// Irreversible and compensatable calls carry a severity: `high` when we know what the call does,
// `low` when we do not (an unknown command or script is listed as irreversible/low rather than
// silently called harmless).
//
// Shell commands are parsed (quotes, escapes, comments, heredocs, `$(…)`, backticks, `( … )`,
// `bash -c "…"`), split into simple commands (`&&`, `||`, `;`, `|`, `&`, newlines), stripped of
// wrappers (`sudo`, `env`, `timeout`, `xargs`, `npx`…) and classified one by one; the whole takes
// its worst part. `cd dir && git commit` resolves the folder of the commit. Decisions worth knowing:
// - `curl … | sh` (code downloaded and run) is irreversible/high: we know it runs code from the
//   network whose effects are outside our reach. A pipe into a shell from anything else is low.
// - Running a program we cannot see into (`node x.js`, `python -c …`, `./deploy.sh`,
//   `npm run deploy`) is irreversible/low; conventional local scripts (`npm test`, `npm run build`,
//   `make`, `cargo test`) are none.
// - File-changing local commands (`rm`, `mv`, `sed -i`, `> file`) are rewindable — shell capture
//   records them — unless they name a path outside the workspace (not recorded: irreversible/high).
// Pure: no I/O. The HEAD a git compensation needs is looked up by the recorder (`completeCompensation`).
import type { EffectOverride } from './config';
import type { Effect, Severity } from './records';
import type { Dialect } from './shell/lex';
import { ASSIGN, parseScript, type Script, type SimpleCommand } from './shell/parse';
import { quoteArg } from './shell/quote';

/** A HEAD the compensation needs, looked up right before the call runs. */
export interface GitNeed {
  /** The repository folder (absolute when the working folder was known). */
  dir: string;
  /** Git's location options as given (`--git-dir=…`, `--work-tree=…`), repeated in the compensation. */
  globals: string[];
  /** `soft`/`mixed`: reset to the HEAD before; `switch`: back to the branch before; `switch-new`: and delete the new branch. */
  mode: 'soft' | 'mixed' | 'switch' | 'switch-new';
  /** For `switch-new`: the branch the command creates. */
  branch?: string;
}

export interface Classification {
  effect: Effect;
  /** For irreversible/compensatable: `high` when we know what the call does, `low` when we guessed. */
  severity?: Severity;
  /** One line saying what the call did, e.g. `git push origin main`. */
  summary: string;
  /** A fixed compensation (from the rules or an override); `git` needs complete it. */
  compensation?: string;
  /** Why it got this class, in a few words (for the preview). */
  reason?: string;
  /** Git HEADs the compensation needs, in the order the command runs them. */
  git?: GitNeed[];
  /** All compensation units (fixed texts and git needs) in execution order, when `git` is set. */
  units?: CompensationUnit[];
  /** The folder of the first git HEAD the compensation needs (kept for older callers). */
  gitCommitIn?: string;
}

export const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
export const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
/** Built-in tools that change nothing: never listed, and a glob override never makes them listed. */
export const NONE_TOOLS = new Set([
  'Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'NotebookRead',
  'Task', 'Agent', 'ExitPlanMode', 'EnterPlanMode', 'BashOutput', 'KillShell', 'KillBash', 'ListMcpResourcesTool', 'ReadMcpResourceTool',
  'AskUserQuestion', 'Skill', 'SlashCommand', 'ToolSearch',
]);

function oneLine(s: string, max = 200): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function summarize(tool: string, input: unknown): string {
  const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (SHELL_TOOLS.has(tool)) return oneLine(str(i.command));
  if (FILE_TOOLS.has(tool)) return str(i.file_path) || str(i.notebook_path);
  if (tool === 'Read') return str(i.file_path);
  if (tool === 'WebFetch') return str(i.url);
  if (tool === 'Grep' || tool === 'Glob') return str(i.pattern);
  let json = '';
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    json = '';
  }
  return oneLine(json === '{}' ? '' : json, 160);
}

function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*') + '$');
}

function toolOverride(tool: string, overrides: readonly EffectOverride[]): EffectOverride | undefined {
  for (const o of overrides) {
    if (!o.tool) continue;
    if (o.tool === tool) return o;
    // A glob never turns a built-in read-only tool into a listed one (`*` → irreversible).
    if (o.tool.includes('*') && globToRegExp(o.tool).test(tool)) {
      if (NONE_TOOLS.has(tool) && (o.effect === 'irreversible' || o.effect === 'compensatable')) continue;
      return o;
    }
  }
  return undefined;
}

const regexCache = new Map<string, RegExp | null>();
function commandOverride(text: string, overrides: readonly EffectOverride[]): EffectOverride | undefined {
  for (const o of overrides) {
    if (!o.command) continue;
    let re = regexCache.get(o.command);
    if (re === undefined) {
      try {
        re = new RegExp(o.command);
      } catch {
        re = null; // a bad pattern in the user's config matches nothing
      }
      regexCache.set(o.command, re);
    }
    if (re && re.test(text)) return o;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Classifying

interface Verdict {
  effect: Effect;
  severity?: Severity;
  reason?: string;
  /** Compensation units in execution order (each a fixed text or a git need). */
  comps?: ({ text: string } | { git: GitNeed })[];
}

const RANK: Record<Effect, number> = { none: 0, rewindable: 1, compensatable: 2, irreversible: 3 };
const NONE: Verdict = { effect: 'none' };
const REWINDABLE: Verdict = { effect: 'rewindable', reason: 'changes workspace files (recorded by shell capture)' };
const high = (reason: string, effect: Effect = 'irreversible'): Verdict => ({ effect, severity: 'high', reason });
const low = (reason: string): Verdict => ({ effect: 'irreversible', severity: 'low', reason });
const UNKNOWN = (cmd: string) => low(`unknown command "${cmd}"`);

function worse(a: Verdict, b: Verdict): boolean {
  if (RANK[a.effect] !== RANK[b.effect]) return RANK[a.effect] > RANK[b.effect];
  return a.severity === 'high' && b.severity === 'low';
}

/** The worst of several verdicts; compensations of every compensatable part are kept. */
function combine(vs: Verdict[]): Verdict {
  let worst: Verdict = NONE;
  const comps: NonNullable<Verdict['comps']> = [];
  for (const v of vs) {
    if (worse(v, worst)) worst = v;
    if (v.comps) comps.push(...v.comps);
  }
  if (worst.effect !== 'compensatable') return worst; // only its own compensation (an override's)
  return { ...worst, comps };
}


interface Ctx {
  /** The folder the command runs in (undefined once a `cd` went somewhere we cannot tell). */
  cwd: string | undefined;
  /** The workspace folder: file changes outside it are not recorded. */
  root: string | undefined;
  overrides: readonly EffectOverride[];
  depth: number;
  dialect: Dialect;
}

function joinPath(base: string, rel: string): string {
  const sep = base.includes('\\') && !base.includes('/') ? '\\' : '/';
  const parts = (rel.startsWith('/') ? rel : `${base}${sep}${rel}`).split(/[\\/]+/);
  const out: string[] = [];
  for (const p of parts) {
    if (p === '.' || p === '') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  const lead = /^[A-Za-z]:$/.test(out[0] ?? '') ? '' : '/';
  return lead + out.join(sep);
}

/** A literal folder argument (no variables, no `~`, no `-`), resolved against `cwd`. */
function resolveDir(cwd: string | undefined, arg: string | undefined): string | undefined {
  if (!arg || /[$`*?~]/.test(arg) || arg === '-') return undefined;
  if (arg.startsWith('/') || /^[A-Za-z]:[\\/]/.test(arg)) return joinPath('', arg);
  return cwd ? joinPath(cwd, arg) : undefined;
}

function isInsideDir(p: string, root: string): boolean {
  const a = p.replace(/\\/g, '/');
  const r = root.replace(/\\/g, '/').replace(/\/$/, '');
  return a === r || a.startsWith(r + '/');
}

/** A path argument that names something outside the workspace (and is not scratch space). */
function outsideWorkspace(arg: string, ctx: Ctx): boolean {
  if (arg.startsWith('-') || arg === '') return false;
  if (/^(\/dev\/(null|stdout|stderr|tty|fd\/\d+)|\/tmp(\/|$)|\/var\/tmp(\/|$)|\$TMPDIR|\$\{TMPDIR)/.test(arg)) return false;
  if (arg.startsWith('~') || arg.startsWith('$HOME') || arg.startsWith('${HOME}')) return true;
  const root = ctx.root ?? ctx.cwd;
  if (!root) return false;
  const abs = resolveDir(ctx.cwd ?? root, arg);
  if (!abs) return false;
  return !isInsideDir(abs, root);
}

// Wrappers: options that take a value, and how many positionals come before the command.
interface Wrapper {
  withValue: Set<string>;
  positionals?: number;
  /** Stop at the first `--` only (everything before is the wrapper's). */
  dashDash?: boolean;
}
const W = (opts: string[], positionals = 0): Wrapper => ({ withValue: new Set(opts), positionals });
const WRAPPERS: Record<string, Wrapper> = {
  sudo: W(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--chdir', '--role', '--type', '--other-user', '--close-from', '--command-timeout']),
  doas: W(['-u', '-C']),
  env: W(['-u', '-C', '--unset', '--chdir', '-S', '--split-string']),
  nohup: W([]),
  setsid: W([]),
  time: W(['-f', '-o', '--format', '--output']),
  command: W([]),
  builtin: W([]),
  exec: W(['-a']),
  nice: W(['-n', '--adjustment']),
  ionice: W(['-c', '-n', '--class', '--classdata']),
  taskset: W([], 1),
  timeout: W(['-s', '-k', '--signal', '--kill-after'], 1),
  stdbuf: W(['-i', '-o', '-e', '--input', '--output', '--error']),
  xargs: W(['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-lines', '--replace', '--eof', '--max-chars']),
  watch: W(['-n', '--interval', '-d']),
  flock: W(['-w', '--timeout', '-E', '--conflict-exit-code'], 1),
  strace: W(['-o', '-e', '-p', '-s', '-u']),
  ltrace: W(['-o', '-e', '-p', '-s', '-u']),
  caffeinate: W(['-t', '-w']),
  unbuffer: W([]),
  'cross-env': W([]),
  dotenv: W(['-e', '-v', '-c']),
  chronic: W([]),
  npx: W(['-p', '--package', '--node-options', '--call']),
  pnpx: W(['-p', '--package']),
  bunx: W(['-p', '--package']),
  uvx: W(['--from', '--with', '-p', '--python']),
  'bundle exec': W([]),
  arch: W([]),
};
/** Words that turn `x exec …` / `x run …` into a wrapper (two-word wrappers). */
const SUB_WRAPPERS: Record<string, Set<string>> = {
  npm: new Set(['exec', 'x']),
  pnpm: new Set(['exec', 'dlx']),
  yarn: new Set(['exec', 'dlx']),
  bun: new Set(['x']),
  poetry: new Set(['run']),
  uv: new Set(['run']),
  pdm: new Set(['run']),
  hatch: new Set(['run']),
  pipenv: new Set(['run']),
  bundle: new Set(['exec']),
  rbenv: new Set(['exec']),
  pyenv: new Set(['exec']),
  mise: new Set(['exec', 'x']),
  asdf: new Set(['exec']),
  nix: new Set(['develop', 'shell']),
};

/** Strips wrappers and assignments: `sudo -u x env A=1 timeout 5 git push` → `git push`. */
function unwrap(w: string[], ctx: Ctx): { w: string[]; cwd: string | undefined; split?: string } {
  let cwd = ctx.cwd;
  let guard = 0;
  for (;;) {
    if (guard++ > 20) break;
    while (w.length && ASSIGN.test(w[0]!)) w = w.slice(1);
    const head = base(w[0] ?? '');
    let spec = WRAPPERS[head];
    let skip = 1;
    const sub = SUB_WRAPPERS[head];
    if (!spec && sub && sub.has(w[1] ?? '')) {
      spec = W(['-p', '--package', '--filter', '-F', '--with', '--from', '-n', '--python']);
      skip = 2;
    }
    if (!spec) break;
    if (head === 'command' && (w[1] === '-v' || w[1] === '-V')) return { w: ['true'], cwd };
    if (head === 'npx' && (w.includes('-c') || w.includes('--call'))) {
      const k = Math.max(w.indexOf('-c'), w.indexOf('--call'));
      return { w: [], cwd, split: w[k + 1] ?? '' };
    }
    let i = skip;
    let positionals = spec.positionals ?? 0;
    while (i < w.length) {
      const a = w[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (a.startsWith('-') && a.length > 1) {
        const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
        const takes = spec.withValue.has(name) && !a.includes('=');
        if (head === 'env' && (name === '-C' || name === '--chdir')) cwd = resolveDir(cwd, a.includes('=') ? a.slice(a.indexOf('=') + 1) : w[i + 1]);
        if (head === 'env' && (name === '-S' || name === '--split-string')) {
          const rest = a.includes('=') ? a.slice(a.indexOf('=') + 1) : (w[i + 1] ?? '');
          return { w: [], cwd, split: [rest, ...w.slice(i + (a.includes('=') ? 1 : 2))].join(' ') };
        }
        if ((head === 'sudo' || head === 'doas') && (a === '-i' || a === '-s') && i === w.length - 1) return { w: ['bash'], cwd };
        i += takes ? 2 : 1;
        continue;
      }
      if (ASSIGN.test(a) && (head === 'env' || head === 'cross-env' || head === 'sudo')) {
        i++;
        continue;
      }
      if (positionals > 0) {
        positionals--;
        i++;
        continue;
      }
      break;
    }
    w = w.slice(i);
  }
  return { w, cwd };
}

function base(cmd: string): string {
  return cmd.replace(/^.*[\\/]/, '').replace(/\.exe$/i, '');
}

/** Arguments that are not options (values of a few well-known option names are skipped). */
function positionals(args: string[], withValue: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a.length > 1) {
      if (withValue.has(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

// ---- git

const GIT_GLOBAL_WITH_VALUE = new Set(['-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path', '--attr-source']);
const GIT_NONE = new Set([
  'status', 'diff', 'log', 'show', 'fetch', 'add', 'grep', 'blame', 'annotate', 'ls-files', 'ls-tree', 'ls-remote', 'rev-parse', 'rev-list',
  'describe', 'shortlog', 'cat-file', 'for-each-ref', 'show-ref', 'name-rev', 'merge-base', 'diff-tree', 'diff-files', 'diff-index',
  'whatchanged', 'help', 'version', 'init', 'clone', 'check-ignore', 'check-attr', 'check-ref-format', 'var', 'archive', 'bundle',
  'format-patch', 'count-objects', 'fsck', 'verify-commit', 'verify-tag', 'cherry', 'range-diff', 'difftool', 'show-branch', 'hash-object',
  'request-pull', 'maintenance', 'gc', 'repack', 'pack-refs', 'credential', 'mergetool', 'bisect', 'sparse-checkout', 'submodule', 'worktree',
  'notes', 'lfs', 'restore-index', 'update-index', 'read-tree', 'write-tree', 'mktree', 'column', 'interpret-trailers', 'stripspace',
]);
const GIT_FILES = new Set(['rm', 'mv', 'apply', 'restore', 'checkout-index']);

function gitVerdict(args: string[], ctx: Ctx): Verdict {
  let dir = ctx.cwd;
  const globals: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C') {
      dir = resolveDir(dir, args[++i]);
      continue;
    }
    if (!a.startsWith('-')) break;
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (name === '--git-dir' || name === '--work-tree') {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (v !== undefined) globals.push(`${name}=${v}`);
      continue;
    }
    if (name === '--version' || name === '--help' || name === '-h' || name === '--html-path' || name === '--man-path' || name === '--info-path') return NONE;
    if (name === '--exec-path' && !a.includes('=') && (args[i + 1] === undefined || args[i + 1]!.startsWith('-'))) return NONE;
    if (GIT_GLOBAL_WITH_VALUE.has(name) && !a.includes('=')) i++;
  }
  const sub = args[i] ?? '';
  const rest = args.slice(i + 1);
  const pos = positionals(rest, new Set(['-m', '-F', '-C', '-c', '--author', '--date', '-S', '--cleanup', '--fixup', '--squash', '-u', '--onto', '-X', '--strategy', '-s', '-o', '--push-option', '--repo']));
  const has = (...flags: string[]) => rest.some((r) => flags.includes(r) || flags.some((f) => f.startsWith('--') && r.startsWith(f + '=')));
  const need = (mode: GitNeed['mode'], branch?: string): Verdict['comps'] => (dir ? [{ git: { dir, globals, mode, ...(branch ? { branch } : {}) } }] : []);
  switch (sub) {
    case '':
      return NONE;
    case 'push':
      if (has('--dry-run', '-n')) return NONE;
      return high('sends commits or refs to a remote');
    case 'send-email':
      return high('sends email');
    case 'svn':
      return pos[0] === 'dcommit' || pos[0] === 'set-tree' ? high('sends commits to a Subversion server') : low('git svn');
    case 'commit':
      if (has('--dry-run')) return NONE;
      return { ...high('creates a commit', 'compensatable'), comps: need('soft') };
    case 'merge':
    case 'rebase':
    case 'pull':
    case 'cherry-pick':
    case 'revert':
    case 'am':
      if (has('--abort', '--quit')) return REWINDABLE;
      return { ...high(`moves HEAD (git ${sub})`, 'compensatable'), comps: need('mixed') };
    case 'reset': {
      const mode = has('--soft', '--mixed', '--hard', '--keep', '--merge');
      const rev = pos[0] !== undefined && !rest.includes('--') && /^(HEAD|@|ORIG_HEAD|FETCH_HEAD)([~^].*)?$|^[0-9a-f]{7,64}$|[~^]\d*$|^[\w.-]+\/[\w./-]+$/.test(pos[0]);
      if (!mode && (!rev || pos.length > 1)) return NONE; // unstaging paths: the index only
      return { ...high('moves HEAD (git reset)', 'compensatable'), comps: need('mixed') };
    }
    case 'tag': {
      if (has('-d', '--delete')) return high('deletes a tag (not recorded)');
      if (has('-l', '--list', '-v', '--verify', '--contains', '--no-contains', '--points-at', '--merged', '--no-merged') || pos.length === 0) return NONE;
      const name = pos[0]!;
      return { ...high('creates a tag', 'compensatable'), comps: [{ text: `git${dir ? ` -C ${quoteArg(dir)}` : ''} tag -d ${quoteArg(name)}` }] };
    }
    case 'branch': {
      if (has('-d', '-D', '--delete')) return high('deletes a branch (not recorded)');
      if (has('-m', '-M', '--move', '-c', '-C', '--copy')) return high('renames or copies a branch', 'compensatable');
      if (has('-l', '--list', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--show-current', '--contains', '--merged', '--no-merged', '--points-at') || pos.length === 0) return NONE;
      if (has('-u', '--set-upstream-to', '--unset-upstream', '--edit-description')) return NONE;
      return { ...high('creates a branch', 'compensatable'), comps: [{ text: `git${dir ? ` -C ${quoteArg(dir)}` : ''} branch -D ${quoteArg(pos[0]!)}` }] };
    }
    case 'checkout':
    case 'switch': {
      const newBranch = rest.findIndex((r) => r === '-b' || r === '-B' || r === '-c' || r === '-C' || r === '--orphan');
      if (newBranch >= 0) {
        const name = rest[newBranch + 1] ?? '';
        return { ...high('creates a branch and switches to it', 'compensatable'), comps: need('switch-new', name) };
      }
      if (sub === 'checkout' && (rest.includes('--') || pos.some((p) => p === '.' || /[^/]\.[A-Za-z0-9]{1,8}$/.test(p) || p.includes('*')) || pos.length > 1)) return REWINDABLE;
      if (pos.length === 0 && !has('--detach', '-')) return NONE;
      return { ...high('switches branch (HEAD is not rewound with the files)', 'compensatable'), comps: need('switch') };
    }
    case 'stash': {
      const act = pos[0] ?? 'push';
      if (act === 'drop' || act === 'clear') return high('deletes stashed changes (not recorded)');
      if (act === 'list' || act === 'show' || act === 'create') return NONE;
      return REWINDABLE;
    }
    case 'clean':
      if (has('-n', '--dry-run')) return NONE;
      if (rest.some((r) => /^-[a-zA-Z]*[xX]/.test(r))) return high('deletes ignored files, which are never recorded');
      return REWINDABLE;
    case 'prune':
    case 'filter-branch':
    case 'filter-repo':
    case 'replace':
      return high(`rewrites or deletes git objects (git ${sub})`);
    case 'reflog':
      return pos[0] === 'expire' || pos[0] === 'delete' ? high('deletes reflog entries') : NONE;
    case 'update-ref':
      return high('changes a git ref directly', rest.includes('-d') ? 'irreversible' : 'compensatable');
    case 'config': {
      if (has('--get', '--get-all', '--get-regexp', '-l', '--list', '--show-origin', '--get-urlmatch', '--get-color', '--get-colorbool') || pos[0] === 'get' || pos[0] === 'list') return NONE;
      if (pos.length <= 1 && !has('--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit')) return NONE;
      return high('changes git configuration, which a rewind does not restore', 'compensatable');
    }
    case 'remote': {
      const act = pos[0] ?? '';
      if (act === '' || act === 'show' || act === 'get-url' || act === '-v' || has('-v', '--verbose')) return NONE;
      if (act === 'update' || act === 'prune') return NONE;
      return high('changes git remotes', 'compensatable');
    }
    default:
      if (GIT_NONE.has(sub)) return sub === 'lfs' && pos[0] === 'push' ? high('uploads LFS objects') : NONE;
      if (GIT_FILES.has(sub)) return REWINDABLE;
      return low(`unknown git command "git ${sub}"`);
  }
}

// ---- package managers and build tools

/** Script names that are conventionally local (`npm test`, `npm run build:prod`, `make lint`). */
const SAFE_SCRIPTS = new Set([
  'test', 'tests', 't', 'build', 'lint', 'typecheck', 'type-check', 'types', 'tsc', 'check', 'format', 'fmt', 'prettier', 'compile',
  'watch', 'dev', 'start', 'serve', 'preview', 'clean', 'coverage', 'cov', 'bench', 'benchmark', 'docs', 'doc', 'e2e', 'unit',
  'integration', 'verify', 'validate', 'all', 'install', 'prepare', 'pretest', 'posttest', 'prebuild', 'postbuild', 'generate', 'gen',
  'codegen', 'storybook', 'analyze', 'bundle', 'package', 'pack', 'spec', 'ci', 'fix', 'eslint', 'stylelint', 'jest', 'vitest', 'mocha', 'default',
  'help', 'setup', 'bootstrap', 'rebuild', 'tidy', 'vet', 'run', 'debug',
]);
const PUBLISH = new Set(['publish', 'unpublish', 'deprecate', 'undeprecate', 'dist-tag', 'owner', 'access', 'team', 'token', 'hook', 'star', 'unstar', 'login', 'adduser', 'logout', 'trust']);
const PKG_LOCAL = new Set([
  'install', 'i', 'ci', 'add', 'remove', 'rm', 'uninstall', 'un', 'unlink', 'link', 'ln', 'update', 'up', 'upgrade', 'ls', 'list', 'll', 'la',
  'outdated', 'view', 'info', 'show', 'v', 'why', 'explain', 'audit', 'pack', 'init', 'create', 'config', 'cache', 'doctor', 'prune', 'dedupe', 'ddp',
  'rebuild', 'fund', 'help', 'root', 'bin', 'prefix', 'ping', 'search', 's', 'whoami', 'query', 'pkg', 'install-test', 'it', 'store', 'import',
  'licenses', 'env', 'outdated', 'patch', 'patch-commit', 'approve-builds', 'setup', 'about', 'version-check', 'dlx-cache', 'workspaces', 'workspace',
  'constraints', 'plugin', 'set', 'dedupe', 'node', 'licenses', 'sbom', 'completion', 'docs', 'bugs', 'repo', 'fetch', 'install-ci-test', 'cit',
]);
const PKG_VALUE_OPTS = new Set(['--prefix', '-C', '--dir', '--filter', '-F', '-w', '--workspace', '--cwd', '--registry', '--tag', '--otp', '--loglevel']);

function scriptVerdict(script: string | undefined, tool: string): Verdict {
  if (!script) return NONE;
  const baseName = script.split(/[:.]/)[0]!.toLowerCase();
  if (SAFE_SCRIPTS.has(script) || SAFE_SCRIPTS.has(baseName)) return NONE;
  return low(`runs the ${tool} script "${script}", which we cannot see into`);
}

function pkgVerdict(cmd: string, args: string[], ctx: Ctx): Verdict {
  const pos = positionals(args, PKG_VALUE_OPTS);
  const sub = pos[0];
  if (!sub) return args.some((a) => a === '-v' || a === '--version' || a === '-h' || a === '--help') || cmd !== 'yarn' ? NONE : NONE; // bare `yarn` installs
  if (PUBLISH.has(sub)) return high(`${cmd} ${sub} changes the package registry`);
  if (cmd === 'yarn' && sub === 'npm' && PUBLISH.has(pos[1] ?? '')) return high(`yarn npm ${pos[1]} changes the package registry`);
  if (sub === 'version') return cmd === 'npm' || cmd === 'yarn' || cmd === 'pnpm' ? { ...high(`${cmd} version commits and tags`, 'compensatable'), comps: ctx.cwd ? [{ git: { dir: ctx.cwd, globals: [], mode: 'soft' } }] : [] } : NONE;
  if ((sub === 'install' || sub === 'i' || sub === 'add' || sub === 'uninstall' || sub === 'remove' || sub === 'rm') && args.some((a) => a === '-g' || a === '--global' || a === '--location=global')) {
    const pkgs = pos.slice(1);
    const undo = sub === 'install' || sub === 'i' || sub === 'add';
    return {
      ...high('installs or removes a global package, outside the workspace', 'compensatable'),
      ...(undo && pkgs.length ? { comps: [{ text: `${cmd} ${cmd === 'yarn' ? 'global remove' : 'uninstall -g'} ${pkgs.map(quoteArg).join(' ')}` }] } : {}),
    };
  }
  if (sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn') return scriptVerdict(pos[1], cmd);
  if (PKG_LOCAL.has(sub)) return NONE;
  if (sub === 'test' || sub === 'tst' || sub === 't' || sub === 'start' || sub === 'stop' || sub === 'restart') return NONE;
  if (cmd === 'bun' && (/\.[cm]?[jt]sx?$/.test(sub) || sub.includes('/'))) return low(`runs the program ${sub}`);
  if (cmd === 'npm') return low(`unknown npm command "npm ${sub}"`);
  return scriptVerdict(sub, cmd); // yarn/pnpm/bun run scripts by name
}

const READ_VERBS = /^(list|ls|describe|show|get|get-value|get-iam-policy|info|status|version|help|whoami|logs|log|tail|inspect|print-access-token|view|search|explain|top|diff|plan|preview|validate|synth|doctor|about|check|lint|template|fmt|output|graph|providers|console|config|env|auth|login|logout|dev|serve|build|emulators:start|emulators:exec|pull|link|init|completion|can-i|cluster-info|api-resources|api-versions)$/;

function cloudVerdict(cmd: string, args: string[]): Verdict {
  const pos = positionals(args, new Set(['--region', '--profile', '--output', '--project', '--query', '-o', '-g', '--resource-group', '--subscription', '--format', '--account', '--zone', '--app', '-a', '--env', '-e', '--config', '-c']));
  if (args.some((a) => a === '--version' || a === '--help' || a === '-h')) return NONE;
  if (cmd === 'aws') {
    if (pos[0] === 's3') {
      const act = pos[1] ?? '';
      if (act === 'ls' || act === 'presign') return NONE;
      if ((act === 'cp' || act === 'sync') && !String(pos[pos.length - 1]).startsWith('s3://')) return NONE; // a download
      return high(`aws s3 ${act} changes remote storage`);
    }
    const op = pos[1] ?? '';
    if (/^(describe|list|get|head|lookup|search|scan|query|batch-get|wait|help|filter|validate|estimate|preview|simulate|test|generate-presigned)/.test(op) || pos[0] === 'configure' || pos[0] === 'sts' || pos[0] === 'help') return NONE;
    return high(`aws ${pos[0] ?? ''} ${op} changes cloud resources`.replace(/ +/g, ' '));
  }
  if (pos.some((p) => READ_VERBS.test(p))) return NONE;
  if (pos.length === 0 && cmd !== 'vercel') return NONE;
  return high(`${cmd} ${pos.slice(0, 3).join(' ')} changes remote resources`.trim());
}

function curlVerdict(cmd: string, args: string[]): Verdict {
  let method: string | null = null;
  let sends = false;
  const shortWithValue = new Set('oXdFTHuAebcKwxmrECYyzDPQtUhS'.split('').filter((c) => c !== 'h' && c !== 'S'));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--')) {
      const [name, val] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--request' || name === '--method') method = (val ?? args[++i] ?? '').toUpperCase();
      else if (/^--(data|data-.*|form|form-.*|upload-file|json|post-data|post-file|body-data|body-file|mail-rcpt|mail-from|mail-auth|post301|post302|post303|upload)$/.test(name)) {
        sends = true;
        if (val === undefined && name !== '--post301' && name !== '--post302' && name !== '--post303') i++;
      } else if (/^--(output|header|user|user-agent|referer|cookie|cookie-jar|config|write-out|proxy|max-time|retry|connect-timeout|output-dir|url|resolve|cacert|cert|key|range|interface|limit-rate|output-document|directory-prefix|timeout|tries|level|accept|reject|header|load-cookies|save-cookies)$/.test(name) && val === undefined) i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && cmd === 'curl') {
      for (let k = 1; k < a.length; k++) {
        const f = a[k]!;
        if (shortWithValue.has(f)) {
          const v = k + 1 < a.length ? a.slice(k + 1) : args[++i];
          if (f === 'X') method = (v ?? '').toUpperCase();
          if (f === 'd' || f === 'F' || f === 'T') sends = true;
          break;
        }
      }
      continue;
    }
    if (cmd !== 'curl' && /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/i.test(a) && method === null) method = a.toUpperCase();
    else if (cmd !== 'curl' && cmd !== 'wget' && /^[^=:/]+(==|=|:=|@)/.test(a)) sends = true; // httpie items
  }
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return NONE;
  if (method || sends) return high(`${cmd} sends data (${method ?? 'POST'}) to a server`);
  return NONE; // a download, like a web fetch
}

const SQL_WRITE = /\b(insert|update|delete|drop|create|alter|truncate|grant|revoke|merge|replace|upsert|call|exec|execute|copy|vacuum|reindex|flushall|flushdb|del|set|hset|lpush|rpush|sadd|zadd|expire|incr|decr)\b/i;
function dbVerdict(cmd: string, args: string[]): Verdict {
  const k = args.findIndex((a) => a === '-c' || a === '-e' || a === '--command' || a === '--execute' || a === '--eval' || a.startsWith('--command=') || a.startsWith('--eval='));
  let code: string | undefined;
  if (k >= 0) code = args[k]!.includes('=') ? args[k]!.slice(args[k]!.indexOf('=') + 1) : args[k + 1];
  else if (cmd === 'sqlite3' || cmd === 'redis-cli') code = positionals(args, new Set(['-h', '-p', '-a', '-n', '-u', '--user', '-cmd'])).slice(cmd === 'sqlite3' ? 1 : 0).join(' ') || undefined;
  if (code === undefined) return low(`${cmd} runs statements we cannot see (a file or standard input)`);
  if (SQL_WRITE.test(code)) return high(`${cmd} changes a database`);
  return NONE;
}

// ---- commands by name

const NONE_CMDS = new Set([
  'ls', 'll', 'la', 'dir', 'cat', 'bat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'find', 'fd', 'locate', 'wc', 'sort', 'uniq',
  'cut', 'tr', 'awk', 'gawk', 'echo', 'printf', 'pwd', 'true', 'false', 'test', '[', '[[', 'which', 'type', 'whereis', 'file', 'stat', 'du', 'df',
  'tree', 'diff', 'colordiff', 'cmp', 'comm', 'date', 'cal', 'whoami', 'id', 'groups', 'uname', 'hostname', 'printenv', 'env', 'basename', 'dirname',
  'realpath', 'readlink', 'sleep', 'jq', 'yq', 'xq', 'seq', 'yes', 'column', 'paste', 'join', 'fold', 'fmt', 'nl', 'rev', 'shuf', 'tac', 'expand',
  'unexpand', 'strings', 'xxd', 'od', 'hexdump', 'base64', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'shasum', 'cksum', 'b2sum', 'md5',
  'tsc', 'eslint', 'prettier', 'biome', 'oxlint', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'playwright', 'cypress', 'pytest', 'py.test', 'mypy', 'ruff', 'black', 'isort',
  'flake8', 'pylint', 'pyright', 'tox', 'nox', 'cmake', 'ninja', 'meson', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'rustc', 'rustfmt', 'javac',
  'kotlinc', 'swiftc', 'zig', 'ghc', 'esbuild', 'vite', 'webpack', 'rollup', 'parcel', 'turbo', 'nx', 'lerna', 'tsup', 'swc', 'babel', 'stylelint', 'shellcheck',
  'hadolint', 'golangci-lint', 'gofmt', 'goimports', 'clippy-driver', 'cargo-clippy', 'source', '.', 'export', 'set', 'unset', 'alias', 'unalias', 'read', 'exit',
  'return', 'local', 'declare', 'typeset', 'shift', 'trap', 'wait', 'jobs', 'fg', 'bg', 'history', 'hash', 'ulimit', 'umask', 'getopts', 'let', 'ps', 'top',
  'htop', 'pgrep', 'lsof', 'netstat', 'ss', 'free', 'uptime', 'vmstat', 'iostat', 'nproc', 'lscpu', 'man', 'info', 'tldr', 'clear', 'tput', 'stty', 'locale',
  'ping', 'dig', 'nslookup', 'host', 'traceroute', 'whois', 'code', 'open', 'xdg-open', 'ssh-keygen', 'ssh-add', 'ssh-agent', 'sha224sum', 'sha384sum',
  'git-lfs', 'pip', 'pip3', 'pipx', 'uv', 'poetry', 'pdm', 'hatch', 'pipenv', 'conda', 'mamba', 'virtualenv', 'pyenv', 'nvm', 'fnm', 'volta', 'rbenv',
  'asdf', 'mise', 'corepack', 'deno', 'tokei', 'cloc', 'scc', 'nm', 'objdump', 'readelf', 'ldd', 'otool', 'wasm-objdump', 'identify', 'exiftool', 'pdftotext',
  'lsblk', 'mount', 'findmnt', 'w', 'who', 'last', 'env', 'pstree', 'time', 'tty', 'groups', 'printf', 'cal', 'bc', 'dc', 'expr', 'factor', 'numfmt',
  'iconv', 'dos2unix', 'unix2dos', 'csvlook', 'xmllint', 'tidy', 'markdownlint', 'mdformat', 'dot', 'plantuml', 'mvnw', 'gradlew', 'sbt', 'lein', 'mix', 'rebar3',
  'opam', 'dune', 'stack', 'cabal', 'elm', 'swift', 'xcodebuild', 'xcrun', 'pod', 'flutter', 'dart', 'ant', 'bazel', 'bazelisk', 'buck2', 'pants', 'just', 'task',
]);
const FILE_CMDS = new Set(['rm', 'rmdir', 'mv', 'cp', 'mkdir', 'touch', 'ln', 'chmod', 'chgrp', 'chown', 'tee', 'truncate', 'install', 'patch', 'unzip', 'gunzip', 'gzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'zip', 'tar', '7z', 'shred', 'split', 'csplit', 'mktemp', 'mkfifo', 'unlink', 'rename', 'dos2unix', 'unix2dos']);
const INTERPRETERS = new Set(['python', 'python2', 'python3', 'node', 'nodejs', 'ruby', 'perl', 'php', 'lua', 'luajit', 'Rscript', 'julia', 'java', 'osascript', 'ts-node', 'tsx', 'esno', 'babel-node', 'groovy', 'scala', 'kotlin', 'elixir', 'erl', 'dotnet-script']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'busybox', 'pwsh', 'powershell']);
const NETWORK = new Set(['ssh', 'scp', 'sftp', 'ftp', 'lftp', 'telnet', 'nc', 'ncat', 'netcat', 'socat', 'mail', 'mailx', 'sendmail', 'mutt', 'msmtp', 'swaks', 'rclone', 's3cmd', 'gsutil', 'azcopy', 'mosquitto_pub', 'kcat', 'kafkacat', 'grpcurl', 'websocat', 'wscat']);
const CLOUD = new Set(['aws', 'gcloud', 'az', 'doctl', 'heroku', 'vercel', 'netlify', 'fly', 'flyctl', 'firebase', 'wrangler', 'serverless', 'sls', 'railway', 'render', 'amplify', 'surge', 'cdk', 'sam', 'eb', 'oci', 'ibmcloud', 'linode-cli', 'hcloud', 'supabase', 'stripe', 'twilio', 'sentry-cli', 'vault', 'consul', 'nomad', 'ansible', 'ansible-playbook', 'eksctl', 'copilot', 'expo', 'eas', 'fastlane', 'az', 'ngrok']);
const DB = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'mongosh', 'mongo', 'redis-cli', 'cqlsh', 'clickhouse-client', 'sqlcmd', 'duckdb']);
const PROCESS = new Set(['kill', 'pkill', 'killall', 'systemctl', 'service', 'launchctl', 'shutdown', 'reboot', 'halt', 'crontab', 'at', 'sc']);
const SYSPKG = new Set(['apt', 'apt-get', 'brew', 'dnf', 'yum', 'pacman', 'zypper', 'apk', 'snap', 'port', 'choco', 'winget', 'scoop']);

function interpreterVerdict(cmd: string, args: string[], ctx: Ctx, stdin: 'network' | 'pipe' | null, heredocs: string[]): Verdict {
  if (args.some((a) => a === '--version' || a === '-V' || a === '-v' || a === '--help' || a === '-h') && args.length === 1) return NONE;
  if (SHELLS.has(cmd)) {
    const k = args.findIndex((a) => a === '-c' || /^-[a-z]*c$/.test(a) || a === '-Command' || a === '-command' || a === '-c');
    if (k >= 0 && args[k + 1] !== undefined) return classifyScript(args[k + 1]!, { ...ctx, depth: ctx.depth + 1, dialect: cmd === 'pwsh' || cmd === 'powershell' ? 'powershell' : 'sh' });
    const script = args.find((a) => !a.startsWith('-'));
    if (script) return low(`runs the script ${script}, which we cannot see into`);
    if (heredocs.length) return combine(heredocs.map((h) => classifyScript(h, { ...ctx, depth: ctx.depth + 1 })));
    if (stdin === 'network') return high('runs code downloaded from the network');
    if (stdin === 'pipe') return low('runs commands from a pipe, which we cannot see');
    return NONE;
  }
  if (stdin === 'network') return high('runs code downloaded from the network');
  if (cmd === 'node' || cmd === 'nodejs') {
    if (args.some((a) => a === '--test' || a === '--check' || a === '-c')) return NONE;
  }
  if (cmd.startsWith('python')) {
    const m = args.indexOf('-m');
    if (m >= 0) {
      const mod = args[m + 1] ?? '';
      if (/^(pytest|unittest|pip|venv|virtualenv|http\.server|json\.tool|py_compile|compileall|mypy|black|ruff|isort|flake8|pylint|build|timeit|cProfile|pdb|doctest|pydoc|coverage|tox|nox|ensurepip|site|tabnanny|zipfile|tarfile|uvicorn|pyright|pre_commit)$/.test(mod)) return NONE;
      if (mod === 'twine' && args.includes('upload')) return high('uploads a package to a registry');
      return low(`runs the module ${mod}, which we cannot see into`);
    }
  }
  if (args.some((a) => a === '-i' || /^-[a-z]*i/.test(a)) && (cmd === 'perl' || cmd === 'ruby')) return REWINDABLE; // in-place edits
  const k = args.findIndex((a) => a === '-c' || a === '-e' || a === '-p' || a === '--eval' || a === '--print' || a === '-r');
  if (k >= 0) return low(`runs inline ${cmd} code, which we cannot see into`);
  const script = args.find((a) => !a.startsWith('-'));
  if (script) return low(`runs the program ${script}, which we cannot see into`);
  if (heredocs.length || stdin) return low(`runs ${cmd} code from standard input`);
  return NONE; // a REPL
}

function classifyWords(w0: string[], ctx: Ctx, sc: SimpleCommand, stdin: 'network' | 'pipe' | null): Verdict {
  const u = unwrap(w0, ctx);
  const local: Ctx = { ...ctx, cwd: u.cwd };
  if (u.split !== undefined) return classifyScript(u.split, { ...local, depth: ctx.depth + 1 });
  const w = u.w;
  if (w.length === 0) return NONE;
  const raw = w[0]!;
  const cmd = base(raw);
  const args = w.slice(1);
  const lc = cmd.toLowerCase();
  if (ctx.dialect === 'powershell') {
    const ps = powershellVerdict(lc, args, local);
    if (ps) return ps;
  }
  if (cmd === 'git') return gitVerdict(args, local);
  if (cmd === 'cd' || cmd === 'pushd' || cmd === 'popd') return NONE;
  if (cmd === 'npm' || cmd === 'pnpm' || cmd === 'yarn' || cmd === 'bun') return pkgVerdict(cmd, args, local);
  if (cmd === 'cargo') {
    const sub = positionals(args)[0] ?? '';
    if (/^(publish|yank|owner|login|logout)$/.test(sub)) return high(`cargo ${sub} changes the crate registry`);
    if (sub === 'run') return low('runs the program (cargo run)');
    return NONE;
  }
  if (cmd === 'go') {
    const sub = positionals(args)[0] ?? '';
    return sub === 'run' || sub === 'generate' ? low(`go ${sub} runs programs we cannot see into`) : NONE;
  }
  if (cmd === 'gem') return /^(push|yank|owner|signin|signout)$/.test(positionals(args)[0] ?? '') ? high('changes the gem registry') : NONE;
  if (cmd === 'twine' || cmd === 'flit') return /^(upload|publish)$/.test(positionals(args)[0] ?? '') ? high('uploads a package to a registry') : NONE;
  if (cmd === 'poetry' || cmd === 'uv' || cmd === 'pdm' || cmd === 'hatch') return positionals(args)[0] === 'publish' ? high(`${cmd} publish uploads a package to a registry`) : NONE;
  if (cmd === 'dotnet') {
    const p = positionals(args);
    if (p[0] === 'nuget' && p[1] === 'push') return high('uploads a package to NuGet');
    return p[0] === 'run' ? low('runs the program (dotnet run)') : NONE;
  }
  if (cmd === 'mvn' || cmd === 'mvnw' || cmd === 'gradle' || cmd === 'gradlew' || cmd === './gradlew') {
    return args.some((a) => /^(deploy|release:perform|site-deploy|publish\w*|upload\w*|:?[\w:-]*:publish\w*)$/.test(a)) ? high(`${cmd} publishes artifacts`) : NONE;
  }
  if (cmd === 'make') {
    const targets = positionals(args, new Set(['-C', '-f', '-j', '-l', '-o', '-W', '-I', '--file', '--directory'])).filter((t) => !ASSIGN.test(t));
    if (targets.length === 0) return NONE;
    return combine(targets.map((t) => scriptVerdict(t, 'make')));
  }
  if (cmd === 'curl' || cmd === 'wget' || cmd === 'http' || cmd === 'https' || cmd === 'xh' || cmd === 'httpie' || cmd === 'curlie') return curlVerdict(cmd, args);
  if (cmd === 'rsync' || cmd === 'scp') {
    if (!args.some((a) => !a.startsWith('-') && /^[^/]*:/.test(a) && !/^[A-Za-z]:[\\/]/.test(a))) return REWINDABLE;
    return high(`${cmd} copies files to or from another machine`);
  }
  if (NETWORK.has(cmd)) return high(`${cmd} talks to another machine`);
  if (cmd === 'kubectl' || cmd === 'oc' || cmd === 'k') {
    if (args.some((a) => a.startsWith('--dry-run') && a !== '--dry-run=none')) return NONE;
    const sub = positionals(args, new Set(['-n', '--namespace', '--context', '-f', '--filename', '-l', '--selector', '-o', '--output', '-c', '--container'])) [0] ?? '';
    if (/^(get|describe|logs|top|explain|version|api-resources|api-versions|cluster-info|diff|auth|config|completion|wait|events|plugin|kustomize)$/.test(sub)) return NONE;
    if (/^(apply|create|delete|patch|replace|scale|rollout|set|edit|label|annotate|drain|cordon|uncordon|taint|expose|run|exec|cp|autoscale|certificate)$/.test(sub)) return high(`kubectl ${sub} changes a cluster`);
    return low(`kubectl ${sub}`);
  }
  if (cmd === 'helm') {
    const sub = positionals(args, new Set(['-n', '--namespace', '--kube-context', '-f', '--values', '--set']))[0] ?? '';
    if (/^(install|upgrade|uninstall|delete|rollback|push|test)$/.test(sub)) return high(`helm ${sub} changes a cluster`);
    if (/^(template|lint|list|ls|status|get|show|search|repo|dependency|dep|package|version|env|history|verify|create|pull|completion|plugin)$/.test(sub)) return NONE;
    return low(`helm ${sub}`);
  }
  if (cmd === 'terraform' || cmd === 'tofu' || cmd === 'terragrunt') {
    const p = positionals(args, new Set(['-var', '-var-file', '-target', '-chdir']));
    const sub = p[0] ?? '';
    if (/^(apply|destroy|import|taint|untaint|force-unlock|run-all)$/.test(sub) || (sub === 'state' && /^(mv|rm|push|replace-provider)$/.test(p[1] ?? '')) || (sub === 'workspace' && p[1] === 'delete')) return high(`${cmd} ${sub} changes real infrastructure`);
    return /^(plan|init|validate|fmt|show|output|graph|providers|version|console|get|workspace|state|login|logout|test|metadata|modules)$/.test(sub) || !sub ? NONE : low(`${cmd} ${sub}`);
  }
  if (cmd === 'pulumi') {
    const sub = positionals(args, new Set(['-s', '--stack', '-C', '--cwd']))[0] ?? '';
    if (/^(up|update|destroy|import|refresh|cancel|watch)$/.test(sub)) return high(`pulumi ${sub} changes real infrastructure`);
    return /^(preview|pre|stack|whoami|about|version|logs|config|login|logout|new|plugin|schema|convert|help)$/.test(sub) || !sub ? NONE : low(`pulumi ${sub}`);
  }
  if (cmd === 'docker' || cmd === 'podman' || cmd === 'nerdctl' || cmd === 'docker-compose') {
    const p = positionals(args, new Set(['-f', '--file', '-p', '--project-name', '-t', '--tag', '-H', '--host', '--context', '-e', '--env', '-v', '--volume', '-w', '--workdir', '--name', '--network', '-u', '--user', '--platform', '--env-file', '--entrypoint', '-c', '--config']));
    const compose = cmd === 'docker-compose' ? p : p[0] === 'compose' ? p.slice(1) : null;
    if (compose) {
      if ((compose[0] === 'down' || compose[0] === 'rm') && args.some((a) => a === '-v' || a === '--volumes')) return high('deletes container volumes (their data is not recorded)');
      if (compose[0] === 'push') return high('pushes images to a registry');
      return NONE;
    }
    const sub = p[0] ?? '';
    if (sub === 'push' || (sub === 'buildx' && args.includes('--push')) || (sub === 'image' && p[1] === 'push') || (sub === 'manifest' && p[1] === 'push')) return high(`${cmd} push uploads an image to a registry`);
    if (sub === 'login' || sub === 'logout') return NONE;
    if ((sub === 'volume' && /^(rm|prune)$/.test(p[1] ?? '')) || (sub === 'system' && p[1] === 'prune' && args.some((a) => a === '--volumes'))) return high('deletes container volumes (their data is not recorded)');
    return NONE;
  }
  if (cmd === 'gh' || cmd === 'glab' || cmd === 'hub' || cmd === 'tea') {
    const p = positionals(args, new Set(['-R', '--repo', '-t', '--title', '-b', '--body', '-F', '--body-file', '-B', '--base', '-H', '--head', '-l', '--label', '-a', '--assignee', '-m', '--milestone', '-r', '--reviewer', '-f', '--field', '--raw-field', '-X', '--method', '-q', '--jq', '--json', '-L', '--limit', '-s', '--state', '--hostname', '-w', '--workflow', '--ref', '-H', '--header', '--input', '-p', '--template']));
    if (p[0] === 'api') {
      const mi = args.findIndex((a) => a === '-X' || a === '--method' || a.startsWith('--method=') || a.startsWith('-X'));
      const method = mi < 0 ? null : (args[mi]!.includes('=') ? args[mi]!.split('=')[1]! : args[mi] === '-X' || args[mi] === '--method' ? (args[mi + 1] ?? '') : args[mi]!.slice(2)).toUpperCase();
      const fields = args.some((a) => /^(-f|-F|--field|--raw-field|--input)$/.test(a) || /^--(field|raw-field|input)=/.test(a));
      if (method === 'GET' || (!method && !fields) || (!method && args.includes('graphql') && !args.some((a) => /mutation/.test(a)))) return NONE;
      return high(`${cmd} api ${method ?? 'POST'} changes state on the forge`);
    }
    const act = p[1] ?? '';
    if (p[0] === 'auth' || p[0] === 'config' || p[0] === 'alias' || p[0] === 'extension' || p[0] === 'completion' || p[0] === 'help' || p[0] === 'browse' || p[0] === 'status' || p[0] === 'search' || !p[0]) return NONE;
    if (/^(view|list|ls|status|diff|checks|browse|watch|download|clone|checkout|co|develop|view|logs|log)$/.test(act)) return NONE;
    if (/^(create|merge|close|comment|edit|delete|review|reopen|ready|upload|rerun|cancel|run|enable|disable|set|fork|rename|archive|unarchive|sync|transfer|lock|unlock|pin|unpin|approve|revoke|note|update-branch|add|remove|rm|deploy|publish)$/.test(act)) return high(`${cmd} ${p[0]} ${act} changes state on the forge`);
    return low(`${cmd} ${p[0]} ${act}`.trim());
  }
  if (CLOUD.has(cmd)) return cloudVerdict(cmd, args);
  if (DB.has(cmd)) return dbVerdict(cmd, args);
  if (cmd === 'prisma' || (cmd === 'npx' && args[0] === 'prisma')) {
    const p = positionals(args);
    if ((p[0] === 'migrate' && /^(deploy|dev|reset|resolve)$/.test(p[1] ?? '')) || (p[0] === 'db' && /^(push|execute|seed|pull)$/.test(p[1] ?? ''))) return high(`prisma ${p[0]} ${p[1]} changes a database`);
    return NONE;
  }
  if (cmd === 'alembic' || cmd === 'knex' || cmd === 'sequelize' || cmd === 'flyway' || cmd === 'liquibase' || cmd === 'dbmate' || cmd === 'migrate' || cmd === 'goose') {
    return positionals(args).some((a) => /^(upgrade|downgrade|migrate|migrate:\w+|up|down|redo|reset|rollback|apply|update|seed|seed:run|db:\w+)$/.test(a)) ? high(`${cmd} changes a database`) : NONE;
  }
  if (cmd === 'rails' || cmd === 'rake') {
    const p = positionals(args);
    if (p.some((a) => /^db:/.test(a) && !/^db:(version|migrate:status)$/.test(a))) return high(`${cmd} ${p[0]} changes a database`);
    if (/^(test|t|server|s|console|c|generate|g|routes|spec|assets:precompile|about|notes|stats|runner|credentials:show)$/.test(p[0] ?? '')) return NONE;
    return low(`${cmd} ${p[0] ?? ''}`.trim());
  }
  if (PROCESS.has(cmd)) {
    if ((cmd === 'systemctl' || cmd === 'service' || cmd === 'launchctl') && args.some((a) => /^(status|list|list-units|is-active|is-enabled|show|cat|print|--status-all)$/.test(a))) return NONE;
    if (cmd === 'crontab' && (args.includes('-l') || args.length === 0)) return NONE;
    return high(`${cmd} changes running processes or services, which a rewind does not restore`);
  }
  if (SYSPKG.has(cmd)) {
    const p = positionals(args, new Set(['-o', '-t', '--cask']));
    const sub = p[0] ?? '';
    if (/^(install|add|reinstall|-S)$/.test(sub) || args.includes('-S')) {
      const undo = cmd === 'brew' ? 'brew uninstall' : cmd === 'apk' ? 'apk del' : cmd === 'pacman' ? 'pacman -R' : cmd === 'snap' ? 'snap remove' : cmd === 'winget' || cmd === 'choco' || cmd === 'scoop' ? `${cmd} uninstall` : `${cmd} remove`;
      const pkgs = p.slice(1);
      return { ...high(`installs system packages, outside the workspace`, 'compensatable'), ...(pkgs.length ? { comps: [{ text: `${undo} ${pkgs.map(quoteArg).join(' ')}` }] } : {}) };
    }
    if (/^(remove|uninstall|purge|del|erase|autoremove|upgrade|dist-upgrade|full-upgrade|update|-R|-Syu|tap|untap|link|unlink|services|cleanup)$/.test(sub) || args.includes('-R')) {
      if (sub === 'update' && cmd !== 'brew') return NONE; // refreshes package lists only
      return high(`${cmd} ${sub} changes installed system packages`);
    }
    return NONE;
  }
  if (cmd === 'dd') return args.some((a) => a.startsWith('of=') && outsideWorkspace(a.slice(3), local)) ? high('dd writes outside the workspace') : REWINDABLE;
  if (cmd === 'sed' || cmd === 'gsed') {
    return args.some((a) => a === '-i' || a.startsWith('-i') || a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a)) ? fileVerdict(positionals(args, new Set(['-e', '-f', '--expression', '--file'])).slice(args.some((a) => a === '-e' || a === '-f' || a.startsWith('--expression')) ? 0 : 1), local) : NONE;
  }
  if (FILE_CMDS.has(cmd)) return fileVerdict(positionals(args, new Set(['-m', '--mode', '-t', '--target-directory', '-S', '--suffix', '-o', '-g', '-C', '-f', '--file', '-d', '-n', '-b', '-l', '-a'])), local);
  if (INTERPRETERS.has(cmd) || SHELLS.has(cmd)) return interpreterVerdict(cmd, args, local, stdin, sc.heredocs);
  if (cmd === 'deno') return /^(run|task|eval|serve)$/.test(positionals(args)[0] ?? '') ? low(`deno ${positionals(args)[0]} runs code we cannot see into`) : NONE;
  if (cmd === 'eval') return classifyScript(args.join(' '), { ...local, depth: ctx.depth + 1 });
  if (NONE_CMDS.has(cmd)) return NONE;
  if (raw.includes('/') || raw.startsWith('.')) return low(`runs the program ${raw}, which we cannot see into`);
  return UNKNOWN(cmd);
}

function fileVerdict(paths: string[], ctx: Ctx): Verdict {
  if (paths.length && paths.every((p) => p.startsWith('/dev/'))) return NONE; // `tee /dev/null`
  const outside = paths.find((p) => outsideWorkspace(p, ctx));
  if (outside) return high(`changes ${outside}, outside the workspace (not recorded)`);
  return REWINDABLE;
}

// PowerShell: cmdlets by verb; native commands fall through to the table above.
function powershellVerdict(cmd: string, args: string[], ctx: Ctx): Verdict | null {
  if (/^(invoke-webrequest|invoke-restmethod|iwr|irm)$/.test(cmd)) {
    const mi = args.findIndex((a) => /^-method$/i.test(a));
    const method = mi >= 0 ? (args[mi + 1] ?? '').toUpperCase() : null;
    if (method === 'GET' || method === 'HEAD') return NONE;
    if (method || args.some((a) => /^-(body|infile|form)$/i.test(a))) return high(`${cmd} sends data to a server`);
    return NONE;
  }
  if (/^(send-mailmessage|publish-module|publish-script|publish-psresource|push-nugetpackage)$/.test(cmd)) return high(`${cmd} sends data off this machine`);
  if (/^(invoke-expression|iex|start-process|invoke-command|icm|enter-pssession|new-pssession)$/.test(cmd)) return low(`${cmd} runs code we cannot see into`);
  if (/^(stop-process|kill|spps|restart-service|stop-service|start-service|set-service|restart-computer|stop-computer)$/.test(cmd)) return high(`${cmd} changes running processes or services`);
  if (/^(remove-item|ri|del|erase|rd|rmdir|set-content|sc|add-content|ac|new-item|ni|mkdir|md|copy-item|cpi|copy|cp|move-item|mi|move|mv|rename-item|rni|ren|out-file|clear-content|clc|expand-archive|compress-archive|tee-object|tee)$/.test(cmd)) {
    return fileVerdict(args.filter((a) => !a.startsWith('-')), ctx);
  }
  if (/^(get|select|where|foreach|format|measure|sort|group|test|write|out-host|out-string|out-null|convertto|convertfrom|compare|resolve|split|join|read|find|show|import-module|start-sleep|set-location|push-location|pop-location)(-|$)/.test(cmd) || /^(ls|dir|gci|cat|gc|type|echo|pwd|gl|cd|sl|select|where|\?|%|foreach|sleep|cls|clear|gm|gcm|measure|fl|ft|sls)$/.test(cmd)) return NONE;
  if (/^(set|new|remove|add|clear|register|unregister|install|uninstall|enable|disable|update|grant|revoke|import|export|save|sync|publish|invoke|start|stop|restart|suspend|resume|send|connect|disconnect|mount|dismount|approve|deny|deploy)-/.test(cmd)) return low(`${cmd} changes something we do not record`);
  return null;
}

/** Classifies a script (a command line): every simple command, the worst wins. */
function classifyScript(src: string, ctx: Ctx): Verdict {
  if (ctx.depth > 8) return low('nested too deeply to classify');
  const script = parseScript(src, ctx.dialect);
  const verdicts: Verdict[] = [];
  const runScript = (s: Script, c: Ctx) => {
    for (const pipe of s) {
      let upstreamNetwork = false;
      pipe.items.forEach((it, idx) => {
        if ('group' in it) {
          runScript(it.group, { ...c });
          return;
        }
        for (const sub of it.subs) verdicts.push(classifyScript(sub, { ...c, depth: c.depth + 1 }));
        const o = commandOverride(it.text, c.overrides);
        let v: Verdict;
        if (o) {
          v = { effect: o.effect, reason: 'set in your effects settings' };
          if (o.effect === 'irreversible' || o.effect === 'compensatable') v.severity = o.severity ?? 'high';
          if (o.compensation) v.comps = [{ text: o.compensation }];
        } else {
          v = classifyWords(it.words, c, it, idx > 0 ? (upstreamNetwork ? 'network' : 'pipe') : null);
          const outside = it.writes.find((p) => outsideWorkspace(p, c));
          if (outside) v = combine([v, high(`writes ${outside}, outside the workspace (not recorded)`)]);
          else if (it.writes.length && !it.writes.every((p) => /^\/dev\//.test(p))) v = combine([v, REWINDABLE]);
        }
        verdicts.push(v);
        const head = base(unwrap(it.words, c).w[0] ?? '');
        if (head === 'curl' || head === 'wget' || head === 'http' || head === 'https' || head === 'iwr' || head === 'irm' || head === 'fetch') upstreamNetwork = true;
        // `cd dir` changes the folder of what follows in this script (not in a pipeline).
        if (pipe.items.length === 1) {
          const w = it.words;
          if (w[0] === 'cd' || w[0] === 'pushd' || w[0] === 'Set-Location' || w[0] === 'sl') {
            const target = w.slice(1).find((a) => !a.startsWith('-'));
            c.cwd = target === undefined ? undefined : resolveDir(c.cwd, target);
          } else if (w[0] === 'popd') c.cwd = undefined;
        }
      });
    }
  };
  runScript(script, { ...ctx });
  return combine(verdicts);
}

export type CompensationUnit = { text: string } | { git: GitNeed };

export interface ShellVerdict {
  effect: Effect;
  severity?: Severity;
  reason?: string;
  /** A fixed compensation text (no git HEAD needed). */
  compensation?: string;
  /** Compensation units in execution order, when one needs a git HEAD looked up. */
  units?: CompensationUnit[];
  git?: GitNeed[];
}

/** Classifies a shell command: a chain takes its worst part. */
export function classifyShell(command: string, cwd?: string, overrides: readonly EffectOverride[] = [], opts: { root?: string; dialect?: Dialect } = {}): ShellVerdict {
  const v = classifyScript(command, { cwd, root: opts.root ?? cwd, overrides, depth: 0, dialect: opts.dialect ?? 'sh' });
  const out: ShellVerdict = { effect: v.effect };
  if (v.severity && (v.effect === 'irreversible' || v.effect === 'compensatable')) out.severity = v.severity;
  if (v.reason) out.reason = v.reason;
  if (v.comps?.length && (v.effect === 'compensatable' || v.effect === 'irreversible')) {
    const git = v.comps.filter((c): c is { git: GitNeed } => 'git' in c).map((c) => c.git);
    if (git.length) {
      out.git = git;
      out.units = v.comps;
    } else out.compensation = v.comps.map((t) => (t as { text: string }).text).reverse().join(' && ');
  }
  return out;
}

export interface ClassifyContext {
  cwd?: string;
  /** The workspace folder (default: cwd); shell file changes outside it are not recorded. */
  root?: string;
  overrides?: readonly EffectOverride[];
}

const MCP_READ = /^(get|list|read|search|fetch|find|query|describe|view|show|lookup|count|check|resolve|retrieve|browse|inspect|explain|preview|download|export|status|whoami|ping|echo)(_|-|[A-Z]|$)/i;

export function classifyCall(tool: string, input: unknown, ctx: ClassifyContext = {}): Classification {
  const summary = summarize(tool, input);
  const overrides = ctx.overrides ?? [];
  const byTool = toolOverride(tool, overrides);
  if (byTool) {
    const c: Classification = { effect: byTool.effect, summary, reason: 'set in your effects settings' };
    if (byTool.effect === 'irreversible' || byTool.effect === 'compensatable') c.severity = byTool.severity ?? 'high';
    if (byTool.compensation) c.compensation = byTool.compensation;
    return c;
  }
  if (FILE_TOOLS.has(tool)) return { effect: 'rewindable', summary };
  if (NONE_TOOLS.has(tool)) return { effect: 'none', summary };
  if (SHELL_TOOLS.has(tool)) {
    const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    const v = classifyShell(str(i.command), ctx.cwd, overrides, { ...(ctx.root ? { root: ctx.root } : {}), dialect: tool === 'PowerShell' ? 'powershell' : 'sh' });
    const c: Classification = { effect: v.effect, summary };
    if (v.severity) c.severity = v.severity;
    if (v.reason) c.reason = v.reason;
    if (v.compensation) c.compensation = v.compensation;
    if (v.git && v.units) {
      c.git = v.git;
      c.units = v.units;
      c.gitCommitIn = v.git[0]!.dir;
    }
    return c;
  }
  if (tool.startsWith('mcp__')) {
    const name = tool.split('__').slice(2).join('__') || tool;
    const s = oneLine(`${tool.split('__').slice(1).join(' ')} ${summary}`);
    if (MCP_READ.test(name)) return { effect: 'irreversible', severity: 'low', summary: s, reason: 'an MCP tool (its name suggests it only reads; configure it as none)' };
    return { effect: 'irreversible', severity: 'high', summary: s, reason: 'an MCP tool: it acts outside this machine unless configured otherwise' };
  }
  return { effect: 'irreversible', severity: 'low', summary, reason: `unknown tool "${tool}"` };
}

/** What a git HEAD lookup found: the commit and the branch (null when detached or unborn). */
export interface HeadInfo {
  sha: string | null;
  branch: string | null;
}

/**
 * The compensation text of a classified call, with the HEADs looked up now (right before the call
 * runs). Per repository only the earliest HEAD matters: resetting to it undoes every later commit.
 * Units are undone in reverse order of execution.
 */
export function completeCompensation(c: Classification, lookup: (dir: string, globals: string[]) => HeadInfo | null): string | undefined {
  if (!c.units?.length) return c.compensation;
  const texts: string[] = [];
  const seenReset = new Set<string>();
  const heads = new Map<string, HeadInfo | null>();
  for (const u of c.units) {
    if ('text' in u) {
      texts.push(u.text);
      continue;
    }
    const g = u.git;
    const key = `${g.dir}\0${g.globals.join('\0')}`;
    if (!heads.has(key)) heads.set(key, lookup(g.dir, g.globals));
    const h = heads.get(key);
    const git = `git -C ${quoteArg(g.dir)}${g.globals.map((x) => ' ' + quoteArg(x)).join('')}`;
    if (g.mode === 'soft' || g.mode === 'mixed') {
      if (seenReset.has(key)) continue;
      seenReset.add(key);
      if (h?.sha) texts.push(`${git} reset ${g.mode === 'soft' ? '--soft' : '--mixed'} ${h.sha}`);
      else if (g.mode === 'soft' && h) texts.push(`${git} update-ref -d HEAD`); // the first commit: un-commit, keep the changes staged
    } else if (h) {
      const back = h.branch ? `${git} switch ${quoteArg(h.branch)}` : h.sha ? `${git} checkout --detach ${h.sha}` : null;
      if (!back) continue;
      texts.push(g.mode === 'switch-new' && g.branch ? `${back} && ${git} branch -D ${quoteArg(g.branch)}` : back);
    }
  }
  if (c.compensation) texts.push(c.compensation);
  return texts.length ? texts.reverse().join(' && ') : undefined;
}
