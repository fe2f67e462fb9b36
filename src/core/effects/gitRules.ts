// Rules for git: its global options (`-C dir`, `-c k=v`, `--git-dir=…`) are read before the
// subcommand so the compensation names the right repository. Commits, merges, resets and branch
// switches are compensatable through the HEAD recorded before them (a `GitNeed` the recorder looks
// up); pushes, `send-email` and deletions of refs are irreversible; reads are none; commands that
// only change work-tree files (`git rm`, `git restore`…) are rewindable.
import { quoteArg } from '../shell/quote';
import { type Ctx, positionals, resolveDir } from './commandContext';
import { type GitNeed, high, low, NONE, REWINDABLE, type Verdict } from './verdict';

const GIT_GLOBAL_WITH_VALUE = new Set([
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
  '--exec-path',
  '--attr-source',
]);
const GIT_NONE = new Set([
  'status',
  'diff',
  'log',
  'show',
  'fetch',
  'add',
  'grep',
  'blame',
  'annotate',
  'ls-files',
  'ls-tree',
  'ls-remote',
  'rev-parse',
  'rev-list',
  'describe',
  'shortlog',
  'cat-file',
  'for-each-ref',
  'show-ref',
  'name-rev',
  'merge-base',
  'diff-tree',
  'diff-files',
  'diff-index',
  'whatchanged',
  'help',
  'version',
  'init',
  'clone',
  'check-ignore',
  'check-attr',
  'check-ref-format',
  'var',
  'archive',
  'bundle',
  'format-patch',
  'count-objects',
  'fsck',
  'verify-commit',
  'verify-tag',
  'cherry',
  'range-diff',
  'difftool',
  'show-branch',
  'hash-object',
  'request-pull',
  'maintenance',
  'gc',
  'repack',
  'pack-refs',
  'credential',
  'mergetool',
  'bisect',
  'sparse-checkout',
  'submodule',
  'worktree',
  'notes',
  'lfs',
  'restore-index',
  'update-index',
  'read-tree',
  'write-tree',
  'mktree',
  'column',
  'interpret-trailers',
  'stripspace',
]);
const GIT_FILES = new Set(['rm', 'mv', 'apply', 'restore', 'checkout-index']);

/** Global options that end git's answer before any subcommand runs (it prints and exits). */
const GIT_PRINT_AND_EXIT = new Set(['--version', '--help', '-h', '--html-path', '--man-path', '--info-path']);
/** Subcommand options that take a value (so the value is no positional). */
const GIT_OPTS_WITH_VALUE = new Set([
  '-m',
  '-F',
  '-C',
  '-c',
  '--author',
  '--date',
  '-S',
  '--cleanup',
  '--fixup',
  '--squash',
  '-u',
  '--onto',
  '-X',
  '--strategy',
  '-s',
  '-o',
  '--push-option',
  '--repo',
]);

/** The global options before the subcommand: the repository's folder, the globals a compensation repeats, where the subcommand stands. */
function readGlobals(args: string[], cwd: string | undefined): { dir: string | undefined; globals: string[]; at: number } | null {
  let dir = cwd;
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
    if (GIT_PRINT_AND_EXIT.has(name)) return null;
    if (name === '--exec-path' && !a.includes('=') && (args[i + 1] === undefined || args[i + 1]!.startsWith('-'))) return null;
    if (GIT_GLOBAL_WITH_VALUE.has(name) && !a.includes('=')) i++;
  }
  return { dir, globals, at: i };
}

/** One git call as its rule sees it. */
interface GitCall {
  sub: string;
  /** The words after the subcommand, and those of them that are no option or option value. */
  rest: string[];
  pos: string[];
  dir: string | undefined;
  /** Is any of these flags given (`--flag=value` counts for a long one)? */
  has(...flags: string[]): boolean;
  /** A compensation through the HEAD recorded before the call. */
  need(mode: GitNeed['mode'], branch?: string): Verdict['comps'];
}

function gitCall(args: string[], g: { dir: string | undefined; globals: string[]; at: number }): GitCall {
  const { dir, globals } = g;
  const rest = args.slice(g.at + 1);
  return {
    sub: args[g.at] ?? '',
    rest,
    pos: positionals(rest, GIT_OPTS_WITH_VALUE),
    dir,
    has: (...flags) => rest.some((r) => flags.includes(r) || flags.some((f) => f.startsWith('--') && r.startsWith(f + '='))),
    need: (mode, branch) => (dir ? [{ git: { dir, globals, mode, ...(branch ? { branch } : {}) } }] : []),
  };
}

/** `git -C dir` as a compensation command writes it. */
const gitIn = (dir: string | undefined) => `git${dir ? ` -C ${quoteArg(dir)}` : ''}`;

const movesHead: (c: GitCall) => Verdict = ({ sub, has, need }) =>
  has('--abort', '--quit') ? REWINDABLE : { ...high(`moves HEAD (git ${sub})`, 'compensatable'), comps: need('mixed') };

const rewritesObjects: (c: GitCall) => Verdict = ({ sub }) => high(`rewrites or deletes git objects (git ${sub})`);

/** Unstaging paths touches the index only; a mode or a revision moves HEAD. */
function reset({ rest, pos, has, need }: GitCall): Verdict {
  const mode = has('--soft', '--mixed', '--hard', '--keep', '--merge');
  const rev =
    pos[0] !== undefined &&
    !rest.includes('--') &&
    /^(HEAD|@|ORIG_HEAD|FETCH_HEAD)([~^].*)?$|^[0-9a-f]{7,64}$|[~^]\d*$|^[\w.-]+\/[\w./-]+$/.test(pos[0]);
  if (!mode && (!rev || pos.length > 1)) return NONE; // unstaging paths: the index only
  return { ...high('moves HEAD (git reset)', 'compensatable'), comps: need('mixed') };
}

function tag({ pos, has, dir }: GitCall): Verdict {
  if (has('-d', '--delete')) return high('deletes a tag (not recorded)');
  if (has('-l', '--list', '-v', '--verify', '--contains', '--no-contains', '--points-at', '--merged', '--no-merged') || pos.length === 0)
    return NONE;
  return { ...high('creates a tag', 'compensatable'), comps: [{ text: `${gitIn(dir)} tag -d ${quoteArg(pos[0]!)}` }] };
}

const BRANCH_READS = [
  '-l',
  '--list',
  '-a',
  '--all',
  '-r',
  '--remotes',
  '-v',
  '-vv',
  '--show-current',
  '--contains',
  '--merged',
  '--no-merged',
  '--points-at',
];

function branch({ pos, has, dir }: GitCall): Verdict {
  if (has('-d', '-D', '--delete')) return high('deletes a branch (not recorded)');
  if (has('-m', '-M', '--move', '-c', '-C', '--copy')) return high('renames or copies a branch', 'compensatable');
  if (has(...BRANCH_READS) || pos.length === 0) return NONE;
  if (has('-u', '--set-upstream-to', '--unset-upstream', '--edit-description')) return NONE;
  return { ...high('creates a branch', 'compensatable'), comps: [{ text: `${gitIn(dir)} branch -D ${quoteArg(pos[0]!)}` }] };
}

/** `checkout`/`switch`: a new branch, files (rewindable), or a branch switch. */
function switchBranch({ sub, rest, pos, has, need }: GitCall): Verdict {
  const newBranch = rest.findIndex((r) => r === '-b' || r === '-B' || r === '-c' || r === '-C' || r === '--orphan');
  if (newBranch >= 0) {
    const name = rest[newBranch + 1] ?? '';
    return { ...high('creates a branch and switches to it', 'compensatable'), comps: need('switch-new', name) };
  }
  if (
    sub === 'checkout' &&
    (rest.includes('--') || pos.some((p) => p === '.' || /[^/]\.[A-Za-z0-9]{1,8}$/.test(p) || p.includes('*')) || pos.length > 1)
  )
    return REWINDABLE;
  if (pos.length === 0 && !has('--detach', '-')) return NONE;
  return { ...high('switches branch (HEAD is not rewound with the files)', 'compensatable'), comps: need('switch') };
}

function stash({ pos }: GitCall): Verdict {
  const act = pos[0] ?? 'push';
  if (act === 'drop' || act === 'clear') return high('deletes stashed changes (not recorded)');
  if (act === 'list' || act === 'show' || act === 'create') return NONE;
  return REWINDABLE;
}

function clean({ rest, has }: GitCall): Verdict {
  if (has('-n', '--dry-run')) return NONE;
  if (rest.some((r) => /^-[a-zA-Z]*[xX]/.test(r))) return high('deletes ignored files, which are never recorded');
  return REWINDABLE;
}

const CONFIG_READS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '-l',
  '--list',
  '--show-origin',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
];
const CONFIG_WRITES = ['--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit'];

function config({ pos, has }: GitCall): Verdict {
  if (has(...CONFIG_READS) || pos[0] === 'get' || pos[0] === 'list') return NONE;
  if (pos.length <= 1 && !has(...CONFIG_WRITES)) return NONE;
  return high('changes git configuration, which a rewind does not restore', 'compensatable');
}

function remote({ pos, has }: GitCall): Verdict {
  const act = pos[0] ?? '';
  if (act === '' || act === 'show' || act === 'get-url' || act === '-v' || has('-v', '--verbose')) return NONE;
  if (act === 'update' || act === 'prune') return NONE;
  return high('changes git remotes', 'compensatable');
}

/** The subcommands with a rule of their own; the others are told by GIT_NONE and GIT_FILES. */
const GIT_RULES: Record<string, (c: GitCall) => Verdict> = {
  '': () => NONE,
  push: ({ has }) => (has('--dry-run', '-n') ? NONE : high('sends commits or refs to a remote')),
  'send-email': () => high('sends email'),
  svn: ({ pos }) => (pos[0] === 'dcommit' || pos[0] === 'set-tree' ? high('sends commits to a Subversion server') : low('git svn')),
  commit: ({ has, need }) => (has('--dry-run') ? NONE : { ...high('creates a commit', 'compensatable'), comps: need('soft') }),
  merge: movesHead,
  rebase: movesHead,
  pull: movesHead,
  'cherry-pick': movesHead,
  revert: movesHead,
  am: movesHead,
  reset,
  tag,
  branch,
  checkout: switchBranch,
  switch: switchBranch,
  stash,
  clean,
  prune: rewritesObjects,
  'filter-branch': rewritesObjects,
  'filter-repo': rewritesObjects,
  replace: rewritesObjects,
  reflog: ({ pos }) => (pos[0] === 'expire' || pos[0] === 'delete' ? high('deletes reflog entries') : NONE),
  'update-ref': ({ rest }) => high('changes a git ref directly', rest.includes('-d') ? 'irreversible' : 'compensatable'),
  config,
  remote,
};

export function gitVerdict(args: string[], ctx: Ctx): Verdict {
  const g = readGlobals(args, ctx.cwd);
  if (!g) return NONE;
  const call = gitCall(args, g);
  const { sub, pos } = call;
  const rule = Object.hasOwn(GIT_RULES, sub) ? GIT_RULES[sub] : undefined;
  if (rule) return rule(call);
  if (GIT_NONE.has(sub)) return sub === 'lfs' && pos[0] === 'push' ? high('uploads LFS objects') : NONE;
  if (GIT_FILES.has(sub)) return REWINDABLE;
  return low(`unknown git command "git ${sub}"`);
}
