// Finer than a turn, for the Conversation view: which tool calls the store recorded (so the view
// offers "Rewind Files to Before This Step" only where the core can go), each call's own file
// changes (a step's children), and its place in its turn ("step 2 of 3"). Rebuilt lazily, once per
// reload of the timeline: the records array is replaced on every reload.
import type { Sequenced } from '../../core/storeFiles/records';
import { isCall } from '../../core/storeFiles/records';
import { BEFORE_CALL, beforeCallTarget, callChanges, type RewindTarget, type SpanChange } from '../../core/timeline/timeline';

export interface StepPlace {
  /** The rewind target string of the moment just before the call. */
  target: string;
  step: number;
  of: number;
  tool: string;
  summary: string;
}

export class StepIndex {
  private built: { records: readonly Sequenced[]; calls: Set<string>; changes: Map<string, SpanChange[]> } | undefined;

  constructor(private readonly records: () => readonly Sequenced[]) {}

  private index() {
    const records = this.records();
    if (this.built?.records !== records) {
      const calls = new Set<string>();
      for (const r of records) if (isCall(r) && r.call) calls.add(r.call);
      this.built = { records, calls, changes: callChanges(records) };
    }
    return this.built;
  }

  /** Whether the store holds this call, i.e. a rewind to just before it can be planned. */
  recorded(callId: string | undefined): callId is string {
    return !!callId && this.index().calls.has(callId);
  }

  /** The files this call itself changed (before → after), sorted by path. */
  changes(callId: string | undefined): readonly SpanChange[] {
    return (callId && this.index().changes.get(callId)) || [];
  }

  /** Where the call sits in its turn, or undefined when it is not recorded. */
  place(callId: string): StepPlace | undefined {
    const t: RewindTarget | null = this.recorded(callId) ? beforeCallTarget(this.index().records, callId) : null;
    if (!t?.call) return undefined;
    return { target: BEFORE_CALL + callId, step: t.call.step, of: t.call.of, tool: t.call.tool, summary: t.call.summary };
  }
}
