// The one error type of Agent Rewind: a code, the facts the message is made of, and every message in
// one table (as VS Code's git extension keeps GitError and its codes). Callers ask the code, never
// `instanceof` against a list of classes; the CLI prints the English message (and maps a code to an exit
// code), the extension says the same words through its localizer. A new error is a code in
// ErrorDetails and a line in MESSAGES: the compiler asks for both, test/unit/errors.test.ts checks
// every code has its words.
import { ENGLISH, type Localizer } from '../shared/l10n';
import { shown } from '../shared/text';

/** A lock's holder as the lock file names it (storeFiles/lock.ts). */
export interface Holder {
  pid: number;
  op: string;
  time: number;
}

/** Why Connect will not edit an agent's config file (or hooks file): each says what to fix. `what` names the file ("The Cursor hooks file"). */
export type ConfigFileProblem =
  | { why: 'not-json'; what: string; parseError?: { code: string; offset: number } }
  | { why: 'not-object'; what: string }
  | { why: 'hooks-not-object'; where: string }
  | { why: 'event-not-list'; where: string; event: string }
  | { why: 'kept-changing'; file: string }
  | { why: 'no-marker'; marker: string };

/** Why a hook command cannot be written safely (a path no shell can quote, a bad agent, event or variable name). */
export type HookCommandProblem =
  | { why: 'nul-in-path' }
  | { why: 'cmd-unquotable'; path: string }
  | { why: 'agent-name'; name: string }
  | { why: 'event-name'; name: string }
  | { why: 'cmd-env' }
  | { why: 'env-name'; name: string };

/** Every code, with the facts its message is made of. */
export interface ErrorDetails {
  'store-missing': { dir: string };
  'not-a-store': { dir: string; found: string[] };
  'store-not-trusted': { dir: string; offending: string; why: 'owner' | 'writable' | 'link' };
  'store-format': { found: unknown; supported: number };
  /** store.json exists but cannot be read as JSON (truncated, overwritten, not text): the store's files cannot be trusted to be written to. */
  'store-damaged': { file: string; reason: string };
  'store-busy': { holder: Holder | null };
  /** A rewind could not record what it needs before writing (the pre-rewind copies, its checkpoint, its journal): nothing was rewound. `code`: the file system's error code. */
  'store-write-failed': { dir: string; code: string | undefined; detail: string };
  'not-regular-file': { file: string };
  'invalid-hash': { hash: string };
  'blob-corrupt': { hash: string; actual: string | null };
  'checkpoint-not-found': { id: string; ambiguous: string[] };
  'call-not-found': { id: string };
  /** `attempts`: the point named an attempt (and this many exist); `matches`: a checkpoint id prefix matching several. */
  'point-not-found': { point: string; attempts?: number; matches?: string[] };
  'attempt-in-progress': { n: number; ref: string };
  'filter-not-found': { kind: 'path' | 'session'; value: string; close: string[] };
  'hunk-selection':
    { path: string; why: 'nothing-to-rewind' | 'no-hunks' } | { path: string; why: 'unknown-hunk'; unknown: string[]; known: string[] };
  /**
   * A writer refused, at the moment of writing and before writing anything, because one of the paths cannot be
   * written now (VS Code: an editor holds unsaved changes made after the rewind's check). The rewind is finished
   * as one that wrote nothing, and reported as vetoed.
   */
  'write-refused': { paths: string[] };
  'session-log-missing': { session: string; dir: string };
  'session-cut-refused': { parent: string; before: string; show: string } | { first: true };
  /** A cut that is not before a real prompt (or before the first one), refused by our session log or an agent's transcript forker: nothing was written; their sentence. */
  'fork-refused': { message: string };
  /** An agent's transcript forker will not make this cut (agents/common/fork.ts names the reasons); nothing was written. forkConversation says it as fork-refused. */
  'cut-refused': { message: string; reason: string };
  /** A Claude Code transcript that is not there. */
  'transcript-missing': { file: string };
  /** A Codex rollout that is not there. */
  'rollout-missing': { file: string };
  /** An agent's config file Connect will not edit (not JSON, not an object, a field of the wrong type, changing under it): the sentence says what to fix. */
  'config-file': ConfigFileProblem;
  /** The same for a hooks file in the grouped shape (agents/common/hooksFile.ts). */
  'hooks-file': ConfigFileProblem;
  /** A hook command that cannot be written safely (a path no shell can quote, a bad agent or event name). */
  'hook-command': HookCommandProblem;
  'git-write-refused': { sub: string | undefined; why: 'not-read-only' | 'config-write' | 'private-index' };
  /** A git index we do not read with certainty: the reason, for the log (callers fall back to git status). */
  'git-index-unsupported': { why: string };
  /** The CLI's words for a command line it cannot run (argument parsing builds the sentence). */
  usage: { message: string };
  'worker-cancelled': Record<string, never>;
}

export type ErrorCode = keyof ErrorDetails;

type Messages = { [C in ErrorCode]: (d: ErrorDetails[C], l10n: Localizer) => string };

/** The words for every code, in the language of the `l10n` each is handed. */
const MESSAGES: Messages = {
  'store-missing': (d, l10n) =>
    l10n.t('No Agent Rewind store at {0}. Check --store / AGENT_REWIND_STORE, or record a session first.', d.dir),
  'not-a-store': (d, l10n) =>
    l10n.t(
      '{0} is not empty and is not an Agent Rewind store (it holds {1}). Choose an empty folder or an existing store; nothing was changed.',
      d.dir,
      d.found.slice(0, 3).join(', ') + (d.found.length > 3 ? ', …' : ''),
    ),
  'store-not-trusted': (d, l10n) =>
    d.why === 'owner'
      ? l10n.t(
          '{0} belongs to another user, who could change what a rewind writes, so nothing was read or changed: use a store folder you own (or `chown` it to yourself if it is yours).',
          d.offending,
        )
      : d.why === 'writable'
        ? l10n.t(
            '{0} can be written by other users, who could change what a rewind writes, so nothing was read or changed: run `chmod go-w {0}` if it is yours, or use a store folder you own.',
            d.offending,
          )
        : l10n.t(
            '{0} is a symbolic link inside the store, which Agent Rewind never makes, so nothing was read or changed: move the store aside and use a store folder you own.',
            d.offending,
          ),
  'store-format': (d, l10n) =>
    typeof d.found === 'number' && d.found > d.supported
      ? l10n.t(
          'This store was written by a newer Agent Rewind (store format {0}; this version reads up to {1}). Update Agent Rewind to use it; nothing was changed.',
          d.found,
          d.supported,
        )
      : l10n.t(
          "This store's store.json is not one Agent Rewind understands (format {0}). Move the store aside or point --store at another folder; nothing was changed.",
          String(JSON.stringify(d.found)),
        ),
  'store-damaged': (d, l10n) =>
    l10n.t(
      '{0} is damaged ({1}), so nothing was read or changed: move it aside (rename it to store.json.damaged; the store opens without it), then run `agent-rewind verify`.',
      d.file,
      d.reason,
    ),
  'store-busy': (d, l10n) => {
    const op = d.holder?.op ?? l10n.t('rewind or cleanup');
    return d.holder?.pid
      ? l10n.t('Another {0} is running on this store (process {1}); wait for it to finish and try again.', op, d.holder.pid)
      : l10n.t('Another {0} is running on this store; wait for it to finish and try again.', op);
  },
  'store-write-failed': (d, l10n) => {
    if (d.code === 'ENOSPC' || d.code === 'EDQUOT')
      return l10n.t(
        'The disk holding the store ({0}) is full (or over quota), so nothing was rewound and your files are as they were. Free some space and try again.',
        d.dir,
      );
    if (d.code === 'EROFS')
      return l10n.t('The store ({0}) is on a read-only file system, so nothing was rewound and your files are as they were.', d.dir);
    if (d.code === 'EACCES' || d.code === 'EPERM')
      return l10n.t('Permission denied writing the store ({0}), so nothing was rewound and your files are as they were.', d.dir);
    return l10n.t('The store ({0}) could not be written ({1}), so nothing was rewound and your files are as they were.', d.dir, d.detail);
  },
  'not-regular-file': (d, l10n) =>
    l10n.t('{0} is not a regular file (a pipe, a device or a folder), so it was not read: pass the path of a file.', d.file),
  'invalid-hash': (d, l10n) => l10n.t('"{0}" is not a content hash (64 hex digits); nothing was read.', d.hash.slice(0, 80)),
  'blob-corrupt': (d, l10n) =>
    d.actual === null
      ? l10n.t('Blob {0} is missing from the store; run `agent-rewind verify` to see what else is affected.', d.hash.slice(0, 12))
      : l10n.t('Blob {0} does not match its content (found {1}); run `agent-rewind verify`.', d.hash.slice(0, 12), d.actual.slice(0, 12)),
  'checkpoint-not-found': (d, l10n) =>
    d.ambiguous.length
      ? l10n.t('Checkpoint id {0} matches several checkpoints ({1}); give more of the id.', JSON.stringify(d.id), d.ambiguous.join(', '))
      : l10n.t('No checkpoint {0} in this store; run `agent-rewind checkpoints` to list them.', JSON.stringify(d.id)),
  'call-not-found': (d, l10n) =>
    l10n.t(
      'No tool call {0} is recorded in this store; `agent-rewind conversation show --transcript <path> --json` lists the call ids of a session.',
      JSON.stringify(d.id),
    ),
  'point-not-found': (d, l10n) => {
    const point = JSON.stringify(d.point);
    if (d.matches)
      return l10n.t(
        'No point {0} in this store (it matches {1}; give more of the id): give a checkpoint id (`agent-rewind checkpoints` lists them), `now`, or `attempt:<n>` (`agent-rewind attempts` lists them).',
        point,
        d.matches.join(', '),
      );
    if (d.attempts)
      return l10n.t(
        'No point {0} in this store (attempts 1 to {1}): give a checkpoint id (`agent-rewind checkpoints` lists them), `now`, or `attempt:<n>` (`agent-rewind attempts` lists them).',
        point,
        d.attempts,
      );
    if (d.attempts === 0)
      return l10n.t(
        'No point {0} in this store (no attempts yet): give a checkpoint id (`agent-rewind checkpoints` lists them), `now`, or `attempt:<n>` (`agent-rewind attempts` lists them).',
        point,
      );
    return l10n.t(
      'No point {0} in this store: give a checkpoint id (`agent-rewind checkpoints` lists them), `now`, or `attempt:<n>` (`agent-rewind attempts` lists them).',
      point,
    );
  },
  'attempt-in-progress': (d, l10n) =>
    l10n.t(
      'Attempt {0} is the attempt in progress: its files are what is recorded now, so there is nothing to take from it. Compare it with `agent-rewind diff {1} now`, or name an earlier attempt.',
      d.n,
      d.ref,
    ),
  'filter-not-found': (d, l10n) => {
    const close = d.close.map((c) => JSON.stringify(c)).join(', ');
    if (d.kind === 'path')
      return d.close.length
        ? l10n.t('Nothing is recorded for the file {0} in this store; did you mean {1}?', shown(d.value), close)
        : l10n.t(
            'Nothing is recorded for the file {0} in this store; `agent-rewind plan --to <checkpoint>` lists the recorded files.',
            shown(d.value),
          );
    return d.close.length
      ? l10n.t('Nothing is recorded for the session {0} in this store; did you mean {1}?', JSON.stringify(d.value), close)
      : l10n.t(
          'Nothing is recorded for the session {0} in this store; `agent-rewind checkpoints` lists the sessions.',
          JSON.stringify(d.value),
        );
  },
  'hunk-selection': (d, l10n) => {
    if (d.why === 'unknown-hunk')
      return l10n.t(
        '{0} has no hunk {1} (it has {2}); the file may have changed since the plan: run `agent-rewind plan --json` again.',
        d.path,
        d.unknown.join(', '),
        d.known.join(', ') || l10n.t('none'),
      );
    return d.why === 'nothing-to-rewind'
      ? l10n.t(
          '{0} has nothing to rewind at this point, so none of its hunks can be taken; `agent-rewind plan` lists the files and their hunks.',
          d.path,
        )
      : l10n.t('{0} has no hunks to choose (binary, a link, or too many changed lines); rewind it whole with --path {0}.', d.path);
  },
  'write-refused': (d, l10n) => l10n.t('unsaved changes in an editor ({0}); nothing was written', d.paths.join(', ')),
  'session-log-missing': (d, l10n) =>
    l10n.t('No session log for session {0} in {1}; check the id (`agent-rewind checkpoints` lists recorded sessions).', d.session, d.dir),
  'session-cut-refused': (d, l10n) =>
    'first' in d
      ? l10n.t('Cutting before the first prompt would leave nothing to resume; pick a later prompt, or start a new session instead.')
      : l10n.t('Session {0} has no prompt {1}; {2}.', d.parent, d.before, d.show),
  'fork-refused': (d) => d.message,
  'cut-refused': (d) => d.message,
  'transcript-missing': (d, l10n) =>
    l10n.t('No transcript at {0}; check the path (Claude Code keeps them in ~/.claude/projects/<project>/<session id>.jsonl).', d.file),
  'rollout-missing': (d, l10n) =>
    l10n.t(
      'No Codex rollout at {0}; check the path (Codex keeps them in $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl).',
      d.file,
    ),
  'config-file': (d, l10n) => configFileMessage(d, l10n),
  'hooks-file': (d, l10n) => configFileMessage(d, l10n),
  'hook-command': (d, l10n) => {
    switch (d.why) {
      case 'cmd-unquotable':
        return l10n.t('The path {0} contains a character cmd.exe cannot quote safely (" % !); choose a folder without it.', d.path);
      case 'agent-name':
        return l10n.t('Unknown agent name "{0}".', d.name);
      case 'event-name':
        return l10n.t('Bad event name "{0}".', d.name);
      case 'cmd-env':
        return l10n.t('Environment assignments cannot be put before a cmd.exe command.');
      case 'env-name':
        return l10n.t('Bad environment variable name "{0}".', d.name);
      default:
        return l10n.t('A path in the hook command contains a NUL byte; choose another folder.');
    }
  },
  'git-write-refused': (d, l10n) =>
    d.why === 'not-read-only'
      ? l10n.t('git {0} is not a read-only command', d.sub ?? '(none)')
      : d.why === 'config-write'
        ? l10n.t('git config is only run to read (--get…)')
        : l10n.t('only git status runs on a private index'),
  'git-index-unsupported': (d) => d.why,
  usage: (d) => d.message,
  'worker-cancelled': (_d, l10n) =>
    l10n.t('Cancelled: a newer request was made, or the one who asked no longer waits (a preview closed, the window is closing).'),
};

function configFileMessage(d: ConfigFileProblem, l10n: Localizer): string {
  switch (d.why) {
    case 'not-json':
      return d.parseError
        ? l10n.t(
            '{0} is not valid JSON ({1} at offset {2}); fix it by hand, then connect again.',
            d.what,
            d.parseError.code,
            d.parseError.offset,
          )
        : l10n.t('{0} is not valid JSON; fix it by hand, then connect again.', d.what);
    case 'hooks-not-object':
      return l10n.t('"hooks" in {0} is not an object; fix it by hand, then connect again.', d.where);
    case 'event-not-list':
      return l10n.t('"hooks.{0}" in {1} is not a list; fix it by hand, then connect again.', d.event, d.where);
    case 'kept-changing':
      return l10n.t('{0} kept changing while Agent Rewind edited it; try again.', d.file);
    case 'no-marker':
      return l10n.t('The hook command must carry {0}; build it with hookCommand().', d.marker);
    default:
      return l10n.t('{0} does not hold a JSON object; fix it by hand, then connect again.', d.what);
  }
}

/** Every code, for the test that each has its words. */
export const ERROR_CODES = Object.keys(MESSAGES) as ErrorCode[];

/** Codes that mean a guard inside Agent Rewind was reached (a bug, not the user's situation): the CLI shows their stack under AGENT_REWIND_DEBUG. */
export const INTERNAL_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['git-write-refused', 'git-index-unsupported']);

/** The message of `code` with `details`, in `l10n`'s language (the CLI: English). */
export function errorMessage<C extends ErrorCode>(code: C, details: ErrorDetails[C], l10n: Localizer = ENGLISH): string {
  return (MESSAGES[code] as (d: ErrorDetails[C], l: Localizer) => string)(details, l10n);
}

/** An error Agent Rewind says on purpose: its code, the facts, and the English message. */
export class AgentRewindError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    readonly details: ErrorDetails[C],
  ) {
    super(errorMessage(code, details));
  }
}

/** The code of an Agent Rewind error, or undefined for any other error (a bug, a file system error). */
export function errorCode(e: unknown): ErrorCode | undefined {
  return e instanceof AgentRewindError ? e.code : undefined;
}

/** True when `e` is an Agent Rewind error with `code`; its details are then typed. */
export function isError<C extends ErrorCode>(e: unknown, code: C): e is AgentRewindError<C> {
  return e instanceof AgentRewindError && e.code === code;
}

/** What to show for `e`: an Agent Rewind error in `l10n`'s language, any other error its own message. */
export function localizedMessage(e: unknown, l10n: Localizer): string {
  if (e instanceof AgentRewindError) return errorMessage(e.code, e.details, l10n);
  return e instanceof Error ? e.message : String(e);
}
