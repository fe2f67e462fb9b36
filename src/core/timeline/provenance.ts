// Provenance of content, pure: for every snapshot, where its bytes came from — an agent's file
// tool, an agent's shell command, the user (an `observed` change, or content a `before` or
// `pre-rewind` snapshot found that differs from the path's last record: nobody we recorded made
// it), or what was there when recording began — and, when a rewind put the content back, which
// rewind. A rewind's snapshots inherit the provenance of the content they restore, so the user's
// own edit stays the user's through "Rewind anyway", Undo and Redo, and a later rewind that would
// overwrite it is refused (plan.ts) instead of trusting "disk = last record".
//
// Stored snapshots may carry `origin` (newer stores); everything else is derived here, in log
// order, so older stores read the same way (migrate on read).
import type { CheckpointRecord, Origin, Sequenced, SnapRecord } from '../storeFiles/records';

export interface Provenance {
  origin: Origin;
  /** The snapshot where this content entered the timeline. */
  since: { seq: number; time: number; phase: SnapRecord['phase']; session?: string };
  /** The last rewind that put this content back on disk. */
  restoredBy?: { checkpoint: string; time: number; undo: boolean };
}

/** What provenance compares: the content (and kind), or null for unknown content. */
export function contentKey(s: SnapRecord): string | null {
  if (s.skipped) return null; // unknown content: never equal to anything
  return s.hash === null ? 'missing' : `${s.link ? 'l' : 'f'}:${s.hash}`;
}

function fresh(s: Sequenced<SnapRecord>, origin: Origin): Provenance {
  const since: Provenance['since'] = { seq: s.seq, time: s.time, phase: s.phase };
  if (s.session !== undefined) since.session = s.session;
  return { origin, since };
}

/** What the fold knows of one path: its last record's content and provenance, and each content it held. */
export interface PathHistory {
  last?: { key: string | null; prov: Provenance };
  known: Map<string, Provenance>;
}

/**
 * The provenance fold, one record at a time in log order. `seed` supplies what earlier records
 * (not given to this fold: an index holds their provenance) say of a path, the first time the
 * path is seen; checkpoints before the first record given must be added all the same.
 */
export class ProvenanceFold {
  readonly out = new Map<number, Provenance>();
  private readonly checkpoints = new Map<string, Sequenced<CheckpointRecord>>();
  private lastRewind: Sequenced<CheckpointRecord> | undefined;
  private readonly paths = new Map<string, PathHistory>();

  constructor(private readonly seed?: (path: string) => PathHistory) {}

  add(r: Sequenced): void {
    if (r.t === 'checkpoint') {
      this.checkpoints.set(r.id, r as Sequenced<CheckpointRecord>);
      if (r.kind === 'rewind') this.lastRewind = r as Sequenced<CheckpointRecord>;
      return;
    }
    if (r.t !== 'snap') return;
    const s = r as Sequenced<SnapRecord>;
    const key = contentKey(s);
    let h = this.paths.get(s.path);
    if (!h) this.paths.set(s.path, (h = this.seed ? this.seed(s.path) : { known: new Map() }));
    const prev = h.last;
    const known = h.known;
    let prov: Provenance;
    switch (s.phase) {
      case 'after':
        prov = fresh(s, s.origin ?? 'agent');
        break;
      case 'observed':
        prov = prev && key !== null && prev.key === key ? prev.prov : fresh(s, 'user');
        break;
      case 'baseline':
        prov = fresh(s, 'baseline');
        break;
      case 'before':
      case 'pre-rewind':
        // The same content as last recorded: whoever made that made this. Different: nobody we
        // recorded changed it — the user's (or an untraced) edit. First record: it was there before.
        if (prev && key !== null && prev.key === key) prov = prev.prov;
        else if (s.origin) prov = fresh(s, s.origin);
        else prov = fresh(s, prev ? 'user' : 'baseline');
        break;
      case 'rewind': {
        const cp = (s.by ? this.checkpoints.get(s.by) : undefined) ?? this.lastRewind;
        const restored = key !== null ? known.get(key) : undefined;
        prov = restored ? { ...restored } : fresh(s, s.origin ?? 'agent');
        if (s.origin && restored && s.origin !== restored.origin) prov = { ...prov, origin: s.origin };
        if (cp) {
          const target = cp.target ? this.checkpoints.get(cp.target) : undefined;
          prov.restoredBy = { checkpoint: cp.id, time: cp.time, undo: target?.kind === 'rewind' };
        }
        break;
      }
      default:
        prov = fresh(s, s.origin ?? 'agent');
    }
    this.out.set(s.seq, prov);
    h.last = { key, prov };
    if (key !== null) known.set(key, prov);
  }
}

/** The provenance of every snapshot, by its sequence number. */
export function provenanceOf(records: readonly Sequenced[]): Map<number, Provenance> {
  const fold = new ProvenanceFold();
  for (const r of records) fold.add(r);
  return fold.out;
}
