// Tool classification: what undoing a tool call would take.
//   rewindable    we hold the old content and can put it back (agent file edits; shell commands whose
//                 only effect is on workspace files, which shell capture records)
//   none          nothing to undo (reads, searches, web fetches, todo lists, `ls`, `npm test`)
//   compensatable a second action offsets it (`git commit` → `git reset --soft <HEAD before>`)
//   irreversible  nothing we can send makes it not have happened (pushes, publishes, deploys,
//                 requests that change remote state, messages sent, MCP tools by default)
// Irreversible and compensatable calls carry a severity: `high` when we know what the call does,
// `low` when we do not (an unknown command or script is listed as irreversible/low rather than
// silently called harmless).
// A call is classified by its kind (./toolKind: the adapter maps the agent's tools), after the
// user's overrides by tool name; shell commands by what they run (./classifyShell). Pure: no I/O.
// The HEAD a git compensation needs is looked up by the recorder (./compensation).
import type { EffectOverride } from '../storeFiles/config';
import type { Effect, Severity } from '../storeFiles/records';
import { classifyShell } from './classifyShell';
import { toolOverride } from './overrides';
import { oneLine } from '../../shared/text';
import { summarize } from './summary';
import type { ToolKind } from './toolKind';
import type { CompensationUnit, GitNeed } from './verdict';

export interface Classification {
  effect: Effect;
  /** For irreversible/compensatable: `high` when we know what the call does, `low` when we guessed. */
  severity?: Severity;
  /** One line saying what the call did, e.g. `git push origin main`. */
  summary: string;
  /** A fixed compensation (from the rules or an override); `git` needs complete it. */
  compensation?: string;
  /** Why it got this class, in a few words (for the preview). */
  reason?: string;
  /** Git HEADs the compensation needs, in the order the command runs them. */
  git?: GitNeed[];
  /** All compensation units (fixed texts and git needs) in execution order, when `git` is set. */
  units?: CompensationUnit[];
  /** The folder of the first git HEAD the compensation needs (kept for older callers). */
  gitCommitIn?: string;
}

export interface ClassifyContext {
  cwd?: string;
  /** The workspace folder (default: cwd); shell file changes outside it are not recorded. */
  root?: string;
  overrides?: readonly EffectOverride[];
}

/** Remote tool names that suggest the tool only reads (`get_issue`, `listFiles`). */
const REMOTE_READ =
  /^(get|list|read|search|fetch|find|query|describe|view|show|lookup|count|check|resolve|retrieve|browse|inspect|explain|preview|download|export|status|whoami|ping|echo)(_|-|[A-Z]|$)/i;

/**
 * Classifies one tool call. `tool` is the name the agent shows (what overrides by tool name match
 * and what labels start with); `kind` is what the adapter says the tool is; `input` is summarized
 * when the kind gives no summary.
 */
export function classifyCall(tool: string, kind: ToolKind, input: unknown, ctx: ClassifyContext = {}): Classification {
  const summary = summarize(kind, input);
  const overrides = ctx.overrides ?? [];
  const byTool = toolOverride(tool, kind, overrides);
  if (byTool) {
    const c: Classification = { effect: byTool.effect, summary, reason: 'set in your effects settings' };
    if (byTool.effect === 'irreversible' || byTool.effect === 'compensatable') c.severity = byTool.severity ?? 'high';
    if (byTool.compensation) c.compensation = byTool.compensation;
    return c;
  }
  switch (kind.kind) {
    case 'file-write':
      return { effect: 'rewindable', summary };
    case 'read':
      return { effect: 'none', summary };
    case 'shell': {
      const v = classifyShell(kind.command, ctx.cwd, overrides, { ...(ctx.root ? { root: ctx.root } : {}), dialect: kind.dialect });
      const c: Classification = { effect: v.effect, summary };
      if (v.severity) c.severity = v.severity;
      if (v.reason) c.reason = v.reason;
      if (v.compensation) c.compensation = v.compensation;
      if (v.git && v.units) {
        c.git = v.git;
        c.units = v.units;
        c.gitCommitIn = v.git[0]!.dir;
      }
      return c;
    }
    case 'remote': {
      const s = oneLine(`${kind.server !== undefined ? `${kind.server} ` : ''}${kind.name} ${summary}`, 200);
      if (REMOTE_READ.test(kind.name))
        return {
          effect: 'irreversible',
          severity: 'low',
          summary: s,
          reason: 'an MCP tool (its name suggests it only reads; configure it as none)',
        };
      return {
        effect: 'irreversible',
        severity: 'high',
        summary: s,
        reason: 'an MCP tool: it acts outside this machine unless configured otherwise',
      };
    }
    case 'other':
      return { effect: 'irreversible', severity: 'low', summary, reason: `unknown tool "${tool}"` };
  }
}
