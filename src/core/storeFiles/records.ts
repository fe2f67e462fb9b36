// The lines of `files.jsonl`. Line order is the sequence: nothing else orders records.
// Field names are part of the store format; add optional fields, never rename.

export type CheckpointKind = 'session-start' | 'prompt' | 'before-tool' | 'manual' | 'rewind';
export type SnapPhase = 'baseline' | 'observed' | 'before' | 'after' | 'pre-rewind' | 'rewind';
/**
 * Where a snapshot's bytes came from: an agent's file tool, an agent's shell command (shell
 * capture), the user (or anything else we did not record making the change), or what was there
 * when recording began. A rewind's snapshots carry the origin of the content they put back.
 */
export type Origin = 'agent' | 'shell' | 'user' | 'baseline';
export type Effect = 'rewindable' | 'compensatable' | 'irreversible' | 'none';
export type Severity = 'high' | 'low';

export interface CheckpointRecord {
  t: 'checkpoint';
  id: string;
  time: number;
  kind: CheckpointKind;
  label: string;
  session?: string;
  agent?: string;
  /** The agent's working folder when the checkpoint was taken (session-start, prompt). */
  cwd?: string;
  /** Workspace folders the hook was given (`--root`) when the checkpoint was taken (session-start, prompt). */
  roots?: string[];
  /** The agent's own id of the prompt (Claude Code `prompt_id`), for display only. */
  promptId?: string;
  /** For a `rewind` checkpoint: the checkpoint it rewound to. */
  target?: string;
  /** For a `rewind` checkpoint to just before a tool call: that call's id. */
  targetCall?: string;
  /** For a `rewind` checkpoint: the rewind wrote only some paths or sessions (taking files from a point), so it left no attempt. */
  partial?: boolean;
  /** The agent's conversation transcript, when it has one we can read (Claude Code). */
  transcript?: string;
  /** Why the session started (Claude Code SessionStart `source`: startup, resume, clear, compact, fork). */
  source?: string;
}

export interface SnapRecord {
  t: 'snap';
  path: string;
  /** sha256 of the whole content; null = the path did not exist at that moment. */
  hash: string | null;
  size?: number;
  mtime?: number;
  /** Permission bits, so a recreated executable stays executable. */
  mode?: number;
  /** The content is a symlink target (stored as the blob), not file content. */
  link?: boolean;
  /** Content not stored: state unknown to us (hash is null but the file existed). */
  skipped?: 'too-large' | 'unreadable' | 'special';
  /** With `hash: null`: ancestor folders that were missing too (nearest first), so deleting restores them. */
  dirs?: string[];
  phase: SnapPhase;
  /** Provenance of the content (optional: older stores lack it; core/timeline/provenance.ts derives it on read). */
  origin?: Origin;
  /** For a `rewind` snapshot: the rewind checkpoint it belongs to. */
  by?: string;
  /** For a `rewind` snapshot: it wrote the target's lines mixed with the file's own (keep mine, or chosen hunks). */
  mixed?: 'keep-mine' | 'hunks';
  session?: string;
  tool?: string;
  call?: string;
  time: number;
}

export interface CallRecord {
  t: 'call';
  tool: string;
  call?: string;
  summary: string;
  effect: Effect;
  severity?: Severity;
  compensation?: string;
  session?: string;
  agent?: string;
  /** The tool input, trimmed (large strings are cut), for display and effect re-classification. */
  input?: unknown;
  time: number;
}

export type LogRecord = CheckpointRecord | SnapRecord | CallRecord;

/**
 * Why something the agent's work touched could not be recorded: a name that is not valid UTF-8 (its
 * `path` shows the name's bytes above 0x7F as `\xNN`), a path over the system's limit, content over
 * `maxFileSizeMB` where no snapshot says so, a FIFO/socket/device, a hook payload over the hook's
 * limit (its `path`: the file it named, or "" when none was found), shell capture turned off past
 * `maxScanFiles` (its `path`: the workspace folder).
 */
export type GapReason = 'name-encoding' | 'path-length' | 'too-large' | 'special-file' | 'payload-dropped' | 'capture-off';

/**
 * A `gap` line: something was not recorded, and why. Not a step of the timeline: it takes no sequence
 * number (readers before it skip the line as a type they do not know, and number the rest the same),
 * and plans list the gaps recorded after their target (by time) as not restorable.
 */
export interface GapRecord {
  t: 'gap';
  path: string;
  reason: GapReason;
  session?: string;
  tool?: string;
  call?: string;
  time: number;
}

/** A record with its position in the log: the sequence number is the index of its line. */
export type Sequenced<R extends LogRecord = LogRecord> = R & { seq: number };

export function isCheckpoint(r: LogRecord): r is CheckpointRecord {
  return r.t === 'checkpoint';
}
export function isSnap(r: LogRecord): r is SnapRecord {
  return r.t === 'snap';
}
export function isCall(r: LogRecord): r is CallRecord {
  return r.t === 'call';
}

const MAX_INPUT_STRING = 2000;

/** Tool input as a call line keeps it: long strings cut, deep or wide structures bounded (file contents live in blobs). */
export function trimInput(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return v.length > MAX_INPUT_STRING ? v.slice(0, MAX_INPUT_STRING) + '…' : v;
  if (depth > 4 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.slice(0, 50).map((x) => trimInput(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v).slice(0, 50)) out[k] = trimInput(x, depth + 1);
  return out;
}
