// What every transcript forker shares: one refusal (a cut it will not make, nothing written) and the
// forker object recording/forkConversation.ts calls, which tells a refusal from a failure.
import type { TranscriptForker, TranscriptForkResult } from '../../recording/forkConversation';

/**
 * Why a cut was refused; each forker names its own: not a prompt of this transcript ('not-found'), the
 * first prompt ('first-prompt'), no clean place to cut ('open-turn', 'unpaired'), a copy that does not
 * read back as the agent would resume it ('unclean').
 */
export type CutRefusal = 'not-found' | 'first-prompt' | 'unclean' | (string & {});

/** A cut that cannot be made; nothing was written. The message says what to pick instead. */
export class CutRefusedError extends Error {
  constructor(
    message: string,
    readonly reason: CutRefusal,
  ) {
    super(message);
  }
}

/** An agent's transcript forker: `fork` throws a CutRefusedError for a cut it refuses. */
export function transcriptForker(agent: string, fork: (transcript: string, before: string) => TranscriptForkResult): TranscriptForker {
  return { agent, fork, refused: (e) => e instanceof CutRefusedError };
}
