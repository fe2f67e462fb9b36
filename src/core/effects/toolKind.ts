// What kind of tool a call is, in terms every agent can map to: core classifies calls by kind, never
// by an agent's tool names. Each adapter maps its own tools (Claude Code: agents/claude/toolKind.ts).
import type { Dialect } from '../shell/lex';

/**
 * - `file-write`: writes the files named (an agent's edit tool): rewindable, snapshotted before and after.
 * - `shell`: runs a command line: classified by what it runs.
 * - `read`: changes nothing (reads, searches, web fetches, todo lists): never listed.
 * - `remote`: acts elsewhere (an MCP tool): irreversible unless configured; a name that only reads (`get_…`) is low.
 * - `other`: a tool we do not know: irreversible/low.
 */
export type ToolKindBody =
  | { kind: 'file-write'; paths: string[] }
  | { kind: 'shell'; command: string; dialect: Dialect }
  | { kind: 'read' }
  | { kind: 'remote'; server?: string; name: string }
  | { kind: 'other' };

export type ToolKind = ToolKindBody & {
  /** What the call acts on (a path, a URL, a pattern), shown instead of core's default summary of the input. */
  summary?: string;
};
