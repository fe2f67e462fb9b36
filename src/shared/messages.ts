// Messages between the extension host and the preview webview: one module, imported by both
// bundles. The host is the source of truth; the webview renders what it is sent and asks.
// Everything in these payloads may come from an agent (paths, commands, prompt text): the webview
// renders it as text only, never as markup.

export type Scope = 'files' | 'conversation' | 'both';

export interface PreviewFile {
  path: string;
  /** The path relative to its workspace folder, for display. */
  rel: string;
  action: 'restore' | 'delete' | 'recreate';
  insertions: number;
  deletions: number;
  binary?: boolean;
  approximate?: boolean;
  sessions: string[];
  /** The changed line ranges between the file now and the point, to choose from (text files only). */
  hunks?: PreviewHunk[];
}

/** One hunk of a file (the core's, plan.ts): its id for the rewind, where it is, and its lines. */
export interface PreviewHunk {
  id: string;
  /** `[start, lines]` in the file now (for 0 lines: the line after which it inserts). */
  from: [number, number];
  plus: number;
  minus: number;
  /** The lines it removes and writes, cut at HUNK_LINES_SHOWN each (`more`: how many were cut). */
  minusLines: string[];
  plusLines: string[];
  more: number;
  /** It touches lines the user changed since the agent: with Keep mine, taking it is refused. */
  touchesMine?: boolean;
}

/** How many lines of each side of a hunk the preview shows (the rest is one "… N more lines"). */
export const HUNK_LINES_SHOWN = 40;

export interface PreviewNotUndone {
  /** The tool call's id: chosen compensations are sent by it (a re-plan reorders the list). */
  call: string;
  tool: string;
  summary: string;
  effect: 'irreversible' | 'compensatable';
  severity: 'high' | 'low';
  compensation?: string;
  time: string;
}

export interface PreviewProblem {
  path: string;
  rel: string;
  reason: string;
  /** More about this file's reason, already in words (e.g. where the user's own edit came from). */
  detail?: string;
  /** For a file the user changed since the agent: what Keep mine would do (absent: it never merges). */
  merge?: 'clean' | 'conflict';
  /** For `merge: 'conflict'`: where the user's changes and the agent's meet, each side's lines to compare. */
  conflicts?: PreviewConflict[];
}

/**
 * One place where Keep mine cannot merge a file: `from` in the file now (the range the plan names),
 * the same region at the rewind point (`target`) and as the agent left it (`base`, the merge's base),
 * with each side's lines (UTF-8, without line ends), cut at HUNK_LINES_SHOWN each (`more`: how many were cut).
 */
export interface PreviewConflict {
  from: [number, number];
  target: [number, number];
  base: [number, number];
  lines: { mine: string[]; target: string[]; base: string[] };
  more: number;
}

export interface PreviewConversation {
  /** The prompt the conversation is cut before. */
  promptText: string;
  promptTime: string;
  /** How many prompts the fork keeps, and how many it drops. */
  kept: number;
  dropped: number;
  session: string;
  /** Files that will keep edits made in the dropped turns (conversation-only rewind). */
  filesKeepingEdits: string[];
}

/** A rewind to just before one tool call: its place in its turn ("step 7 of 15") and what it was. */
export interface PreviewStep {
  step: number;
  of: number;
  tool: string;
  /** The call's summary, with a file path relative to its workspace folder. */
  summary: string;
}

export interface PreviewLeftAlone {
  path: string;
  rel: string;
  reason: 'other-session' | 'outside-selection';
  sessions: string[];
  with?: string[];
}

export interface PreviewModel {
  target: { id: string; label: string; kind: string; time: string; step?: PreviewStep };
  notUndone: PreviewNotUndone[];
  files: PreviewFile[];
  notRestorable: PreviewProblem[];
  blocked: PreviewProblem[];
  warnings: PreviewProblem[];
  /** Affected files with unsaved changes in an editor. */
  dirty: PreviewProblem[];
  uncommitted: string[];
  /** With several sessions after the target: the sessions. */
  sessions: string[];
  /**
   * What a whole rewind would write that this scoped one leaves as it is: another session changed it
   * too (`other-session`), or a call that changed a chosen file changed it too (`outside-selection`,
   * `with` naming those chosen files, relative).
   */
  leftAlone: PreviewLeftAlone[];
  /** The scope offered and its default; conversation is null when no transcript can be forked. */
  scope: { default: Scope; available: Scope[]; unavailableReason?: string };
  conversation: PreviewConversation | null;
  /** Only this session's changes (null = every session). */
  onlySession: string | null;
  /** Which plan this model shows: the page's rewind names it, so the host rewinds by the plan the user saw. */
  stamp?: string;
  /** What changed since the page last showed a plan, in words (a rewind found the files changed and wrote nothing). */
  notice?: string;
}

/**
 * A valid model with nothing in it: every field present, no target, no file, no scope offered.
 * Code that builds a model from scratch (the host's conversation-only preview, test fixtures) starts
 * here and overrides what it knows, so a field added to PreviewModel cannot be forgotten.
 */
export function emptyPreviewModel(): PreviewModel {
  return {
    target: { id: '', label: '', kind: '', time: '' },
    notUndone: [],
    files: [],
    notRestorable: [],
    blocked: [],
    warnings: [],
    dirty: [],
    uncommitted: [],
    sessions: [],
    leftAlone: [],
    scope: { default: 'files', available: [] },
    conversation: null,
    onlySession: null,
  };
}

/** A file the user chose in the preview; `hunks` when only some of its hunks are. */
export interface ChosenFile {
  path: string;
  hunks?: string[];
}

const isChosenFile = (f: unknown): f is ChosenFile => {
  const v = f as Record<string, unknown> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.path === 'string' &&
    (v.hunks === undefined || (Array.isArray(v.hunks) && v.hunks.length > 0 && v.hunks.every((h) => typeof h === 'string')))
  );
};

export type HostToWebview =
  // `choices`: what the page last kept for this preview (opaque to the host), so a preview closed with Escape
  // and opened again still has its ticked "Rewind anyway"; the page re-checks it field by field.
  | { type: 'model'; model: PreviewModel; choices?: unknown }
  | { type: 'busy'; busy: boolean; message?: string }
  | { type: 'error'; message: string };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'openDiff'; path: string }
  // A file Keep mine cannot merge, in the diff editor to resolve: the rewind point (read-only) and the file on disk.
  | { type: 'openConflict'; path: string }
  | { type: 'saveAll' }
  | { type: 'refresh' }
  | { type: 'setSession'; session: string | null }
  // `files`: the chosen files when not every one is (each with its chosen hunk ids when not every hunk is);
  // `keepMine`: merge the files the user changed, where that is clean.
  // `stamp`: the model's stamp, the plan the user saw (a rewind by another plan writes nothing).
  | { type: 'rewind'; scope: Scope; compensations: string[]; force: boolean; keepMine?: boolean; files?: ChosenFile[]; stamp?: string }
  | { type: 'cancel' }
  | { type: 'choices'; choices: unknown };

/** Runtime check of a message from the webview (the host never trusts its shape). */
export function isWebviewMessage(m: unknown): m is WebviewToHost {
  if (typeof m !== 'object' || m === null) return false;
  const v = m as Record<string, unknown>;
  switch (v.type) {
    case 'ready':
    case 'saveAll':
    case 'refresh':
    case 'cancel':
      return true;
    case 'choices':
      return typeof v.choices === 'object' && v.choices !== null && JSON.stringify(v.choices).length < 100_000;
    case 'openDiff':
    case 'openConflict':
      return typeof v.path === 'string';
    case 'setSession':
      return v.session === null || typeof v.session === 'string';
    case 'rewind':
      return (
        (v.scope === 'files' || v.scope === 'conversation' || v.scope === 'both') &&
        Array.isArray(v.compensations) &&
        v.compensations.every((c) => typeof c === 'string') &&
        typeof v.force === 'boolean' &&
        (v.keepMine === undefined || typeof v.keepMine === 'boolean') &&
        (v.stamp === undefined || typeof v.stamp === 'string') &&
        (v.files === undefined || (Array.isArray(v.files) && v.files.every(isChosenFile)))
      );
    default:
      return false;
  }
}
