// What a command is classified in — its folder, the workspace, the user's overrides, the dialect —
// and the helpers every family of rules shares: resolving a folder argument, telling whether a path
// lies outside the workspace (changes there are not recorded), a command's base name, and the
// arguments that are not options.
import type { EffectOverride } from '../storeFiles/config';
import { isInside } from '../paths';
import type { Dialect } from '../shell/lex';
import type { Verdict } from './verdict';

export interface Ctx {
  /** The folder the command runs in (undefined once a `cd` went somewhere we cannot tell). */
  cwd: string | undefined;
  /** The workspace folder: file changes outside it are not recorded. */
  root: string | undefined;
  overrides: readonly EffectOverride[];
  depth: number;
  dialect: Dialect;
}

/** The stdin of a command in a pipeline: from a network download, from another command, or none. */
export type Stdin = 'network' | 'pipe' | null;

/** Classifies a nested script (`bash -c "…"`, a heredoc fed to a shell); given to the rules that need it. */
export type ClassifyScript = (src: string, ctx: Ctx) => Verdict;

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
export function resolveDir(cwd: string | undefined, arg: string | undefined): string | undefined {
  if (!arg || /[$`*?~]/.test(arg) || arg === '-') return undefined;
  if (arg.startsWith('/') || /^[A-Za-z]:[\\/]/.test(arg)) return joinPath('', arg);
  return cwd ? joinPath(cwd, arg) : undefined;
}

/** Paths in a command line follow the workspace's style, whatever machine classifies them. */
function styleOf(root: string): NodeJS.Platform {
  return /^[A-Za-z]:[\\/]/.test(root) || root.startsWith('\\\\') ? 'win32' : 'linux';
}

/** A path argument that names something outside the workspace (and is not scratch space). */
export function outsideWorkspace(arg: string, ctx: Ctx): boolean {
  if (arg.startsWith('-') || arg === '') return false;
  if (/^(\/dev\/(null|stdout|stderr|tty|fd\/\d+)|\/tmp(\/|$)|\/var\/tmp(\/|$)|\$TMPDIR|\$\{TMPDIR)/.test(arg)) return false;
  if (arg.startsWith('~') || arg.startsWith('$HOME') || arg.startsWith('${HOME}')) return true;
  const root = ctx.root ?? ctx.cwd;
  if (!root) return false;
  const abs = resolveDir(ctx.cwd ?? root, arg);
  if (!abs) return false;
  return !isInside(abs, root, styleOf(root));
}

/** A command's name without its folder or `.exe` (`/usr/bin/git`, `git.exe` → `git`). */
export function base(cmd: string): string {
  return cmd.replace(/^.*[\\/]/, '').replace(/\.exe$/i, '');
}

/** Arguments that are not options (values of a few well-known option names are skipped). */
export function positionals(args: string[], withValue: ReadonlySet<string> = new Set()): string[] {
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
