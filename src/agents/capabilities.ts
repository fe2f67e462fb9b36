// What Agent Rewind can do with each agent's conversation, in one table the UI reads: its name and
// icon, whether we read its own transcript (prompts and tool calls) or show our session log instead,
// and whether a fork of its conversation can be resumed — with the reason, in words, when not.
// Files are rewindable for every agent; only the conversation differs.
import type { EffectOverride } from '../core/storeFiles/config';
import { ENGLISH, type Localizer } from '../shared/l10n';
import type { AgentId } from './common/connector';
import type { TimelineFollower, TranscriptTimeline } from './common/timeline';
import type { TranscriptForker } from '../recording/forkConversation';
import { registry } from './registry';
import type { AgentConversation } from './adapter';

export interface AgentCapabilities {
  agent: string;
  displayName: string;
  /** A codicon id (the views show `$(icon)`). */
  icon: string;
  /** We read the agent's own transcript; otherwise the Conversation view shows our session log. */
  transcriptReadable: boolean;
  /** null when a fork of the conversation can be resumed; else why not ("… is not available for Cursor: <this>"). */
  conversationUnavailable: string | null;
  /** How to install the command that resumes a fork, when it is not on the terminal's PATH. */
  install?: string;
}

/** The row for `agent`; an agent we have no adapter for gets a plain one (files only). */
export function agentCapabilities(agent: string, l10n: Localizer = ENGLISH): AgentCapabilities {
  const a = registry.get(agent);
  if (!a)
    return {
      agent,
      displayName: agent || l10n.t('Unknown agent'),
      icon: 'hubot',
      transcriptReadable: false,
      conversationUnavailable: l10n.t("Agent Rewind has no adapter that can fork this agent's conversation"),
    };
  return {
    agent: a.id,
    displayName: a.displayName,
    icon: a.icon,
    transcriptReadable: a.conversation !== undefined,
    conversationUnavailable: a.conversation ? null : a.noConversation(l10n),
    ...(a.install ? { install: a.install } : {}),
  };
}

/** "Conversation rewind is not available for Cursor: …" in `l10n`'s language, or null when it is. */
export function conversationUnavailableText(agent: string, l10n: Localizer = ENGLISH): string | null {
  const c = agentCapabilities(agent, l10n);
  return c.conversationUnavailable
    ? l10n.t('Conversation rewind is not available for {0}: {1}.', c.displayName, c.conversationUnavailable)
    : null;
}

/** The transcript forker of `agent`, when its fork can be resumed (proven with the real clients by test/compat). */
export function transcriptForker(agent: AgentId): TranscriptForker | undefined {
  return registry.get(agent)?.conversation?.().fork;
}

/**
 * How to make the transcript of a session whose agent's hooks name none (OpenCode keeps its sessions in a
 * database): an export into `intoDir`, then read and forked like any other; undefined for other agents.
 */
export function transcriptMaker(agent: AgentId): AgentConversation['exportTranscript'] {
  return registry.get(agent)?.conversation?.().exportTranscript;
}

/** A transcript's prompts and tool calls, in whichever agent's format it is (told apart by content; Claude's otherwise). */
export function readAnyTimeline(file: string, overrides: readonly EffectOverride[] = []): TranscriptTimeline {
  return registry.transcriptConversation(file).read(file, overrides);
}

/**
 * A transcript followed as it grows, in whichever agent's format it is: each read parses only the
 * lines appended since the last (the JSONL formats are append-only; an OpenCode export is rewritten
 * whole); a file rewritten, shrunk or replaced is read whole.
 */
export function followAnyTimeline(file: string): TimelineFollower {
  return registry.transcriptConversation(file).follow(file);
}
