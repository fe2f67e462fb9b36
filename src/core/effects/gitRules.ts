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

export function gitVerdict(args: string[], ctx: Ctx): Verdict {
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
    if (
      name === '--version' ||
      name === '--help' ||
      name === '-h' ||
      name === '--html-path' ||
      name === '--man-path' ||
      name === '--info-path'
    )
      return NONE;
    if (name === '--exec-path' && !a.includes('=') && (args[i + 1] === undefined || args[i + 1]!.startsWith('-'))) return NONE;
    if (GIT_GLOBAL_WITH_VALUE.has(name) && !a.includes('=')) i++;
  }
  const sub = args[i] ?? '';
  const rest = args.slice(i + 1);
  const pos = positionals(
    rest,
    new Set([
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
    ]),
  );
  const has = (...flags: string[]) => rest.some((r) => flags.includes(r) || flags.some((f) => f.startsWith('--') && r.startsWith(f + '=')));
  const need = (mode: GitNeed['mode'], branch?: string): Verdict['comps'] =>
    dir ? [{ git: { dir, globals, mode, ...(branch ? { branch } : {}) } }] : [];
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
      const rev =
        pos[0] !== undefined &&
        !rest.includes('--') &&
        /^(HEAD|@|ORIG_HEAD|FETCH_HEAD)([~^].*)?$|^[0-9a-f]{7,64}$|[~^]\d*$|^[\w.-]+\/[\w./-]+$/.test(pos[0]);
      if (!mode && (!rev || pos.length > 1)) return NONE; // unstaging paths: the index only
      return { ...high('moves HEAD (git reset)', 'compensatable'), comps: need('mixed') };
    }
    case 'tag': {
      if (has('-d', '--delete')) return high('deletes a tag (not recorded)');
      if (
        has('-l', '--list', '-v', '--verify', '--contains', '--no-contains', '--points-at', '--merged', '--no-merged') ||
        pos.length === 0
      )
        return NONE;
      const name = pos[0]!;
      return {
        ...high('creates a tag', 'compensatable'),
        comps: [{ text: `git${dir ? ` -C ${quoteArg(dir)}` : ''} tag -d ${quoteArg(name)}` }],
      };
    }
    case 'branch': {
      if (has('-d', '-D', '--delete')) return high('deletes a branch (not recorded)');
      if (has('-m', '-M', '--move', '-c', '-C', '--copy')) return high('renames or copies a branch', 'compensatable');
      if (
        has(
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
        ) ||
        pos.length === 0
      )
        return NONE;
      if (has('-u', '--set-upstream-to', '--unset-upstream', '--edit-description')) return NONE;
      return {
        ...high('creates a branch', 'compensatable'),
        comps: [{ text: `git${dir ? ` -C ${quoteArg(dir)}` : ''} branch -D ${quoteArg(pos[0]!)}` }],
      };
    }
    case 'checkout':
    case 'switch': {
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
      if (
        has('--get', '--get-all', '--get-regexp', '-l', '--list', '--show-origin', '--get-urlmatch', '--get-color', '--get-colorbool') ||
        pos[0] === 'get' ||
        pos[0] === 'list'
      )
        return NONE;
      if (
        pos.length <= 1 &&
        !has('--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit')
      )
        return NONE;
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
