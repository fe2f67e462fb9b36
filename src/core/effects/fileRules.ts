// Rules for commands that change files: `rm`, `mv`, `cp`, `sed -i`, `dd of=…`, archives… are
// rewindable (shell capture records what they change in the workspace) unless a path they name lies
// outside the workspace, which nothing records: irreversible/high.
import { type Ctx, outsideWorkspace, positionals } from './commandContext';
import { high, NONE, REWINDABLE, type Verdict } from './verdict';

const FILE_CMDS = new Set([
  'rm',
  'rmdir',
  'mv',
  'cp',
  'mkdir',
  'touch',
  'ln',
  'chmod',
  'chgrp',
  'chown',
  'tee',
  'truncate',
  'install',
  'patch',
  'unzip',
  'gunzip',
  'gzip',
  'bzip2',
  'bunzip2',
  'xz',
  'unxz',
  'zstd',
  'zip',
  'tar',
  '7z',
  'shred',
  'split',
  'csplit',
  'mktemp',
  'mkfifo',
  'unlink',
  'rename',
  'dos2unix',
  'unix2dos',
]);

/** Rewindable, unless a path lies outside the workspace. */
export function fileVerdict(paths: string[], ctx: Ctx): Verdict {
  if (paths.length && paths.every((p) => p.startsWith('/dev/'))) return NONE; // `tee /dev/null`
  const outside = paths.find((p) => outsideWorkspace(p, ctx));
  if (outside) return high(`changes ${outside}, outside the workspace (not recorded)`);
  return REWINDABLE;
}

/** File-changing commands; null when `cmd` is none of them. */
export function fileRules(cmd: string, args: string[], ctx: Ctx): Verdict | null {
  if (cmd === 'dd')
    return args.some((a) => a.startsWith('of=') && outsideWorkspace(a.slice(3), ctx))
      ? high('dd writes outside the workspace')
      : REWINDABLE;
  if (cmd === 'sed' || cmd === 'gsed') {
    return args.some((a) => a === '-i' || a.startsWith('-i') || a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a))
      ? fileVerdict(
          positionals(args, new Set(['-e', '-f', '--expression', '--file'])).slice(
            args.some((a) => a === '-e' || a === '-f' || a.startsWith('--expression')) ? 0 : 1,
          ),
          ctx,
        )
      : NONE;
  }
  if (FILE_CMDS.has(cmd))
    return fileVerdict(
      positionals(
        args,
        new Set([
          '-m',
          '--mode',
          '-t',
          '--target-directory',
          '-S',
          '--suffix',
          '-o',
          '-g',
          '-C',
          '-f',
          '--file',
          '-d',
          '-n',
          '-b',
          '-l',
          '-a',
        ]),
      ),
      ctx,
    );
  return null;
}
