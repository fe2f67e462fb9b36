// What kind of tool a call is, in terms every agent can map to: core classifies calls by kind, never
// by an agent's tool names. Each adapter maps its own tools (Claude Code: agents/claude/toolKind.ts).
import type { Dialect } from '../shell/lex';

export type ToolKind = (
  /** Writes the files named (an agent's edit tool): rewindable, we snapshot them before and after. */
  | { kind: 'file-write'; paths: string[] }
  /** Runs a command line: classified by what it runs. */
  | { kind: 'shell'; command: string; dialect: Dialect }
  /** Changes nothing: reads, searches, web fetches, todo lists. Never listed. */
  | { kind: 'read' }
  /** Acts elsewhere (an MCP tool): irreversible unless configured; a name that only reads (`get_…`) is low. */
  | { kind: 'remote'; server?: string; name: string }
  /** A tool we do not know: irreversible/low. */
  | { kind: 'other' }
) & {
  /** What the call acts on (a path, a URL, a pattern), shown instead of core's default summary of the input. */
  summary?: string;
};
