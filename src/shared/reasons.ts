// The one vocabulary of reasons a rewind gives about a file: the codes in `plan --json`
// and the words the CLI (`short`, after the path) and the preview (`long`) say for each. A new
// reason is added here, and the compiler then asks both for its words.

/** Why a file stops a rewind (refused without --force / "Rewind anyway"). */
export type BlockReason = 'modified-outside' | 'deleted-outside' | 'created-outside' | 'your-edit';
/** Why a file is written but worth a word. */
export type WarningReason = 'touched' | 'observed' | 'restored-edit';
/** Why a file's state at the target is not known for sure (written only with --force / "Rewind anyway"). */
export type UncertainReason = 'unrecorded-change';
/** Why a file is left as it is, even with --force. */
export type NotRestorableReason = 'too-large' | 'unreadable' | 'special' | 'unknown-at-target' | 'outside-workspace';
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

export const REASONS: Record<Reason, ReasonWords> = {
  'modified-outside': {
    short: 'changed outside the agent since its last recorded write',
    long: 'Changed outside the agent since its last recorded write. Rewinding would overwrite that change.',
  },
  'deleted-outside': {
    short: 'deleted outside the agent since its last recorded write',
    long: 'Deleted outside the agent since its last recorded write.',
  },
  'created-outside': {
    short: 'created outside the agent after the agent had deleted it',
    long: 'Created outside the agent after the agent had deleted it. Rewinding would overwrite it.',
  },
  'your-edit': {
    short: "your own edit (not the agent's), which a rewind would overwrite",
    long: "Your own edit, not the agent's: rewinding would overwrite it.",
  },
  observed: {
    short: 'your own edits after this point will be reverted (a copy is kept in the store)',
    long: 'Your own edits after this point will be reverted. A copy is kept in the store, and Undo puts the file back as it is now.',
  },
  'restored-edit': {
    short: 'your own edit, which the rewind being undone put back, is replaced again (a copy stays in the store)',
    long: 'Your own edit, which the rewind you are undoing put back. Undo returns the file to what that rewind found; your version stays in the store.',
  },
  'unrecorded-change': {
    short: 'changed with nothing recorded around this point, so it held one of two versions here',
    long: 'Changed while nothing was recorded around this point, so at this point it held one of two versions. Rewind anyway writes the later one; both stay in the store.',
  },
  touched: {
    short: 'was touched (same content, newer time)',
    long: 'Saved again with the same content (newer modification time). Nothing is lost.',
  },
  'too-large': {
    short: 'over the size limit, so its content then or now is not in the store; left as it is',
    long: 'Too large: it is over the size limit, so its content at this point, or as it is now, is not in the store. Left as it is.',
    fix: 'to record such files, raise agentRewind.maxFileSizeMB, or maxFileBytes in the store config.json',
  },
  unreadable: {
    short: 'could not be read (when recorded, or now); left as it is',
    long: 'Could not be read (when it was recorded, or now), so there is no copy to restore or keep. Left as it is.',
  },
  special: {
    short: 'not a regular file or symlink',
    long: 'Not a regular file (a socket, device or similar), so there is no copy to restore.',
  },
  'unknown-at-target': {
    short: 'not recorded at that checkpoint',
    long: 'Unknown at this point: nothing was recorded for this file before this checkpoint.',
  },
  'outside-workspace': {
    short: 'outside every workspace folder of this store, never written',
    long: 'Outside the workspace: Agent Rewind only writes inside your workspace folders.',
  },
};

/** The words for a reason code, or undefined for a code this version does not know (a newer store). */
export function reasonWords(reason: string): ReasonWords | undefined {
  return Object.prototype.hasOwnProperty.call(REASONS, reason) ? REASONS[reason as Reason] : undefined;
}

/** Where the user's own content came from (core/rewind/safety.ts EditOrigin, with times already formatted). */
export interface EditWords {
  how: 'observed' | 'kept' | 'found';
  since: string;
  restored?: { time: string; undo: boolean };
}

/** "your own edit, kept by the rewind at 14:54 and restored by Undo at 14:56". */
export function yourEditWords(e: EditWords): string {
  const first =
    e.how === 'kept'
      ? `your own edit, kept by the rewind at ${e.since}`
      : e.how === 'observed'
        ? `your own edit, seen at ${e.since}`
        : `changed outside the agent (found at ${e.since}, before the agent's next change)`;
  if (!e.restored) return first;
  return `${first} and ${e.restored.undo ? 'restored by Undo' : 'put back by the rewind'} at ${e.restored.time}`;
}

/** Words for a file a scoped rewind leaves as it is: the CLI's line (after the path) and the preview's sentence. */
export const LEFT_ALONE: Record<LeftAloneReason, { short: (sessions: string) => string; long: string }> = {
  'other-session': {
    short: (sessions) => `also changed after this point by ${sessions}; rewinding one session cannot separate their edits`,
    long: 'Another session changed these files after this point as well. Rewinding only one session’s changes cannot separate their edits, so these files are left as they are.',
  },
  'outside-selection': {
    short: () => 'changed by the same call as a chosen file; rewinding only the chosen files leaves it as that call made it',
    long: 'A call that changed a file you chose changed these files too. Rewinding only the chosen files leaves these as that call made them.',
  },
};
