// What every transcript forker shares: one refusal (a cut it will not make, nothing written) and the
// forker object recording/forkConversation.ts calls, which tells a refusal from a failure.
import { AgentRewindError, isError } from '../../core/errors';
import type { TranscriptForker, TranscriptForkResult } from '../../recording/forkConversation';

/**
 * Why a cut was refused; each forker names its own: not a prompt of this transcript ('not-found'), the
 * first prompt ('first-prompt'), no clean place to cut ('open-turn', 'unpaired'), a copy that does not
 * read back as the agent would resume it ('unclean').
 */
export type CutRefusal = 'not-found' | 'first-prompt' | 'unclean' | (string & {});

/** A cut that cannot be made; nothing was written. The message says what to pick instead. */
export function cutRefused(message: string, reason: CutRefusal): AgentRewindError<'cut-refused'> {
  return new AgentRewindError('cut-refused', { message, reason });
}

/** Is `e` a cut a forker refused (nothing written), as opposed to a failure (a missing file, a bug)? */
export const isCutRefused = (e: unknown): boolean => isError(e, 'cut-refused');

/** An agent's transcript forker: `fork` throws `cutRefused(…)` for a cut it refuses. */
export function transcriptForker(agent: string, fork: (transcript: string, before: string) => TranscriptForkResult): TranscriptForker {
  return { agent, fork, refused: isCutRefused };
}
