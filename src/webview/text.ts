// Pure text helpers for the preview webview: no DOM, no state. Everything that turns model data
// (untrusted agent output: paths, commands, prompt text) into the words shown to the user.
import { clockTime } from '../shared/time';
import { countWords } from '../shared/l10n';
import type { PreviewModel, PreviewNotUndone, Scope } from '../shared/messages';
import { reasonTable, reasonWords } from '../shared/reasons';
import { INVISIBLE_RANGES } from '../shared/text';
import { type ChoiceCount, chosenFiles, countChoice, fileChosen, noneUnticked, touchingMine, type Unticked } from './choice';
import { l10n } from './l10n';

// Characters that change how the text around them is displayed (bidi overrides and isolates,
// marks, zero-width joiners) or are not printable at all. A path like `exe.\u202Egpj.ts` would
// otherwise read as something it is not; each is shown as a visible ⟨U+XXXX⟩ instead.
const INVISIBLE = new RegExp(`[${INVISIBLE_RANGES}]`, 'g');

function codePoint(c: string): string {
  return `\u27E8U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}\u27E9`;
}

/** The text with invisible and direction-changing characters made visible. */
export function visible(text: string): string {
  return String(text).replace(INVISIBLE, codePoint);
}

/** One line: line breaks and tabs shown as ⏎ / one space, then `visible`. */
export function oneLine(text: string): string {
  return visible(
    String(text)
      .replace(/\r\n|\r|\n/g, ' \u23CE ')
      .replace(/\t/g, ' '),
  );
}

/** `src/a/b.ts` → { name: 'b.ts', folder: 'src/a' }; both / and \ separate. */
export function splitPath(rel: string): { name: string; folder: string } {
  const s = String(rel);
  const trimmed = s.replace(/[\\/]+$/, '');
  const i = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (i < 0) return { name: trimmed || s, folder: '' };
  return { name: trimmed.slice(i + 1), folder: trimmed.slice(0, i) };
}

/** "1 file" / "3 files" (each form its own message). */
export const fileCount = (n: number): string => countWords(n, l10n.t('1 file'), l10n.t('{0} files', n));

/** A session id for display: short, with a readable name for the special ones. */
export function sessionLabel(id: string): string {
  if (!id) return l10n.t('Unknown session');
  return l10n.t('Session {0}', shortSession(id));
}

/** A session id cut short for display (`sessionLabel` without its word). */
export function shortSession(id: string): string {
  const v = visible(id);
  return v.length > 12 ? v.slice(0, 8) : v;
}

/** ISO or other date text → short local time (the date too unless it is `ref`'s day); anything unparsable as it came. */
export function formatTime(time: string, ref: Date = new Date()): string {
  const ms = Date.parse(time);
  if (!time || Number.isNaN(ms)) return visible(time ?? '');
  return clockTime(ms, ref.getTime());
}

/** What a checkpoint of each kind was taken before, for the header line (an unknown kind: undefined). */
export function checkpointKind(kind: string): string | undefined {
  const words: Record<string, string> = {
    'session-start': l10n.t('at the start of the session'),
    prompt: l10n.t('before this prompt'),
    'before-tool': l10n.t('before this tool call'),
    'before-call': l10n.t('in the middle of a turn'),
    manual: l10n.t('a checkpoint you made'),
    rewind: l10n.t('before a rewind'),
  };
  return Object.prototype.hasOwnProperty.call(words, kind) ? words[kind] : undefined;
}

/** Why a file cannot be restored, in words (the shared vocabulary; an unknown code is shown as it is). */
export function notRestorableReason(reason: string): string {
  if (reason === 'unknown') return reasonTable(l10n)['unknown-at-target'].long;
  return reasonWords(reason, l10n)?.long ?? l10n.t('Cannot be restored ({0}).', visible(reason));
}

/** Why a file stops the rewind, in words. */
export function blockedReason(reason: string): string {
  return reasonWords(reason, l10n)?.long ?? l10n.t('Changed outside the agent ({0}).', visible(reason));
}

export function warningReason(reason: string): string {
  return reasonWords(reason, l10n)?.long ?? visible(reason);
}

export function dirtyReason(reason: string): string {
  if (!reason || reason === 'dirty' || reason === 'unsaved') return l10n.t('Unsaved changes in an editor.');
  return visible(reason);
}

export function effectText(item: PreviewNotUndone): string {
  if (item.severity === 'low') return l10n.t('Unknown command, may have effects outside your files');
  if (item.effect === 'compensatable') {
    return item.compensation
      ? l10n.t('Not undone by the rewind; a compensating command is offered below')
      : l10n.t('Not undone by the rewind');
  }
  return l10n.t('Irreversible: it reached outside your files and cannot be taken back');
}

/**
 * The chosen files in words, the one place they are counted for the page: "7 files" when every one
 * is chosen whole, else "3 of 7 files, 5 hunks" (each form its own message, for translations).
 */
export function choiceWords(c: ChoiceCount): string {
  if (c.all) return fileCount(c.of);
  if (c.hunks === 0) return countWords(c.of, l10n.t('{0} of 1 file', c.files), l10n.t('{0} of {1} files', c.files, c.of));
  const hunks = countWords(c.hunks, l10n.t('1 hunk'), l10n.t('{0} hunks', c.hunks));
  return countWords(c.of, l10n.t('{0} of 1 file, {1}', c.files, hunks), l10n.t('{0} of {1} files, {2}', c.files, c.of, hunks));
}

export const hasFiles = (s: Scope): boolean => s === 'files' || s === 'both';
export const hasConversation = (s: Scope): boolean => s === 'conversation' || s === 'both';

/** The scope to start with: the model's default if it is offered, else the first offered one. */
export function initialScope(model: PreviewModel, wanted?: Scope | null): Scope | null {
  const avail = model.scope.available;
  if (wanted && avail.includes(wanted)) return wanted;
  if (avail.includes(model.scope.default)) return model.scope.default;
  return avail[0] ?? null;
}

export interface Decision {
  /** The Rewind button's label. */
  label: string;
  enabled: boolean;
  /** Why it is disabled, when it is. */
  why: string;
  /** What pressing it does, in one or two sentences. */
  summary: string;
  /** Whether `force` will be sent. */
  force: boolean;
}

/** What the Rewind button says and whether it may be pressed. Pure: the UI's one source for it. */
export function decide(
  model: PreviewModel,
  scope: Scope | null,
  force: boolean,
  compensations: number,
  busy: boolean,
  /** The files and hunks unticked on the page, and Keep mine (absent: every file, no merge). */
  choice: { unticked: Unticked; keepMine: boolean } = { unticked: noneUnticked(), keepMine: false },
): Decision {
  const count = countChoice(model, choice.unticked);
  const n = count.files;
  if (!scope) {
    const why = model.scope.unavailableReason ? visible(model.scope.unavailableReason) : l10n.t('Nothing can be rewound here.');
    return { label: l10n.t('Rewind'), enabled: false, why, summary: '', force: false };
  }
  const files = hasFiles(scope);
  const conv = hasConversation(scope) && model.conversation !== null;
  const fileWord = fileCount(n);
  const chosenWord = choiceWords(count);
  let label: string;
  if (files && conv) label = n > 0 ? l10n.t('Rewind {0} and conversation', chosenWord) : l10n.t('Rewind conversation');
  else if (conv) label = l10n.t('Rewind conversation');
  else label = n > 0 ? l10n.t('Rewind {0}', chosenWord) : l10n.t('Nothing to rewind');

  const summary: string[] = [];
  const commands = countWords(compensations, l10n.t('1 compensating command'), l10n.t('{0} compensating commands', compensations));
  const restores = files && n > 0;
  // Each combination its own sentence: a translation orders the clauses its own way.
  if (restores && conv && compensations > 0)
    summary.push(l10n.t('Restores {0}, forks the conversation into a new session, then runs {1} in a terminal.', fileWord, commands));
  else if (restores && conv) summary.push(l10n.t('Restores {0}, forks the conversation into a new session.', fileWord));
  else if (restores && compensations > 0) summary.push(l10n.t('Restores {0}, then runs {1} in a terminal.', fileWord, commands));
  else if (restores) summary.push(l10n.t('Restores {0}.', fileWord));
  else if (conv && compensations > 0)
    summary.push(l10n.t('Forks the conversation into a new session, then runs {0} in a terminal.', commands));
  else if (conv) summary.push(l10n.t('Forks the conversation into a new session.'));
  else if (compensations > 0) summary.push(l10n.t('Then runs {0} in a terminal.', commands));
  const recorded = model.notUndone.length;
  if (recorded > 0)
    summary.push(
      countWords(recorded, l10n.t('Does not undo 1 recorded command.'), l10n.t('Does not undo {0} recorded commands.', recorded)),
    );

  // Only the chosen files stop the rewind: unticking a file leaves it as it is (a path not listed as a file stops it all the same).
  const unchosen = new Set(model.files.filter((f) => !fileChosen(choice.unticked, f)).map((f) => f.path));
  const chosenBlocked = model.blocked.filter((b) => !unchosen.has(b.path));
  // Keep mine lets through the files it merges cleanly (or whose chosen hunks leave the user's lines alone).
  const touching = choice.keepMine ? touchingMine(model, choice.unticked) : [];
  const partly = new Set(
    chosenFiles(model, choice.unticked)
      ?.filter((f) => f.hunks)
      .map((f) => f.path),
  );
  const stillBlocked = choice.keepMine
    ? chosenBlocked.filter((b) => !(b.merge === 'clean' || (b.merge && partly.has(b.path))) || touching.some((t) => t.file.path === b.path))
    : chosenBlocked;
  const blocked = stillBlocked.length;
  const dirty = model.dirty.filter((d) => !unchosen.has(d.path)).length;
  const forcing = files && n > 0 && blocked > 0 && force;
  if (forcing)
    summary.push(
      countWords(
        blocked,
        l10n.t('The current content of 1 file changed outside the agent is snapshotted first.'),
        l10n.t('The current content of {0} files changed outside the agent is snapshotted first.', blocked),
      ),
    );

  let why = '';
  if (busy) why = l10n.t('Working…');
  else if (files && !conv && n === 0)
    why = model.files.length ? l10n.t('No file is chosen: tick the files to rewind.') : l10n.t('No file differs from this point.');
  else if (hasConversation(scope) && model.conversation === null) why = l10n.t('There is no conversation to fork for this point.');
  else if (files && n > 0 && dirty > 0)
    why = l10n.t(
      'Stopped: some files have unsaved changes in an editor. Save All, then choose “Rewind anyway”: it keeps a copy of what you saved.',
    );
  else if (files && n > 0 && touching.length > 0 && !force)
    why = l10n.t(
      'Stopped: in {0}, a chosen hunk touches lines you changed, and Keep mine never overwrites them. Untick that hunk, or choose “Rewind anyway”.',
      touching.map((t) => visible(t.file.rel)).join(', '),
    );
  else if (files && n > 0 && blocked > 0 && !force && choice.keepMine)
    why = l10n.t(
      'Stopped: Keep mine cannot merge {0}: your changes and the agent’s touch the same lines, or the file never merges. Untick it to leave it as it is, or choose “Rewind anyway”.',
      stillBlocked.map((b) => visible(b.rel)).join(', '),
    );
  else if (files && n > 0 && blocked > 0 && !force) {
    why = l10n.t(
      'Stopped: some files changed outside the agent. Look at the diffs, or choose “Rewind anyway”: it keeps a copy, and Undo brings it back.',
    );
  }
  return { label, enabled: why === '', why, summary: summary.join(' '), force: forcing };
}
