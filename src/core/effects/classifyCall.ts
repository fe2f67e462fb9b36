// Tool classification: what undoing a tool call would take (seed 004, DESIGN §4).
//   rewindable    we hold the old content and can put it back (agent file edits; shell commands whose
//                 only effect is on workspace files, which shell capture records)
//   none          nothing to undo (reads, searches, web fetches, todo lists, `ls`, `npm test`)
//   compensatable a second action offsets it (`git commit` → `git reset --soft <HEAD before>`)
//   irreversible  nothing we can send makes it not have happened (pushes, publishes, deploys,
//                 requests that change remote state, messages sent, MCP tools by default)
// Irreversible and compensatable calls carry a severity: `high` when we know what the call does,
// `low` when we do not (an unknown command or script is listed as irreversible/low rather than
// silently called harmless).
// A call is classified by its tool, after the user's overrides by tool name; shell commands by what
// they run (./classifyShell). Pure: no I/O.
// The HEAD a git compensation needs is looked up by the recorder (./compensation).
import type { EffectOverride } from '../config';
import type { Effect, Severity } from '../records';
import { classifyShell } from './classifyShell';
import { toolOverride } from './overrides';
import { FILE_TOOLS, NONE_TOOLS, oneLine, SHELL_TOOLS, str, summarize } from './summary';
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

const MCP_READ = /^(get|list|read|search|fetch|find|query|describe|view|show|lookup|count|check|resolve|retrieve|browse|inspect|explain|preview|download|export|status|whoami|ping|echo)(_|-|[A-Z]|$)/i;

export function classifyCall(tool: string, input: unknown, ctx: ClassifyContext = {}): Classification {
  const summary = summarize(tool, input);
  const overrides = ctx.overrides ?? [];
  const byTool = toolOverride(tool, overrides);
  if (byTool) {
    const c: Classification = { effect: byTool.effect, summary, reason: 'set in your effects settings' };
    if (byTool.effect === 'irreversible' || byTool.effect === 'compensatable') c.severity = byTool.severity ?? 'high';
    if (byTool.compensation) c.compensation = byTool.compensation;
    return c;
  }
  if (FILE_TOOLS.has(tool)) return { effect: 'rewindable', summary };
  if (NONE_TOOLS.has(tool)) return { effect: 'none', summary };
  if (SHELL_TOOLS.has(tool)) {
    const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    const v = classifyShell(str(i.command), ctx.cwd, overrides, { ...(ctx.root ? { root: ctx.root } : {}), dialect: tool === 'PowerShell' ? 'powershell' : 'sh' });
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
  if (tool.startsWith('mcp__')) {
    const name = tool.split('__').slice(2).join('__') || tool;
    const s = oneLine(`${tool.split('__').slice(1).join(' ')} ${summary}`);
    if (MCP_READ.test(name)) return { effect: 'irreversible', severity: 'low', summary: s, reason: 'an MCP tool (its name suggests it only reads; configure it as none)' };
    return { effect: 'irreversible', severity: 'high', summary: s, reason: 'an MCP tool: it acts outside this machine unless configured otherwise' };
  }
  return { effect: 'irreversible', severity: 'low', summary, reason: `unknown tool "${tool}"` };
}
