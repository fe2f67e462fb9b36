// What every agent's "Connect" offers: our hook in the agent's own config file(s), in the agent's
// own format (event names, timeout units, file layout), merged with what the user has there,
// idempotent, and undone exactly by `disconnect`. One module per agent implements this
// (`src/agents/<agent>/connect.ts`, named by its adapter, src/agents/adapter.ts); `src/agents/connectors.ts` runs them. Pure node: the extension's
// "Connect Agents…" and the compat tiers (which connect real clients the way a user would) share them.
import type { HookCommandParts } from './hookCommand';
import type { Localizer } from '../../shared/l10n';

/** An agent's id (registry.ts lists the adapters); also the `<agent>` of `agent-rewind hook <agent>`. */
export type AgentId = string;

/** Where a connector finds the CLI, the store and a Node to run them (absolute paths). */
export type HookTarget = Omit<HookCommandParts, 'agent' | 'event'>;

export type AgentConnectionState = 'connected' | 'outdated' | 'disconnected';

export interface AgentConnectResult {
  /** Every file written or checked (absolute). */
  files: string[];
  changed: boolean;
  /**
   * Things the user must know or do for the hooks to run (enable hooks in the agent, trust the folder, a file
   * the agent will ignore…), in the language of the localizer `connect` was given (English by default).
   */
  notes: string[];
}

export interface AgentConnector {
  agent: AgentId;
  /** "Claude Code", "Gemini CLI"… (its adapter's, or its `connectName`) */
  displayName: string;
  /** The config files this connector edits for a workspace folder (absolute). */
  files(workspace: string): string[];
  /** Writes (or refreshes) our hooks; keeps the user's own hooks and formatting. The notes are in `l10n`'s language (default English). */
  connect(workspace: string, target: HookTarget, l10n?: Localizer): AgentConnectResult;
  /** Removes exactly what `connect` wrote (a file it created and that holds nothing else is removed). */
  disconnect(workspace: string): { files: string[]; changed: boolean };
  state(workspace: string, target: HookTarget): AgentConnectionState;
  /** Evidence the agent is used here or on this machine (a config folder, a binary on PATH): null when none. */
  detect(workspace: string, env: NodeJS.ProcessEnv, home: string): string | null;
  /**
   * Files the agent also reads hooks from that Connect does not write (Claude Code's shared
   * `.claude/settings.json`): where the CLI also looks for the store a workspace records into.
   */
  alsoReads?(workspace: string): string[];
  /** Other agents that read this connector's files (VS Code and Cursor read `.claude/settings*.json`): one entry serves them. */
  alsoServes?: AgentId[];
  /**
   * Whether this connector's own file holds our hooks, for one whose agent is otherwise recorded through a
   * serving agent's file (VS Code's: through Claude Code's settings file, which it also runs).
   */
  ownFileHasHooks?(workspace: string): boolean;
}

/** A connector as its module writes it; the registry adds the agent's id and name (spelled once, in its adapter). */
export type ConnectorParts = Omit<AgentConnector, 'agent' | 'displayName'>;

/** What a connector module is given: the agent's name (for its notes) and the connectors of the agents its adapter's `servedBy` names. */
export interface ConnectorContext {
  displayName: string;
  /** The connector of another agent, by id (an agent whose Connect depends on another's file). */
  connectorOf(agent: AgentId): AgentConnector;
}
