// The verdict on one command or script: its effect class, how sure we are (severity), why, and
// the compensation units that would offset it. A chain takes its worst part (`combine`); the
// compensations of every compensatable part are kept, in the order the parts run.
import type { Effect, Severity } from '../storeFiles/records';

/** A HEAD the compensation needs, looked up right before the call runs. */
export interface GitNeed {
  /** The repository folder (absolute when the working folder was known). */
  dir: string;
  /** Git's location options as given (`--git-dir=…`, `--work-tree=…`), repeated in the compensation. */
  globals: string[];
  /** `soft`/`mixed`: reset to the HEAD before; `switch`: back to the branch before; `switch-new`: and delete the new branch. */
  mode: 'soft' | 'mixed' | 'switch' | 'switch-new';
  /** For `switch-new`: the branch the command creates. */
  branch?: string;
}

/** One step of a compensation: a fixed text, or a git HEAD to look up right before the call. */
export type CompensationUnit = { text: string } | { git: GitNeed };

export interface Verdict {
  effect: Effect;
  severity?: Severity;
  reason?: string;
  /** Compensation units in execution order (each a fixed text or a git need). */
  comps?: CompensationUnit[];
}

const RANK: Record<Effect, number> = { none: 0, rewindable: 1, compensatable: 2, irreversible: 3 };
export const NONE: Verdict = { effect: 'none' };
export const REWINDABLE: Verdict = { effect: 'rewindable', reason: 'changes workspace files (recorded by shell capture)' };
/** Known to act beyond what a rewind restores (`irreversible` unless said otherwise). */
export const high = (reason: string, effect: Effect = 'irreversible'): Verdict => ({ effect, severity: 'high', reason });
/** Listed because we cannot tell what it does. */
export const low = (reason: string): Verdict => ({ effect: 'irreversible', severity: 'low', reason });
export const UNKNOWN = (cmd: string) => low(`unknown command "${cmd}"`);

function worse(a: Verdict, b: Verdict): boolean {
  if (RANK[a.effect] !== RANK[b.effect]) return RANK[a.effect] > RANK[b.effect];
  return a.severity === 'high' && b.severity === 'low';
}

/** The worst of several verdicts; compensations of every compensatable part are kept. */
export function combine(vs: Verdict[]): Verdict {
  let worst: Verdict = NONE;
  const comps: NonNullable<Verdict['comps']> = [];
  for (const v of vs) {
    if (worse(v, worst)) worst = v;
    if (v.comps) comps.push(...v.comps);
  }
  if (worst.effect !== 'compensatable') return worst; // only its own compensation (an override's)
  return { ...worst, comps };
}
