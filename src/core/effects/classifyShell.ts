// Classifying a shell command line. It is parsed (quotes, escapes, comments, heredocs,
// `$(…)`, backticks, `( … )`, `bash -c "…"`), split into simple commands (`&&`, `||`, `;`, `|`, `&`,
// newlines), stripped of wrappers (`sudo`, `env`, `timeout`, `xargs`, `npx`…) and classified one
// by one by the rules of each family; the whole takes its worst part. `cd dir && git commit`
// resolves the folder of the commit. Decisions worth knowing:
// - `curl … | sh` (code downloaded and run) is irreversible/high: we know it runs code from the
//   network whose effects are outside our reach. A pipe into a shell from anything else is low.
// - Running a program we cannot see into (`node x.js`, `python -c …`, `./deploy.sh`,
//   `npm run deploy`) is irreversible/low; conventional local scripts (`npm test`, `npm run build`,
//   `make`, `cargo test`) are none.
// - File-changing local commands (`rm`, `mv`, `sed -i`, `> file`) are rewindable — shell capture
//   records them — unless they name a path outside the workspace (not recorded: irreversible/high).
// - A command we do not know is irreversible/low rather than silently called harmless.
// Pure: no I/O.
import type { EffectOverride } from '../storeFiles/config';
import type { Effect, Severity } from '../storeFiles/records';
import type { Dialect } from '../shell/lex';
import { parseScript, type Script, type SimpleCommand } from '../shell/parse';
import { cloudRules } from './cloudRules';
import { base, type Ctx, outsideWorkspace, resolveDir, type Stdin } from './commandContext';
import { fileRules } from './fileRules';
import { gitVerdict } from './gitRules';
import { interpreterRules } from './interpreterRules';
import { FETCHERS, networkRules } from './networkRules';
import { commandOverride } from './overrides';
import { packageRules } from './packageRules';
import { powershellVerdict } from './powershellRules';
import { combine, type CompensationUnit, type GitNeed, high, low, NONE, REWINDABLE, UNKNOWN, type Verdict } from './verdict';
import { unwrap } from './wrappers';

/** Plainly local commands: they read, build or test, and change nothing a rewind would miss. */
const NONE_CMDS = new Set([
  'ls',
  'll',
  'la',
  'dir',
  'cat',
  'bat',
  'head',
  'tail',
  'less',
  'more',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'find',
  'fd',
  'locate',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tr',
  'awk',
  'gawk',
  'echo',
  'printf',
  'pwd',
  'true',
  'false',
  'test',
  '[',
  '[[',
  'which',
  'type',
  'whereis',
  'file',
  'stat',
  'du',
  'df',
  'tree',
  'diff',
  'colordiff',
  'cmp',
  'comm',
  'date',
  'cal',
  'whoami',
  'id',
  'groups',
  'uname',
  'hostname',
  'printenv',
  'env',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'sleep',
  'jq',
  'yq',
  'xq',
  'seq',
  'yes',
  'column',
  'paste',
  'join',
  'fold',
  'fmt',
  'nl',
  'rev',
  'shuf',
  'tac',
  'expand',
  'unexpand',
  'strings',
  'xxd',
  'od',
  'hexdump',
  'base64',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'shasum',
  'cksum',
  'b2sum',
  'md5',
  'tsc',
  'eslint',
  'prettier',
  'biome',
  'oxlint',
  'jest',
  'vitest',
  'mocha',
  'ava',
  'tap',
  'playwright',
  'cypress',
  'pytest',
  'py.test',
  'mypy',
  'ruff',
  'black',
  'isort',
  'flake8',
  'pylint',
  'pyright',
  'tox',
  'nox',
  'cmake',
  'ninja',
  'meson',
  'gcc',
  'g++',
  'cc',
  'c++',
  'clang',
  'clang++',
  'rustc',
  'rustfmt',
  'javac',
  'kotlinc',
  'swiftc',
  'zig',
  'ghc',
  'esbuild',
  'vite',
  'webpack',
  'rollup',
  'parcel',
  'turbo',
  'nx',
  'lerna',
  'tsup',
  'swc',
  'babel',
  'stylelint',
  'shellcheck',
  'hadolint',
  'golangci-lint',
  'gofmt',
  'goimports',
  'clippy-driver',
  'cargo-clippy',
  'source',
  '.',
  'export',
  'set',
  'unset',
  'alias',
  'unalias',
  'read',
  'exit',
  'return',
  'local',
  'declare',
  'typeset',
  'shift',
  'trap',
  'wait',
  'jobs',
  'fg',
  'bg',
  'history',
  'hash',
  'ulimit',
  'umask',
  'getopts',
  'let',
  'ps',
  'top',
  'htop',
  'pgrep',
  'lsof',
  'netstat',
  'ss',
  'free',
  'uptime',
  'vmstat',
  'iostat',
  'nproc',
  'lscpu',
  'man',
  'info',
  'tldr',
  'clear',
  'tput',
  'stty',
  'locale',
  'ping',
  'dig',
  'nslookup',
  'host',
  'traceroute',
  'whois',
  'code',
  'open',
  'xdg-open',
  'ssh-keygen',
  'ssh-add',
  'ssh-agent',
  'sha224sum',
  'sha384sum',
  'git-lfs',
  'pip',
  'pip3',
  'pipx',
  'uv',
  'poetry',
  'pdm',
  'hatch',
  'pipenv',
  'conda',
  'mamba',
  'virtualenv',
  'pyenv',
  'nvm',
  'fnm',
  'volta',
  'rbenv',
  'asdf',
  'mise',
  'corepack',
  'deno',
  'tokei',
  'cloc',
  'scc',
  'nm',
  'objdump',
  'readelf',
  'ldd',
  'otool',
  'wasm-objdump',
  'identify',
  'exiftool',
  'pdftotext',
  'lsblk',
  'mount',
  'findmnt',
  'w',
  'who',
  'last',
  'env',
  'pstree',
  'time',
  'tty',
  'groups',
  'printf',
  'cal',
  'bc',
  'dc',
  'expr',
  'factor',
  'numfmt',
  'iconv',
  'dos2unix',
  'unix2dos',
  'csvlook',
  'xmllint',
  'tidy',
  'markdownlint',
  'mdformat',
  'dot',
  'plantuml',
  'mvnw',
  'gradlew',
  'sbt',
  'lein',
  'mix',
  'rebar3',
  'opam',
  'dune',
  'stack',
  'cabal',
  'elm',
  'swift',
  'xcodebuild',
  'xcrun',
  'pod',
  'flutter',
  'dart',
  'ant',
  'bazel',
  'bazelisk',
  'buck2',
  'pants',
  'just',
  'task',
]);

/** One simple command: wrappers stripped, then each family's rules in turn (the first that knows the command decides). */
function classifyWords(w0: string[], ctx: Ctx, sc: SimpleCommand, stdin: Stdin): Verdict {
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
  const v =
    packageRules(cmd, args, local) ??
    networkRules(cmd, args) ??
    cloudRules(cmd, args) ??
    fileRules(cmd, args, local) ??
    interpreterRules(cmd, args, local, stdin, sc.heredocs, classifyScript);
  if (v) return v;
  if (cmd === 'eval') return classifyScript(args.join(' '), { ...local, depth: ctx.depth + 1 });
  if (NONE_CMDS.has(cmd)) return NONE;
  if (raw.includes('/') || raw.startsWith('.')) return low(`runs the program ${raw}, which we cannot see into`);
  return UNKNOWN(cmd);
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
        if (FETCHERS.has(head)) upstreamNetwork = true;
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
export function classifyShell(
  command: string,
  cwd?: string,
  overrides: readonly EffectOverride[] = [],
  opts: { root?: string; dialect?: Dialect } = {},
): ShellVerdict {
  const v = classifyScript(command, { cwd, root: opts.root ?? cwd, overrides, depth: 0, dialect: opts.dialect ?? 'sh' });
  const out: ShellVerdict = { effect: v.effect };
  if (v.severity && (v.effect === 'irreversible' || v.effect === 'compensatable')) out.severity = v.severity;
  if (v.reason) out.reason = v.reason;
  if (v.comps?.length && (v.effect === 'compensatable' || v.effect === 'irreversible')) {
    const git = v.comps.filter((c): c is { git: GitNeed } => 'git' in c).map((c) => c.git);
    if (git.length) {
      out.git = git;
      out.units = v.comps;
    } else
      out.compensation = v.comps
        .map((t) => (t as { text: string }).text)
        .reverse()
        .join(' && ');
  }
  return out;
}
