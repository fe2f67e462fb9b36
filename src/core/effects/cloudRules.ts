// Rules for commands that change things beyond this machine's files: clusters (`kubectl`, `helm`),
// infrastructure (`terraform`, `pulumi`), containers and registries (`docker push`), forges (`gh`,
// `glab`), cloud and deploy CLIs (`aws`, `gcloud`, `vercel`…), databases (`psql -c`, migrations),
// running processes and services (`kill`, `systemctl`) and system packages (`apt`, `brew`). Their
// read-only verbs (`get`, `list`, `plan`, `status`…) are none.
import { quoteArg } from '../shell/quote';
import { positionals } from './commandContext';
import { high, low, NONE, type Verdict } from './verdict';

const CLOUD = new Set([
  'aws',
  'gcloud',
  'az',
  'doctl',
  'heroku',
  'vercel',
  'netlify',
  'fly',
  'flyctl',
  'firebase',
  'wrangler',
  'serverless',
  'sls',
  'railway',
  'render',
  'amplify',
  'surge',
  'cdk',
  'sam',
  'eb',
  'oci',
  'ibmcloud',
  'linode-cli',
  'hcloud',
  'supabase',
  'stripe',
  'twilio',
  'sentry-cli',
  'vault',
  'consul',
  'nomad',
  'ansible',
  'ansible-playbook',
  'eksctl',
  'copilot',
  'expo',
  'eas',
  'fastlane',
  'az',
  'ngrok',
]);
const DB = new Set([
  'psql',
  'mysql',
  'mariadb',
  'sqlite3',
  'mongosh',
  'mongo',
  'redis-cli',
  'cqlsh',
  'clickhouse-client',
  'sqlcmd',
  'duckdb',
]);
const PROCESS = new Set([
  'kill',
  'pkill',
  'killall',
  'systemctl',
  'service',
  'launchctl',
  'shutdown',
  'reboot',
  'halt',
  'crontab',
  'at',
  'sc',
]);
const SYSPKG = new Set(['apt', 'apt-get', 'brew', 'dnf', 'yum', 'pacman', 'zypper', 'apk', 'snap', 'port', 'choco', 'winget', 'scoop']);

const READ_VERBS =
  /^(list|ls|describe|show|get|get-value|get-iam-policy|info|status|version|help|whoami|logs|log|tail|inspect|print-access-token|view|search|explain|top|diff|plan|preview|validate|synth|doctor|about|check|lint|template|fmt|output|graph|providers|console|config|env|auth|login|logout|dev|serve|build|emulators:start|emulators:exec|pull|link|init|completion|can-i|cluster-info|api-resources|api-versions)$/;

function cloudVerdict(cmd: string, args: string[]): Verdict {
  const pos = positionals(
    args,
    new Set([
      '--region',
      '--profile',
      '--output',
      '--project',
      '--query',
      '-o',
      '-g',
      '--resource-group',
      '--subscription',
      '--format',
      '--account',
      '--zone',
      '--app',
      '-a',
      '--env',
      '-e',
      '--config',
      '-c',
    ]),
  );
  if (args.some((a) => a === '--version' || a === '--help' || a === '-h')) return NONE;
  if (cmd === 'aws') {
    if (pos[0] === 's3') {
      const act = pos[1] ?? '';
      if (act === 'ls' || act === 'presign') return NONE;
      if ((act === 'cp' || act === 'sync') && !String(pos[pos.length - 1]).startsWith('s3://')) return NONE; // a download
      return high(`aws s3 ${act} changes remote storage`);
    }
    const op = pos[1] ?? '';
    if (
      /^(describe|list|get|head|lookup|search|scan|query|batch-get|wait|help|filter|validate|estimate|preview|simulate|test|generate-presigned)/.test(
        op,
      ) ||
      pos[0] === 'configure' ||
      pos[0] === 'sts' ||
      pos[0] === 'help'
    )
      return NONE;
    return high(`aws ${pos[0] ?? ''} ${op} changes cloud resources`.replace(/ +/g, ' '));
  }
  if (pos.some((p) => READ_VERBS.test(p))) return NONE;
  if (pos.length === 0 && cmd !== 'vercel') return NONE;
  return high(`${cmd} ${pos.slice(0, 3).join(' ')} changes remote resources`.trim());
}

const SQL_WRITE =
  /\b(insert|update|delete|drop|create|alter|truncate|grant|revoke|merge|replace|upsert|call|exec|execute|copy|vacuum|reindex|flushall|flushdb|del|set|hset|lpush|rpush|sadd|zadd|expire|incr|decr)\b/i;
function dbVerdict(cmd: string, args: string[]): Verdict {
  const k = args.findIndex(
    (a) =>
      a === '-c' ||
      a === '-e' ||
      a === '--command' ||
      a === '--execute' ||
      a === '--eval' ||
      a.startsWith('--command=') ||
      a.startsWith('--eval='),
  );
  let code: string | undefined;
  if (k >= 0) code = args[k]!.includes('=') ? args[k]!.slice(args[k]!.indexOf('=') + 1) : args[k + 1];
  else if (cmd === 'sqlite3' || cmd === 'redis-cli')
    code =
      positionals(args, new Set(['-h', '-p', '-a', '-n', '-u', '--user', '-cmd']))
        .slice(cmd === 'sqlite3' ? 1 : 0)
        .join(' ') || undefined;
  if (code === undefined) return low(`${cmd} runs statements we cannot see (a file or standard input)`);
  if (SQL_WRITE.test(code)) return high(`${cmd} changes a database`);
  return NONE;
}

/** kubectl (and oc, k): reads, or changes a cluster. */
function kubernetes(_cmd: string, args: string[]): Verdict | null | undefined {
  if (args.some((a) => a.startsWith('--dry-run') && a !== '--dry-run=none')) return NONE;
  const sub =
    positionals(
      args,
      new Set(['-n', '--namespace', '--context', '-f', '--filename', '-l', '--selector', '-o', '--output', '-c', '--container']),
    )[0] ?? '';
  if (
    /^(get|describe|logs|top|explain|version|api-resources|api-versions|cluster-info|diff|auth|config|completion|wait|events|plugin|kustomize)$/.test(
      sub,
    )
  )
    return NONE;
  if (
    /^(apply|create|delete|patch|replace|scale|rollout|set|edit|label|annotate|drain|cordon|uncordon|taint|expose|run|exec|cp|autoscale|certificate)$/.test(
      sub,
    )
  )
    return high(`kubectl ${sub} changes a cluster`);
  return low(`kubectl ${sub}`);
}

/** helm: releases change a cluster. */
function helm(_cmd: string, args: string[]): Verdict | null | undefined {
  const sub = positionals(args, new Set(['-n', '--namespace', '--kube-context', '-f', '--values', '--set']))[0] ?? '';
  if (/^(install|upgrade|uninstall|delete|rollback|push|test)$/.test(sub)) return high(`helm ${sub} changes a cluster`);
  if (
    /^(template|lint|list|ls|status|get|show|search|repo|dependency|dep|package|version|env|history|verify|create|pull|completion|plugin)$/.test(
      sub,
    )
  )
    return NONE;
  return low(`helm ${sub}`);
}

/** terraform (tofu, terragrunt): apply and state surgery change real infrastructure. */
function terraform(cmd: string, args: string[]): Verdict | null | undefined {
  const p = positionals(args, new Set(['-var', '-var-file', '-target', '-chdir']));
  const sub = p[0] ?? '';
  if (
    /^(apply|destroy|import|taint|untaint|force-unlock|run-all)$/.test(sub) ||
    (sub === 'state' && /^(mv|rm|push|replace-provider)$/.test(p[1] ?? '')) ||
    (sub === 'workspace' && p[1] === 'delete')
  )
    return high(`${cmd} ${sub} changes real infrastructure`);
  return /^(plan|init|validate|fmt|show|output|graph|providers|version|console|get|workspace|state|login|logout|test|metadata|modules)$/.test(
    sub,
  ) || !sub
    ? NONE
    : low(`${cmd} ${sub}`);
}

/** pulumi: up, destroy and friends change real infrastructure. */
function pulumi(_cmd: string, args: string[]): Verdict | null | undefined {
  const sub = positionals(args, new Set(['-s', '--stack', '-C', '--cwd']))[0] ?? '';
  if (/^(up|update|destroy|import|refresh|cancel|watch)$/.test(sub)) return high(`pulumi ${sub} changes real infrastructure`);
  return /^(preview|pre|stack|whoami|about|version|logs|config|login|logout|new|plugin|schema|convert|help)$/.test(sub) || !sub
    ? NONE
    : low(`pulumi ${sub}`);
}

/** docker (podman, nerdctl, compose): containers, images and registries. */
function containers(cmd: string, args: string[]): Verdict | null | undefined {
  const p = positionals(
    args,
    new Set([
      '-f',
      '--file',
      '-p',
      '--project-name',
      '-t',
      '--tag',
      '-H',
      '--host',
      '--context',
      '-e',
      '--env',
      '-v',
      '--volume',
      '-w',
      '--workdir',
      '--name',
      '--network',
      '-u',
      '--user',
      '--platform',
      '--env-file',
      '--entrypoint',
      '-c',
      '--config',
    ]),
  );
  const compose = cmd === 'docker-compose' ? p : p[0] === 'compose' ? p.slice(1) : null;
  if (compose) {
    if ((compose[0] === 'down' || compose[0] === 'rm') && args.some((a) => a === '-v' || a === '--volumes'))
      return high('deletes container volumes (their data is not recorded)');
    if (compose[0] === 'push') return high('pushes images to a registry');
    return NONE;
  }
  const sub = p[0] ?? '';
  if (
    sub === 'push' ||
    (sub === 'buildx' && args.includes('--push')) ||
    (sub === 'image' && p[1] === 'push') ||
    (sub === 'manifest' && p[1] === 'push')
  )
    return high(`${cmd} push uploads an image to a registry`);
  if (sub === 'login' || sub === 'logout') return NONE;
  if (
    (sub === 'volume' && /^(rm|prune)$/.test(p[1] ?? '')) ||
    (sub === 'system' && p[1] === 'prune' && args.some((a) => a === '--volumes'))
  )
    return high('deletes container volumes (their data is not recorded)');
  return NONE;
}

/** gh (glab, hub, tea): what changes a forge. */
function forges(cmd: string, args: string[]): Verdict | null | undefined {
  const p = positionals(
    args,
    new Set([
      '-R',
      '--repo',
      '-t',
      '--title',
      '-b',
      '--body',
      '-F',
      '--body-file',
      '-B',
      '--base',
      '-H',
      '--head',
      '-l',
      '--label',
      '-a',
      '--assignee',
      '-m',
      '--milestone',
      '-r',
      '--reviewer',
      '-f',
      '--field',
      '--raw-field',
      '-X',
      '--method',
      '-q',
      '--jq',
      '--json',
      '-L',
      '--limit',
      '-s',
      '--state',
      '--hostname',
      '-w',
      '--workflow',
      '--ref',
      '-H',
      '--header',
      '--input',
      '-p',
      '--template',
    ]),
  );
  if (p[0] === 'api') {
    const mi = args.findIndex((a) => a === '-X' || a === '--method' || a.startsWith('--method=') || a.startsWith('-X'));
    const method =
      mi < 0
        ? null
        : (args[mi]!.includes('=')
            ? args[mi]!.split('=')[1]!
            : args[mi] === '-X' || args[mi] === '--method'
              ? (args[mi + 1] ?? '')
              : args[mi]!.slice(2)
          ).toUpperCase();
    const fields = args.some((a) => /^(-f|-F|--field|--raw-field|--input)$/.test(a) || /^--(field|raw-field|input)=/.test(a));
    if (method === 'GET' || (!method && !fields) || (!method && args.includes('graphql') && !args.some((a) => /mutation/.test(a))))
      return NONE;
    return high(`${cmd} api ${method ?? 'POST'} changes state on the forge`);
  }
  const act = p[1] ?? '';
  if (
    p[0] === 'auth' ||
    p[0] === 'config' ||
    p[0] === 'alias' ||
    p[0] === 'extension' ||
    p[0] === 'completion' ||
    p[0] === 'help' ||
    p[0] === 'browse' ||
    p[0] === 'status' ||
    p[0] === 'search' ||
    !p[0]
  )
    return NONE;
  if (/^(view|list|ls|status|diff|checks|browse|watch|download|clone|checkout|co|develop|view|logs|log)$/.test(act)) return NONE;
  if (
    /^(create|merge|close|comment|edit|delete|review|reopen|ready|upload|rerun|cancel|run|enable|disable|set|fork|rename|archive|unarchive|sync|transfer|lock|unlock|pin|unpin|approve|revoke|note|update-branch|add|remove|rm|deploy|publish)$/.test(
      act,
    )
  )
    return high(`${cmd} ${p[0]} ${act} changes state on the forge`);
  return low(`${cmd} ${p[0]} ${act}`.trim());
}

/** the cloud CLIs (aws, gcloud, az…). */
function cloudClis(cmd: string, args: string[]): Verdict | null | undefined {
  return cloudVerdict(cmd, args);
}

/** database clients. */
function databases(cmd: string, args: string[]): Verdict | null | undefined {
  return dbVerdict(cmd, args);
}

/** prisma: migrations and db pushes. */
function prisma(_cmd: string, args: string[]): Verdict | null | undefined {
  const p = positionals(args);
  if (
    (p[0] === 'migrate' && /^(deploy|dev|reset|resolve)$/.test(p[1] ?? '')) ||
    (p[0] === 'db' && /^(push|execute|seed|pull)$/.test(p[1] ?? ''))
  )
    return high(`prisma ${p[0]} ${p[1]} changes a database`);
  return NONE;
}

/** migration tools: up, down, seed. */
function migrationTools(cmd: string, args: string[]): Verdict | null | undefined {
  return positionals(args).some((a) =>
    /^(upgrade|downgrade|migrate|migrate:\w+|up|down|redo|reset|rollback|apply|update|seed|seed:run|db:\w+)$/.test(a),
  )
    ? high(`${cmd} changes a database`)
    : NONE;
}

/** rails and rake: db: tasks. */
function rails(cmd: string, args: string[]): Verdict | null | undefined {
  const p = positionals(args);
  if (p.some((a) => /^db:/.test(a) && !/^db:(version|migrate:status)$/.test(a))) return high(`${cmd} ${p[0]} changes a database`);
  if (/^(test|t|server|s|console|c|generate|g|routes|spec|assets:precompile|about|notes|stats|runner|credentials:show)$/.test(p[0] ?? ''))
    return NONE;
  return low(`${cmd} ${p[0] ?? ''}`.trim());
}

/** processes and services. */
function processes(cmd: string, args: string[]): Verdict | null | undefined {
  if (
    (cmd === 'systemctl' || cmd === 'service' || cmd === 'launchctl') &&
    args.some((a) => /^(status|list|list-units|is-active|is-enabled|show|cat|print|--status-all)$/.test(a))
  )
    return NONE;
  if (cmd === 'crontab' && (args.includes('-l') || args.length === 0)) return NONE;
  return high(`${cmd} changes running processes or services, which a rewind does not restore`);
}

/** system package managers. */
function systemPackages(cmd: string, args: string[]): Verdict | null | undefined {
  const p = positionals(args, new Set(['-o', '-t', '--cask']));
  const sub = p[0] ?? '';
  if (/^(install|add|reinstall|-S)$/.test(sub) || args.includes('-S')) {
    const undo =
      cmd === 'brew'
        ? 'brew uninstall'
        : cmd === 'apk'
          ? 'apk del'
          : cmd === 'pacman'
            ? 'pacman -R'
            : cmd === 'snap'
              ? 'snap remove'
              : cmd === 'winget' || cmd === 'choco' || cmd === 'scoop'
                ? `${cmd} uninstall`
                : `${cmd} remove`;
    const pkgs = p.slice(1);
    return {
      ...high(`installs system packages, outside the workspace`, 'compensatable'),
      ...(pkgs.length ? { comps: [{ text: `${undo} ${pkgs.map(quoteArg).join(' ')}` }] } : {}),
    };
  }
  if (
    /^(remove|uninstall|purge|del|erase|autoremove|upgrade|dist-upgrade|full-upgrade|update|-R|-Syu|tap|untap|link|unlink|services|cleanup)$/.test(
      sub,
    ) ||
    args.includes('-R')
  ) {
    if (sub === 'update' && cmd !== 'brew') return NONE; // refreshes package lists only
    return high(`${cmd} ${sub} changes installed system packages`);
  }
  return NONE;
}

/**
 * The command families, in the order they are asked: a family whose commands hold `cmd` (and whose `when`, if any,
 * holds for the arguments) decides, unless its verdict is undefined (it has nothing to say about these
 * arguments: the next families are asked).
 */
const FAMILIES: readonly {
  cmds: ReadonlySet<string> | readonly string[];
  when?: (args: string[]) => boolean;
  verdict: (cmd: string, args: string[]) => Verdict | null | undefined;
}[] = [
  { cmds: ['kubectl', 'oc', 'k'], verdict: kubernetes },
  { cmds: ['helm'], verdict: helm },
  { cmds: ['terraform', 'tofu', 'terragrunt'], verdict: terraform },
  { cmds: ['pulumi'], verdict: pulumi },
  { cmds: ['docker', 'podman', 'nerdctl', 'docker-compose'], verdict: containers },
  { cmds: ['gh', 'glab', 'hub', 'tea'], verdict: forges },
  { cmds: CLOUD, verdict: cloudClis },
  { cmds: DB, verdict: databases },
  { cmds: ['prisma'], verdict: prisma },
  { cmds: ['npx'], when: (args) => args[0] === 'prisma', verdict: prisma },
  { cmds: ['alembic', 'knex', 'sequelize', 'flyway', 'liquibase', 'dbmate', 'migrate', 'goose'], verdict: migrationTools },
  { cmds: ['rails', 'rake'], verdict: rails },
  { cmds: PROCESS, verdict: processes },
  { cmds: SYSPKG, verdict: systemPackages },
];

/** Cloud, deploy, forge, database, process and system-package commands; null when `cmd` is none of them. */
export function cloudRules(cmd: string, args: string[]): Verdict | null {
  for (const f of FAMILIES) {
    const named = f.cmds instanceof Set ? f.cmds.has(cmd) : (f.cmds as readonly string[]).includes(cmd);
    if (!named || (f.when && !f.when(args))) continue;
    const v = f.verdict(cmd, args);
    if (v !== undefined) return v;
  }
  return null;
}
