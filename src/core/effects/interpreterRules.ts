// Rules for interpreters and shells, whose effect is the code they run: `bash -c "…"` and a heredoc
// fed to a shell are classified as scripts; `curl … | sh` (code downloaded and run) is
// irreversible/high; a program or inline code we cannot see into (`node x.js`, `python -c …`,
// `./deploy.sh`, a pipe into a shell) is irreversible/low; test runners and tools run as modules
// (`node --test`, `python -m pytest`) are none; `perl -i` edits files in place (rewindable).
import { type ClassifyScript, type Ctx, positionals, type Stdin } from './commandContext';
import { combine, high, low, NONE, REWINDABLE, type Verdict } from './verdict';

const INTERPRETERS = new Set([
  'python',
  'python2',
  'python3',
  'node',
  'nodejs',
  'ruby',
  'perl',
  'php',
  'lua',
  'luajit',
  'Rscript',
  'julia',
  'java',
  'osascript',
  'ts-node',
  'tsx',
  'esno',
  'babel-node',
  'groovy',
  'scala',
  'kotlin',
  'elixir',
  'erl',
  'dotnet-script',
]);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'busybox', 'pwsh', 'powershell']);

function interpreterVerdict(
  cmd: string,
  args: string[],
  ctx: Ctx,
  stdin: Stdin,
  heredocs: string[],
  classifyScript: ClassifyScript,
): Verdict {
  if (args.some((a) => a === '--version' || a === '-V' || a === '-v' || a === '--help' || a === '-h') && args.length === 1) return NONE;
  if (SHELLS.has(cmd)) {
    const k = args.findIndex((a) => a === '-c' || /^-[a-z]*c$/.test(a) || a === '-Command' || a === '-command' || a === '-c');
    if (k >= 0 && args[k + 1] !== undefined)
      return classifyScript(args[k + 1]!, {
        ...ctx,
        depth: ctx.depth + 1,
        dialect: cmd === 'pwsh' || cmd === 'powershell' ? 'powershell' : 'sh',
      });
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
      if (
        /^(pytest|unittest|pip|venv|virtualenv|http\.server|json\.tool|py_compile|compileall|mypy|black|ruff|isort|flake8|pylint|build|timeit|cProfile|pdb|doctest|pydoc|coverage|tox|nox|ensurepip|site|tabnanny|zipfile|tarfile|uvicorn|pyright|pre_commit)$/.test(
          mod,
        )
      )
        return NONE;
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

/** Interpreters, shells and `deno`; null when `cmd` is none of them. */
export function interpreterRules(
  cmd: string,
  args: string[],
  ctx: Ctx,
  stdin: Stdin,
  heredocs: string[],
  classifyScript: ClassifyScript,
): Verdict | null {
  if (INTERPRETERS.has(cmd) || SHELLS.has(cmd)) return interpreterVerdict(cmd, args, ctx, stdin, heredocs, classifyScript);
  if (cmd === 'deno')
    return /^(run|task|eval|serve)$/.test(positionals(args)[0] ?? '')
      ? low(`deno ${positionals(args)[0]} runs code we cannot see into`)
      : NONE;
  return null;
}
