// What an agent is to Agent Rewind, in one contract: who it is (id, name, icon, the other names users give
// it), which other agents' hook files it also runs, how its hook payloads become events, how Connect writes
// its hook, and what can be done with its conversation — or, when nothing can, the sentence that says why.
// Each `src/agents/<id>/index.ts` exports exactly one AgentAdapter; `registry.ts` lists them.
//
// Only the identity is read eagerly: the payload parser, the connector and the conversation are loaded
// when first asked for (`require` inside the function), so the hook path — which needs one parser — loads
// no connector and no transcript code (the hook bundle leaves them out: scripts/build.mjs).
import type { EffectOverride } from '../core/storeFiles/config';
import type { AdapterResult } from '../recording/events';
import type { TranscriptForker } from '../recording/forkConversation';
import type { Localizer } from '../shared/l10n';
import type { HookContext } from './common/payload';
import type { TimelineFollower, TranscriptTimeline } from './common/timeline';
import type { AgentId, ConnectorContext, ConnectorParts } from './common/connector';

/** One hook payload (stdin text) -> an event, nothing, or why it is bad input. */
export type PayloadParser = (text: string, ctx: HookContext) => AdapterResult;

/**
 * What Agent Rewind does with an agent's own conversation: find its transcript among others, read it as a
 * timeline (whole, or followed as it grows), fork it before a prompt, and the command that resumes the fork.
 */
export interface AgentConversation {
  /** Is this transcript this agent's? (By content: the dispatch among agents' transcripts.) */
  find(file: string): boolean;
  /** Prompts, replies and tool calls, in the one timeline shape (common/timeline.ts). */
  read(file: string, overrides?: readonly EffectOverride[]): TranscriptTimeline;
  /** The same, followed as the file grows: each read parses only the appended lines. */
  follow(file: string): TimelineFollower;
  /** Writes a fork cut before a prompt, which the real client resumes (proven by test/compat). */
  fork: TranscriptForker;
  /** The command that resumes session `session` (a fork's). */
  resume(session: string): string;
  /**
   * For an agent whose hooks name no transcript file (OpenCode keeps sessions in a database): writes the
   * session's transcript into `intoDir` without blocking and gives its path (an export), read like any other.
   */
  exportTranscript?(session: string, cwd: string | undefined, intoDir: string): Promise<string>;
}

export interface AgentAdapterBase {
  /** The `<agent>` of `agent-rewind hook <agent>`, of store records and of Connect. */
  id: AgentId;
  /** "Claude Code", "Gemini CLI"… — the one place each agent's name is spelled. */
  displayName: string;
  /** A codicon id (the views show `$(icon)`). */
  icon: string;
  /** Other names users and the vendors' docs give it: `hook qwen-code` records as `qwen`. */
  aliases?: readonly string[];
  /**
   * The agents whose hook files this one also runs (VS Code runs `.claude/settings*.json`): its payloads can
   * arrive at their `hook <id>` command, so the payload's shape decides (detect.ts), and its Connect can
   * see whether their file already records it (ConnectorContext.connectorOf).
   */
  servedBy?: readonly AgentId[];
  /**
   * The agent is built into a VS Code fork whose `vscode.env.appName` or `uriScheme` this matches ("Cursor",
   * "windsurf"): Connect Agents… offers it first there (hostEditor.ts).
   */
  hostEditor?: RegExp;
  /** Its hook payload parser, loaded when its first payload arrives. */
  parser(): PayloadParser;
  /** Its Connect, loaded when first asked for; none when another agent's connector records it (Copilot CLI: VS Code's `alsoServes` it). */
  connector?(use: ConnectorContext): ConnectorParts;
  /** The name Connect shows when its connector records more than this agent ("VS Code agent mode & Copilot CLI"). */
  connectName?: string;
  /** How to install the command that resumes a fork (or runs the agent), when it is not on the terminal's PATH. */
  install?: string;
}

/** An agent whose conversation can be forked and resumed. */
export interface ConversationAdapter extends AgentAdapterBase {
  conversation(): AgentConversation;
}

/** An agent whose conversation cannot: files only, and the sentence that says why (in `l10n`'s language). */
export interface FilesOnlyAdapter extends AgentAdapterBase {
  conversation?: undefined;
  noConversation(l10n: Localizer): string;
}

export type AgentAdapter = ConversationAdapter | FilesOnlyAdapter;
