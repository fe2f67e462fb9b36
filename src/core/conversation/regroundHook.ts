// The one thing a hook prints (DESIGN §5): at the start of a forked session our lineage knows, the
// SessionStart `additionalContext` that re-grounds the agent — once per forked session. Kept small:
// it runs inside dist/hook.js and reads only lineage.jsonl and files.jsonl.
import type { Store } from '../store';
import { appendLineage, forkOf, readLineage, wasRegrounded } from './lineage';
import { regroundFacts } from './regroundFacts';
import { regroundText } from './regroundText';

/** SessionStart sources that open an existing conversation (`claude --resume <fork id>` sends `resume`). */
const RESUMING = new Set(['resume', 'fork']);

/** The hook's stdout for this SessionStart, or null when there is nothing to say. */
export function regroundingOutput(store: Store, e: { type: string; session: string; source?: string }): string | null {
  if (e.type !== 'session_start' || !e.source || !RESUMING.has(e.source)) return null;
  const lineage = readLineage(store.dir);
  const fork = forkOf(lineage, e.session);
  if (!fork || wasRegrounded(lineage, e.session)) return null;
  const facts = regroundFacts(store.read().records, fork, lineage);
  const additionalContext = regroundText(facts, fork);
  // Recorded before printing: a second start of this session must stay silent even if this one is killed.
  appendLineage(store.dir, { t: 'regrounded', session: e.session, time: Date.now() });
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } });
}
