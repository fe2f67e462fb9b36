// Rules for package managers and build tools: publishing (`npm publish`, `cargo publish`, `twine
// upload`, `mvn deploy`…) is irreversible/high; `npm version` commits and tags (compensatable); a
// global install is compensatable by the matching uninstall; scripts run by name (`npm run x`,
// `make x`) are none when their name is conventionally local (`test`, `build`, `lint`…) and
// irreversible/low otherwise, since we cannot see into them.
import { ASSIGN } from '../shell/parse';
import { quoteArg } from '../shell/quote';
import { type Ctx, positionals } from './commandContext';
import { combine, high, low, NONE, type Verdict } from './verdict';

/** Script names that are conventionally local (`npm test`, `npm run build:prod`, `make lint`). */
const SAFE_SCRIPTS = new Set([
  'test',
  'tests',
  't',
  'build',
  'lint',
  'typecheck',
  'type-check',
  'types',
  'tsc',
  'check',
  'format',
  'fmt',
  'prettier',
  'compile',
  'watch',
  'dev',
  'start',
  'serve',
  'preview',
  'clean',
  'coverage',
  'cov',
  'bench',
  'benchmark',
  'docs',
  'doc',
  'e2e',
  'unit',
  'integration',
  'verify',
  'validate',
  'all',
  'install',
  'prepare',
  'pretest',
  'posttest',
  'prebuild',
  'postbuild',
  'generate',
  'gen',
  'codegen',
  'storybook',
  'analyze',
  'bundle',
  'package',
  'pack',
  'spec',
  'ci',
  'fix',
  'eslint',
  'stylelint',
  'jest',
  'vitest',
  'mocha',
  'default',
  'help',
  'setup',
  'bootstrap',
  'rebuild',
  'tidy',
  'vet',
  'run',
  'debug',
]);
const PUBLISH = new Set([
  'publish',
  'unpublish',
  'deprecate',
  'undeprecate',
  'dist-tag',
  'owner',
  'access',
  'team',
  'token',
  'hook',
  'star',
  'unstar',
  'login',
  'adduser',
  'logout',
  'trust',
]);
const PKG_LOCAL = new Set([
  'install',
  'i',
  'ci',
  'add',
  'remove',
  'rm',
  'uninstall',
  'un',
  'unlink',
  'link',
  'ln',
  'update',
  'up',
  'upgrade',
  'ls',
  'list',
  'll',
  'la',
  'outdated',
  'view',
  'info',
  'show',
  'v',
  'why',
  'explain',
  'audit',
  'pack',
  'init',
  'create',
  'config',
  'cache',
  'doctor',
  'prune',
  'dedupe',
  'ddp',
  'rebuild',
  'fund',
  'help',
  'root',
  'bin',
  'prefix',
  'ping',
  'search',
  's',
  'whoami',
  'query',
  'pkg',
  'install-test',
  'it',
  'store',
  'import',
  'licenses',
  'env',
  'outdated',
  'patch',
  'patch-commit',
  'approve-builds',
  'setup',
  'about',
  'version-check',
  'dlx-cache',
  'workspaces',
  'workspace',
  'constraints',
  'plugin',
  'set',
  'dedupe',
  'node',
  'licenses',
  'sbom',
  'completion',
  'docs',
  'bugs',
  'repo',
  'fetch',
  'install-ci-test',
  'cit',
]);
const PKG_VALUE_OPTS = new Set([
  '--prefix',
  '-C',
  '--dir',
  '--filter',
  '-F',
  '-w',
  '--workspace',
  '--cwd',
  '--registry',
  '--tag',
  '--otp',
  '--loglevel',
]);

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
  if (sub === 'version')
    return cmd === 'npm' || cmd === 'yarn' || cmd === 'pnpm'
      ? {
          ...high(`${cmd} version commits and tags`, 'compensatable'),
          comps: ctx.cwd ? [{ git: { dir: ctx.cwd, globals: [], mode: 'soft' } }] : [],
        }
      : NONE;
  if (
    (sub === 'install' || sub === 'i' || sub === 'add' || sub === 'uninstall' || sub === 'remove' || sub === 'rm') &&
    args.some((a) => a === '-g' || a === '--global' || a === '--location=global')
  ) {
    const pkgs = pos.slice(1);
    const undo = sub === 'install' || sub === 'i' || sub === 'add';
    return {
      ...high('installs or removes a global package, outside the workspace', 'compensatable'),
      ...(undo && pkgs.length
        ? { comps: [{ text: `${cmd} ${cmd === 'yarn' ? 'global remove' : 'uninstall -g'} ${pkgs.map(quoteArg).join(' ')}` }] }
        : {}),
    };
  }
  if (sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn') return scriptVerdict(pos[1], cmd);
  if (PKG_LOCAL.has(sub)) return NONE;
  if (sub === 'test' || sub === 'tst' || sub === 't' || sub === 'start' || sub === 'stop' || sub === 'restart') return NONE;
  if (cmd === 'bun' && (/\.[cm]?[jt]sx?$/.test(sub) || sub.includes('/'))) return low(`runs the program ${sub}`);
  if (cmd === 'npm') return low(`unknown npm command "npm ${sub}"`);
  return scriptVerdict(sub, cmd); // yarn/pnpm/bun run scripts by name
}

/** Package managers and build tools; null when `cmd` is none of them. */
export function packageRules(cmd: string, args: string[], ctx: Ctx): Verdict | null {
  if (cmd === 'npm' || cmd === 'pnpm' || cmd === 'yarn' || cmd === 'bun') return pkgVerdict(cmd, args, ctx);
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
  if (cmd === 'twine' || cmd === 'flit')
    return /^(upload|publish)$/.test(positionals(args)[0] ?? '') ? high('uploads a package to a registry') : NONE;
  if (cmd === 'poetry' || cmd === 'uv' || cmd === 'pdm' || cmd === 'hatch')
    return positionals(args)[0] === 'publish' ? high(`${cmd} publish uploads a package to a registry`) : NONE;
  if (cmd === 'dotnet') {
    const p = positionals(args);
    if (p[0] === 'nuget' && p[1] === 'push') return high('uploads a package to NuGet');
    return p[0] === 'run' ? low('runs the program (dotnet run)') : NONE;
  }
  if (cmd === 'mvn' || cmd === 'mvnw' || cmd === 'gradle' || cmd === 'gradlew' || cmd === './gradlew') {
    return args.some((a) => /^(deploy|release:perform|site-deploy|publish\w*|upload\w*|:?[\w:-]*:publish\w*)$/.test(a))
      ? high(`${cmd} publishes artifacts`)
      : NONE;
  }
  if (cmd === 'make') {
    const targets = positionals(args, new Set(['-C', '-f', '-j', '-l', '-o', '-W', '-I', '--file', '--directory'])).filter(
      (t) => !ASSIGN.test(t),
    );
    if (targets.length === 0) return NONE;
    return combine(targets.map((t) => scriptVerdict(t, 'make')));
  }
  return null;
}
