// Tool classification: what undoing a tool call would take. File writes are `rewindable` (we
// hold the old content), reads are `none`, a local commit is `compensatable` (a second action
// offsets it), and anything that leaves the machine is `irreversible`.
import type { EffectOverride } from './config';
import type { Effect, Severity } from './records';

export interface Classification {
  effect: Effect;
  /** For irreversible/compensatable: `high` when we know what the call does, `low` when we guessed. */
  severity?: Severity;
  /** One line saying what the call did, e.g. `git push origin main`. */
  summary: string;
  compensation?: string;
  /** A git commit in this folder: the compensation needs the HEAD recorded before it runs. */
  gitCommitIn?: string;
}

export const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
export const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
const NONE_TOOLS = new Set([
  'Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'NotebookRead',
  'Task', 'Agent', 'ExitPlanMode', 'BashOutput', 'KillShell', 'KillBash', 'ListMcpResourcesTool', 'ReadMcpResourceTool',
  'AskUserQuestion', 'Skill', 'SlashCommand',
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

function overrideFor(tool: string, command: string | null, overrides: readonly EffectOverride[]): EffectOverride | undefined {
  for (const o of overrides) {
    if (o.tool && globToRegExp(o.tool).test(tool)) return o;
    if (o.command && command !== null) {
      try {
        if (new RegExp(o.command).test(command)) return o;
      } catch {
        /* a bad pattern in the user's config matches nothing */
      }
    }
  }
  return undefined;
}

// ---- shell commands

/** The simple commands of a chain (`&&`, `||`, `;`, `|`, newlines), quotes respected. */
export function splitChain(command: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      cur += ch;
      if (ch === '\\' && quote === '"' && i + 1 < command.length) cur += command[++i];
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      cur += ch;
      continue;
    }
    if (ch === '\\' && i + 1 < command.length) {
      cur += ch + command[++i];
      continue;
    }
    const two = command.slice(i, i + 2);
    if (two === '&&' || two === '||') {
      parts.push(cur);
      cur = '';
      i++;
      continue;
    }
    if (ch === ';' || ch === '|' || ch === '\n' || ch === '&') {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Shell words of one simple command (quotes removed), leading `VAR=value` assignments dropped. */
export function words(simple: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < simple.length; i++) {
    const ch = simple[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < simple.length) cur += simple[++i];
      else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
      continue;
    }
    if (ch === '\\' && i + 1 < simple.length) {
      cur += simple[++i];
      has = true;
      continue;
    }
    if (/\s/.test(ch)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
      continue;
    }
    cur += ch;
  }
  if (has || cur) out.push(cur);
  while (out.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(out[0]!)) out.shift();
  return out;
}

const WRAPPERS = new Set(['sudo', 'env', 'nohup', 'time', 'command', 'exec', 'nice', 'timeout', 'xargs']);

/** Read-only or purely local commands: never listed. */
const LOCAL = new Set([
  'ls', 'cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'find', 'fd', 'wc', 'sort', 'uniq',
  'cut', 'tr', 'sed', 'awk', 'echo', 'printf', 'pwd', 'cd', 'pushd', 'popd', 'true', 'false', 'test', '[', 'which', 'type',
  'file', 'stat', 'du', 'df', 'tree', 'diff', 'cmp', 'date', 'whoami', 'id', 'uname', 'hostname', 'env', 'printenv',
  'mkdir', 'touch', 'cp', 'mv', 'rm', 'rmdir', 'ln', 'chmod', 'tee', 'xxd', 'od', 'hexdump', 'basename', 'dirname',
  'realpath', 'readlink', 'sleep', 'jq', 'yq', 'python', 'python3', 'node', 'deno', 'bun', 'ruby', 'perl', 'bash', 'sh', 'zsh',
  'tsc', 'eslint', 'prettier', 'jest', 'vitest', 'mocha', 'pytest', 'go', 'cargo', 'make', 'cmake', 'gcc', 'g++', 'clang',
  'javac', 'java', 'mvn', 'gradle', 'dotnet', 'tar', 'zip', 'unzip', 'gzip', 'gunzip', 'sha256sum', 'md5sum', 'git-lfs',
  'source', '.', 'export', 'set', 'unset', 'alias', 'read', 'exit', 'seq', 'yes', 'column', 'paste', 'join', 'comm',
  'patch', 'npx', 'tsx', 'ts-node',
]);

/** Package managers: local except for their publishing subcommands. */
const PUBLISH = /^(publish|unpublish|deprecate|dist-tag|owner|access|login|adduser)$/;

interface ShellVerdict {
  effect: Effect;
  severity?: Severity;
  compensation?: string;
  gitCommitIn?: string;
}

const RANK: Record<Effect, number> = { none: 0, rewindable: 1, compensatable: 2, irreversible: 3 };

/** Git's global options before the subcommand (`-C dir`, `-c k=v`, `--git-dir=…`). */
function gitSubcommand(args: string[]): { sub: string; rest: string[]; dir: string | null } {
  let i = 0;
  let dir: string | null = null;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '-C') {
      dir = dir && !(args[i + 1] ?? '').startsWith('/') ? `${dir}/${args[i + 1]}` : (args[i + 1] ?? null);
      i += 2;
    } else if (a === '-c' || a === '--git-dir' || a === '--work-tree' || a === '--namespace' || a === '--exec-path' || a === '--config-env') i += 2;
    else if (a.startsWith('-')) i += 1;
    else break;
  }
  return { sub: args[i] ?? '', rest: args.slice(i + 1), dir };
}

function classifySimple(simple: string, cwd: string | undefined): ShellVerdict {
  let w = words(simple);
  while (w.length && WRAPPERS.has(w[0]!)) {
    w = w.slice(1);
    while (w.length && (w[0]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0]!) || /^\d+[smhd]?$/.test(w[0]!))) w = w.slice(1);
  }
  const cmd = (w[0] ?? '').replace(/^.*\//, '');
  const args = w.slice(1);
  if (!cmd) return { effect: 'none' };
  if (cmd === 'git') {
    const { sub, rest, dir } = gitSubcommand(args);
    const where = dir ? (dir.startsWith('/') || !cwd ? dir : `${cwd}/${dir}`) : cwd;
    if (sub === 'push' || sub === 'send-email' || sub === 'svn' || sub === 'request-pull') return { effect: 'irreversible', severity: 'high' };
    if (sub === 'commit' || sub === 'merge' || sub === 'rebase' || sub === 'cherry-pick' || sub === 'revert' || sub === 'am') {
      return sub === 'commit' ? { effect: 'compensatable', severity: 'high', ...(where ? { gitCommitIn: where } : {}) } : { effect: 'compensatable', severity: 'high', compensation: `git${dir ? ` -C ${dir}` : ''} reset --hard ORIG_HEAD` };
    }
    if (sub === 'tag' && rest.some((r) => !r.startsWith('-')) && !rest.includes('-l') && !rest.includes('--list')) return { effect: 'compensatable', severity: 'high', compensation: `git tag -d ${rest.find((r) => !r.startsWith('-'))}` };
    if (sub === 'reset' || sub === 'clean' || sub === 'stash' || sub === 'checkout' || sub === 'switch' || sub === 'restore' || sub === 'branch' || sub === 'gc' || sub === 'prune') {
      return sub === 'clean' || (sub === 'reset' && rest.includes('--hard')) ? { effect: 'irreversible', severity: 'high' } : { effect: 'none' };
    }
    return { effect: 'none' }; // status, diff, log, show, add, fetch…
  }
  if (cmd === 'npm' || cmd === 'pnpm' || cmd === 'yarn' || cmd === 'bun' || cmd === 'cargo' || cmd === 'gem' || cmd === 'twine' || cmd === 'poetry' || cmd === 'dotnet') {
    const sub = args.find((a) => !a.startsWith('-')) ?? '';
    if (PUBLISH.test(sub) || (cmd === 'twine' && sub === 'upload') || (cmd === 'dotnet' && sub === 'nuget')) return { effect: 'irreversible', severity: 'high' };
    return { effect: 'none' };
  }
  if (cmd === 'curl' || cmd === 'wget' || cmd === 'http' || cmd === 'https') {
    const sends = args.some((a) => /^(-X|--request)$/.test(a) || /^-X(POST|PUT|PATCH|DELETE)$/i.test(a) || /^(-d|--data.*|-F|--form.*|-T|--upload-file|--json|--post-data.*|--post-file.*|--method.*)$/.test(a) || /^--data/.test(a));
    if (sends) {
      const i = args.findIndex((a) => a === '-X' || a === '--request');
      const method = i >= 0 ? (args[i + 1] ?? '').toUpperCase() : 'POST';
      if (method === 'GET' || method === 'HEAD') return { effect: 'none' };
      return { effect: 'irreversible', severity: 'high' };
    }
    return { effect: 'none' };
  }
  if (['ssh', 'scp', 'sftp', 'rsync', 'ftp', 'telnet', 'nc', 'mail', 'sendmail', 'mutt'].includes(cmd)) {
    if (cmd === 'rsync' && !args.some((a) => /^[^/]*:/.test(a))) return { effect: 'none' };
    return { effect: 'irreversible', severity: 'high' };
  }
  const sub = args.find((a) => !a.startsWith('-')) ?? '';
  if (cmd === 'kubectl' && /^(apply|create|delete|patch|replace|scale|rollout|set|edit|label|annotate|drain|cordon|expose|run)$/.test(sub)) return { effect: 'irreversible', severity: 'high' };
  if ((cmd === 'terraform' || cmd === 'tofu' || cmd === 'pulumi') && /^(apply|destroy|import|up|state)$/.test(sub)) return { effect: 'irreversible', severity: 'high' };
  if ((cmd === 'docker' || cmd === 'podman') && /^(push|login)$/.test(sub)) return { effect: 'irreversible', severity: 'high' };
  if (cmd === 'helm' && /^(install|upgrade|uninstall|delete|rollback|push)$/.test(sub)) return { effect: 'irreversible', severity: 'high' };
  if (cmd === 'gh' || cmd === 'glab') {
    const act = args.filter((a) => !a.startsWith('-'))[1] ?? '';
    if (/^(create|merge|close|comment|edit|delete|review|reopen|upload|release|run|set|deploy)$/.test(act) || sub === 'api') return { effect: 'irreversible', severity: 'high' };
    return { effect: 'none' };
  }
  if (['aws', 'gcloud', 'az', 'heroku', 'vercel', 'netlify', 'fly', 'flyctl', 'firebase', 'wrangler', 'serverless', 'sls', 'ansible-playbook', 'psql', 'mysql', 'mongo', 'mongosh', 'redis-cli'].includes(cmd)) {
    return { effect: 'irreversible', severity: 'high' };
  }
  if (cmd === 'docker' || cmd === 'podman' || cmd === 'kubectl' || cmd === 'terraform' || cmd === 'helm') return { effect: 'none' };
  if (LOCAL.has(cmd)) return { effect: 'none' };
  return { effect: 'irreversible', severity: 'low' };
}

/** Classifies a shell command: a chain takes its worst part. */
export function classifyShell(command: string, cwd?: string, overrides: readonly EffectOverride[] = []): ShellVerdict {
  let worst: ShellVerdict = { effect: 'none' };
  for (const part of splitChain(command)) {
    const o = overrideFor('', part, overrides.filter((x) => x.command));
    const v: ShellVerdict = o ? { effect: o.effect, severity: 'high', ...(o.compensation ? { compensation: o.compensation } : {}) } : classifySimple(part, cwd);
    const better = RANK[v.effect] > RANK[worst.effect] || (RANK[v.effect] === RANK[worst.effect] && v.severity === 'high' && worst.severity !== 'high');
    if (better) worst = v;
  }
  return worst;
}

export interface ClassifyContext {
  cwd?: string;
  overrides?: readonly EffectOverride[];
}

export function classifyCall(tool: string, input: unknown, ctx: ClassifyContext = {}): Classification {
  const summary = summarize(tool, input);
  const overrides = ctx.overrides ?? [];
  const byTool = overrideFor(tool, null, overrides.filter((o) => o.tool));
  if (byTool) {
    const c: Classification = { effect: byTool.effect, summary };
    if (byTool.effect === 'irreversible' || byTool.effect === 'compensatable') c.severity = 'high';
    if (byTool.compensation) c.compensation = byTool.compensation;
    return c;
  }
  if (FILE_TOOLS.has(tool)) return { effect: 'rewindable', summary };
  if (NONE_TOOLS.has(tool)) return { effect: 'none', summary };
  if (SHELL_TOOLS.has(tool)) {
    const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    const v = classifyShell(str(i.command), ctx.cwd, overrides);
    const c: Classification = { effect: v.effect, summary };
    if (v.severity && (v.effect === 'irreversible' || v.effect === 'compensatable')) c.severity = v.severity;
    if (v.compensation) c.compensation = v.compensation;
    if (v.gitCommitIn) c.gitCommitIn = v.gitCommitIn;
    return c;
  }
  if (tool.startsWith('mcp__')) return { effect: 'irreversible', severity: 'high', summary: oneLine(`${tool.split('__').slice(1).join(' ')} ${summary}`) };
  return { effect: 'irreversible', severity: 'low', summary };
}
