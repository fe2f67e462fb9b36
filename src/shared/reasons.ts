// The one vocabulary of reasons a rewind gives about a file: the codes in `plan --json`
// and the words the CLI (`short`, after the path) and the preview (`long`) say for each. A new
// reason is added here, and the compiler then asks both for its words. The CLI says them in English; the
// extension and the preview pass their localizer (shared/l10n.ts).
import { ENGLISH, type Localizer } from './l10n';

/** Why a file stops a rewind (refused without --force / "Rewind anyway"). */
export type BlockReason = 'modified-outside' | 'deleted-outside' | 'created-outside' | 'your-edit';
/** Why a file is written but worth a word. */
export type WarningReason = 'touched' | 'observed' | 'restored-edit';
/** Why a file's state at the target is not known for sure (written only with --force / "Rewind anyway"). */
export type UncertainReason = 'unrecorded-change';
/** Why a file is left as it is, even with --force. */
export type NotRestorableReason =
  | 'too-large'
  | 'unreadable'
  | 'special'
  | 'unknown-at-target'
  | 'outside-workspace'
  | 'folder-in-the-way'
  // Not recorded at all (gap lines of the log, core/storeFiles/records.ts GapRecord; and the store's write failures):
  | 'name-encoding'
  | 'path-length'
  | 'special-file'
  | 'payload-dropped'
  | 'capture-off'
  | 'store-write-failed';
/** Why a scoped rewind (one session, some files) leaves a file that a whole rewind would write. */
export type LeftAloneReason = 'other-session' | 'outside-selection';
export type Reason = BlockReason | WarningReason | NotRestorableReason | UncertainReason;

export interface ReasonWords {
  /** A clause after the path in the CLI's lists. */
  short: string;
  /** A sentence in the preview. */
  long: string;
  /** What the user can do about it, when something can be done. */
  fix?: string;
}

/** The words for every reason, in `l10n`'s language. */
export function reasonTable(l10n: Localizer = ENGLISH): Record<Reason, ReasonWords> {
  return {
    'modified-outside': {
      short: l10n.t('changed outside the agent since its last recorded write'),
      long: l10n.t('Changed outside the agent since its last recorded write. Rewinding would overwrite that change.'),
    },
    'deleted-outside': {
      short: l10n.t('deleted outside the agent since its last recorded write'),
      long: l10n.t('Deleted outside the agent since its last recorded write.'),
    },
    'created-outside': {
      short: l10n.t('created outside the agent after the agent had deleted it'),
      long: l10n.t('Created outside the agent after the agent had deleted it. Rewinding would overwrite it.'),
    },
    'your-edit': {
      short: l10n.t("your own edit (not the agent's), which a rewind would overwrite"),
      long: l10n.t("Your own edit, not the agent's: rewinding would overwrite it."),
    },
    observed: {
      short: l10n.t('your own edits after this point will be reverted (a copy is kept in the store)'),
      long: l10n.t(
        'Your own edits after this point will be reverted. A copy is kept in the store, and Undo puts the file back as it is now.',
      ),
    },
    'restored-edit': {
      short: l10n.t('your own edit, which the rewind being undone put back, is replaced again (a copy stays in the store)'),
      long: l10n.t(
        'Your own edit, which the rewind you are undoing put back. Undo returns the file to what that rewind found; your version stays in the store.',
      ),
    },
    'unrecorded-change': {
      short: l10n.t('changed with nothing recorded around this point, so it held one of two versions here'),
      long: l10n.t(
        'Changed while nothing was recorded around this point, so at this point it held one of two versions. Rewind anyway writes the later one; both stay in the store.',
      ),
    },
    touched: {
      short: l10n.t('was touched (same content, newer time)'),
      long: l10n.t('Saved again with the same content (newer modification time). Nothing is lost.'),
    },
    'too-large': {
      short: l10n.t('over the size limit, so its content then or now is not in the store; left as it is'),
      long: l10n.t(
        'Too large: it is over the size limit, so its content at this point, or as it is now, is not in the store. Left as it is.',
      ),
      fix: l10n.t('to record such files, raise agentRewind.maxFileSizeMB, or maxFileBytes in the store config.json'),
    },
    unreadable: {
      short: l10n.t('could not be read (when recorded, or now); left as it is'),
      long: l10n.t('Could not be read (when it was recorded, or now), so there is no copy to restore or keep. Left as it is.'),
    },
    special: {
      short: l10n.t('not a regular file or symlink'),
      long: l10n.t('Not a regular file (a socket, device or similar), so there is no copy to restore.'),
    },
    'unknown-at-target': {
      short: l10n.t('not recorded at that checkpoint'),
      long: l10n.t('Unknown at this point: nothing was recorded for this file before this checkpoint.'),
    },
    'folder-in-the-way': {
      short: l10n.t('a folder stands there holding files this rewind does not remove; left as it is'),
      long: l10n.t(
        'A folder stands where this file was, and it holds files this rewind does not remove (yours, or kept for another reason). Removing it would lose them, so the file is left as it is.',
      ),
      fix: l10n.t('move those files out of the folder, then rewind again'),
    },
    'outside-workspace': {
      short: l10n.t('outside every workspace folder of this store, never written'),
      long: l10n.t('Outside the workspace: Agent Rewind only writes inside your workspace folders.'),
    },
    'name-encoding': {
      short: l10n.t('its name is not valid UTF-8 (bytes shown as \\xNN), so its changes were not recorded'),
      long: l10n.t(
        'Its name is not valid UTF-8 (the bytes are shown as \\xNN), so its changes after this point were not recorded and cannot be rewound.',
      ),
      fix: l10n.t('rename it to a UTF-8 name to have it recorded'),
    },
    'path-length': {
      short: l10n.t('its path is longer than the system allows, so its changes were not recorded'),
      long: l10n.t('Its path is longer than the system allows, so its changes after this point were not recorded and cannot be rewound.'),
    },
    'special-file': {
      short: l10n.t('a FIFO, socket or device, which has no content to record'),
      long: l10n.t('A FIFO, socket or device: it has no content to record, so it is not rewound.'),
    },
    'payload-dropped': {
      short: l10n.t("an agent's hook message over 64 MB was dropped, so this change was not recorded"),
      long: l10n.t(
        "An agent's hook message over 64 MB was dropped, so this change (a write of that size) was not recorded and cannot be rewound.",
      ),
    },
    'capture-off': {
      short: l10n.t('shell capture was off in this folder (too many files), so what shell commands changed was not recorded'),
      long: l10n.t(
        "Shell capture was off in this folder (more files than the limit), so what shell commands changed here was not recorded; edits by the agent's file tools were.",
      ),
      fix: l10n.t('raise agentRewind.maxScanFiles, or maxScanFiles in the store config.json'),
    },
    'store-write-failed': {
      short: l10n.t('the store could not be written (a full disk?), so what agents did then was not recorded'),
      long: l10n.t('The store could not be written (a full disk, a quota), so what agents did in that time was not recorded.'),
      fix: l10n.t("free space on the store's disk"),
    },
  };
}

/** The CLI's words (English). */
export const REASONS: Record<Reason, ReasonWords> = reasonTable();

/** The words for a reason code, or undefined for a code this version does not know (a newer store). */
export function reasonWords(reason: string, l10n: Localizer = ENGLISH): ReasonWords | undefined {
  return Object.prototype.hasOwnProperty.call(REASONS, reason) ? reasonTable(l10n)[reason as Reason] : undefined;
}

/** Where the user's own content came from (core/rewind/safety.ts EditOrigin, with times already formatted). */
export interface EditWords {
  how: 'observed' | 'kept' | 'found';
  since: string;
  restored?: { time: string; undo: boolean };
}

/** "your own edit, kept by the rewind at 14:54 and restored by Undo at 14:56". */
export function yourEditWords(e: EditWords, l10n: Localizer = ENGLISH): string {
  const first =
    e.how === 'kept'
      ? l10n.t('your own edit, kept by the rewind at {0}', e.since)
      : e.how === 'observed'
        ? l10n.t('your own edit, seen at {0}', e.since)
        : l10n.t("changed outside the agent (found at {0}, before the agent's next change)", e.since);
  if (!e.restored) return first;
  return e.restored.undo
    ? l10n.t('{0} and restored by Undo at {1}', first, e.restored.time)
    : l10n.t('{0} and put back by the rewind at {1}', first, e.restored.time);
}

/** Words for a file a scoped rewind leaves as it is: the CLI's line (after the path) and the preview's sentence. */
export function leftAloneWords(
  l10n: Localizer = ENGLISH,
): Record<LeftAloneReason | 'not-chosen', { short: (sessions: string) => string; long: string }> {
  return {
    // Unticked in the preview (or left out of --path / --hunks): the user's own choice.
    'not-chosen': {
      short: () => l10n.t('not chosen; left as it is'),
      long: l10n.t('You did not choose these files: the rewind leaves them as they are now.'),
    },
    'other-session': {
      short: (sessions) => l10n.t('also changed after this point by {0}; rewinding one session cannot separate their edits', sessions),
      long: l10n.t(
        'Another session changed these files after this point as well. Rewinding only one session’s changes cannot separate their edits, so these files are left as they are.',
      ),
    },
    'outside-selection': {
      short: () => l10n.t('changed by the same call as a chosen file; rewinding only the chosen files leaves it as that call made it'),
      long: l10n.t(
        'A call that changed a file you chose changed these files too. Rewinding only the chosen files leaves these as that call made them.',
      ),
    },
  };
}

/** The CLI's words (English). */
export const LEFT_ALONE = leftAloneWords();
