// OpenCode sessions as `opencode export <session>` prints them (1.18: the session lives in SQLite,
// `~/.local/share/opencode/opencode.db`, which no other program should write; export and import are
// its documented way in and out). The export is one JSON object
//   { info: { id: "ses_…", directory, title, … }, messages: [{ info: { id: "msg_…", role, parentID?, time }, parts: [Part] }] }
// with messages and parts in id order (ids grow with time). A prompt is a `user` message with a text
// part that is not `synthetic`; an assistant message's `tool` parts are its calls
// (`{ tool, callID, state: { status, input, output?, error? } }`). Findings: test/fixtures/agents/opencode/real-1.18.33/.
import type { EffectOverride } from '../../core/storeFiles/config';
import { classifyCall } from '../../core/effects/classifyCall';
import { readHead, readRegularText } from '../../core/storeFiles/fsx';
import type { LineFold } from '../../core/storeFiles/logTail';
import { oneLine } from '../../shared/text';
import { FoldedTimeline, type TimelinePrompt, type TimelineTool, type TranscriptTimeline } from '../common/timeline';
import { opencodeToolKind } from './hookPayload';

export interface OpencodePart {
  id: string;
  type: string;
  messageID?: string;
  sessionID?: string;
  text?: string;
  synthetic?: boolean;
  ignored?: boolean;
  tool?: string;
  callID?: string;
  state?: { status?: string; input?: Record<string, unknown>; output?: unknown; error?: unknown };
  [k: string]: unknown;
}

export interface OpencodeMessage {
  info: { id: string; role: string; sessionID?: string; parentID?: string; time?: { created?: number }; [k: string]: unknown };
  parts: OpencodePart[];
}

export interface OpencodeExport {
  info: { id: string; directory?: string; title?: string; [k: string]: unknown };
  messages: OpencodeMessage[];
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The export in `text`, or null. Tolerates what the CLI may print before the JSON (`Exporting session: …`). */
export function parseOpencodeExport(text: string): OpencodeExport | null {
  const at = text.indexOf('{');
  if (at < 0) return null;
  let v: unknown;
  try {
    v = JSON.parse(text.slice(at));
  } catch {
    return null;
  }
  if (!isObj(v) || !isObj(v.info) || typeof v.info.id !== 'string' || !v.info.id.startsWith('ses') || !Array.isArray(v.messages))
    return null;
  const messages = v.messages.filter(
    (m): m is OpencodeMessage =>
      isObj(m) && isObj(m.info) && typeof m.info.id === 'string' && typeof m.info.role === 'string' && Array.isArray(m.parts),
  );
  return { ...(v as unknown as OpencodeExport), messages };
}

export function readOpencodeExport(file: string): OpencodeExport {
  const text = readRegularText(file); // a FIFO given as a chat file is refused, never waited on
  const e = parseOpencodeExport(text);
  if (!e) throw new Error(`${file} is not an OpenCode session export (\`opencode export <session>\` writes one).`);
  return e;
}

/** Is `file` an OpenCode export? By content: a JSON object whose `info.id` is a `ses_…` id, with `messages`. */
export function isOpencodeExport(file: string): boolean {
  const head = readHead(file, 4096)?.toString('utf8') ?? '';
  const at = head.indexOf('{');
  return (
    at >= 0 &&
    // The cheap look first (the object opens with `info`, a session id in the head), then the whole parse.
    /^\{\s*"info"\s*:\s*\{/.test(head.slice(at)) &&
    head.includes('"ses_') &&
    parseOpencodeExport(readRegularText(file)) !== null
  );
}

/** The user's own text of a message, or null when it is not a prompt. */
export function opencodePromptOf(m: OpencodeMessage): { id: string; text: string; time?: number } | null {
  if (m.info.role !== 'user') return null;
  const text = m.parts
    .filter((p) => p.type === 'text' && typeof p.text === 'string' && !p.synthetic && !p.ignored)
    .map((p) => String(p.text))
    .join('\n')
    .trim();
  return text ? { id: m.info.id, text, ...(m.info.time?.created ? { time: m.info.time.created } : {}) } : null;
}

export function opencodePrompts(e: OpencodeExport, overrides: readonly EffectOverride[] = []): TimelinePrompt[] {
  const prompts: TimelinePrompt[] = [];
  const cwd = typeof e.info.directory === 'string' ? e.info.directory : undefined;
  let cur: TimelinePrompt | null = null;
  for (const m of e.messages) {
    const p = opencodePromptOf(m);
    if (p) {
      cur = { uuid: p.id, text: p.text, time: p.time ? new Date(p.time).toISOString() : null, replies: [], tools: [] };
      if (cwd) cur.cwd = cwd;
      prompts.push(cur);
      continue;
    }
    if (!cur || m.info.role !== 'assistant') continue;
    for (const part of m.parts) {
      if (part.type === 'text' && typeof part.text === 'string' && part.text.trim() && !part.synthetic) cur.replies.push(part.text);
      if (part.type !== 'tool' || !part.tool) continue;
      const input = isObj(part.state?.input) ? part.state.input : {};
      const cls = classifyCall(part.tool, opencodeToolKind(part.tool, input, cwd).kind, input, { ...(cwd ? { cwd } : {}), overrides });
      const tool: TimelineTool = { id: part.callID ?? part.id, name: part.tool, input, summary: cls.summary, effect: cls.effect };
      if (cls.severity) tool.severity = cls.severity;
      const st = part.state?.status;
      if (st === 'completed' || st === 'error')
        tool.result = { isError: st === 'error', preview: oneLine(String(part.state?.output ?? part.state?.error ?? ''), 200) };
      cur.tools.push(tool);
    }
  }
  return prompts;
}

function timelineOf(e: OpencodeExport, overrides: readonly EffectOverride[]): TranscriptTimeline {
  const t: TranscriptTimeline = { session: e.info.id, prompts: opencodePrompts(e, overrides), badLines: 0 };
  const last = e.messages[e.messages.length - 1];
  if (last) t.leaf = last.info.id;
  return t;
}

export function readOpencodeTimeline(file: string, overrides: readonly EffectOverride[] = []): TranscriptTimeline {
  return timelineOf(readOpencodeExport(file), overrides);
}

/** The export's lines, joined and parsed when the timeline is built (an export is rewritten whole, never appended to). */
const LINES_FOLD: LineFold<string[]> = { start: () => [], add: (out, raw) => void out.push(raw.toString('utf8')) };

export class OpencodeExportFollower extends FoldedTimeline<string[]> {
  constructor(file: string) {
    super(file, LINES_FOLD, (lines, overrides) => {
      const e = parseOpencodeExport(lines.join('\n'));
      return e ? timelineOf(e, overrides) : { session: '', prompts: [], badLines: lines.length };
    });
  }
}
