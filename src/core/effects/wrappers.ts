// Wrappers: commands that run another command (`sudo`, `env`, `timeout`, `xargs`, `npx`, `uv run`…).
// They are stripped, with their options and leading `VAR=value` assignments, so the command they
// run is what gets classified; `env -C dir` moves the folder, `env -S "…"` and `npx -c "…"` hand
// back a command line to classify as a script.
import { ASSIGN } from '../shell/parse';
import { base, type Ctx, resolveDir } from './commandContext';

// Wrappers: options that take a value, and how many positionals come before the command.
interface Wrapper {
  withValue: Set<string>;
  positionals?: number;
  /** Stop at the first `--` only (everything before is the wrapper's). */
  dashDash?: boolean;
}
const W = (opts: string[], positionals = 0): Wrapper => ({ withValue: new Set(opts), positionals });
const WRAPPERS: Record<string, Wrapper> = {
  sudo: W([
    '-u',
    '-g',
    '-h',
    '-p',
    '-C',
    '-D',
    '-r',
    '-t',
    '-U',
    '-T',
    '--user',
    '--group',
    '--host',
    '--prompt',
    '--chdir',
    '--role',
    '--type',
    '--other-user',
    '--close-from',
    '--command-timeout',
  ]),
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
  xargs: W([
    '-I',
    '-L',
    '-n',
    '-P',
    '-d',
    '-E',
    '-s',
    '-a',
    '--arg-file',
    '--delimiter',
    '--max-args',
    '--max-procs',
    '--max-lines',
    '--replace',
    '--eof',
    '--max-chars',
  ]),
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
export function unwrap(w: string[], ctx: Ctx): { w: string[]; cwd: string | undefined; split?: string } {
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
        if (head === 'env' && (name === '-C' || name === '--chdir'))
          cwd = resolveDir(cwd, a.includes('=') ? a.slice(a.indexOf('=') + 1) : w[i + 1]);
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
