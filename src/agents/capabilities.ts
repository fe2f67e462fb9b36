// What Agent Rewind can do with each agent's conversation, in one table the UI reads: its name and
// icon, whether we read its own transcript (prompts and tool calls) or show our session log instead,
// and whether a fork of its conversation can be resumed — with the reason, in words, when not.
// Files are rewindable for every agent; only the conversation differs.
import { claudeForker } from './claude/forkTranscript';
import { readTimeline, TranscriptFollower, type TranscriptTimeline } from './claude/transcriptTimeline';
import { codexConversation } from './codex/conversation';
import { geminiConversation } from './gemini/conversation';
import { opencodeConversation } from './opencode/conversation';
import { qwenConversation } from './qwen/conversation';
import type { EffectOverride } from '../core/storeFiles/config';
import { ENGLISH, type Localizer } from '../shared/l10n';
import type { AgentId } from './connector';
import type { TranscriptForker } from '../recording/forkConversation';

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

/** Every agent's row, its sentences in `l10n`'s language (the CLI: English; the extension: `vscode.l10n`). */
function capabilityTable(l10n: Localizer): Record<AgentId, AgentCapabilities> {
  return {
    claude: {
      agent: 'claude',
      displayName: 'Claude Code',
      icon: 'sparkle',
      transcriptReadable: true,
      conversationUnavailable: null,
      install: 'npm install -g @anthropic-ai/claude-code',
    },
    vscode: {
      agent: 'vscode',
      displayName: 'VS Code agent mode',
      icon: 'vscode',
      transcriptReadable: false,
      conversationUnavailable: l10n.t(
        'VS Code keeps Copilot Chat sessions in its own storage, which no other program can fork or resume; use the chat\'s own "Restore Checkpoint" for the conversation',
      ),
    },
    copilot: {
      agent: 'copilot',
      displayName: 'Copilot CLI',
      icon: 'copilot',
      transcriptReadable: false,
      conversationUnavailable: l10n.t(
        "Copilot CLI's session state is its own private format; use /rewind or /fork in Copilot CLI for the conversation",
      ),
    },
    codex: {
      agent: 'codex',
      displayName: 'Codex CLI',
      icon: 'terminal',
      transcriptReadable: true,
      conversationUnavailable: null,
      install: 'npm install -g @openai/codex',
    },
    gemini: {
      agent: 'gemini',
      displayName: 'Gemini CLI',
      icon: 'star-full',
      transcriptReadable: true,
      conversationUnavailable: null,
      install: 'npm install -g @google/gemini-cli',
    },
    cursor: {
      agent: 'cursor',
      displayName: 'Cursor',
      icon: 'inspect',
      transcriptReadable: false,
      conversationUnavailable: l10n.t('Cursor keeps its chats in its own database, not in a file another program can fork or resume'),
    },
    cline: {
      agent: 'cline',
      displayName: 'Cline',
      icon: 'robot',
      transcriptReadable: false,
      conversationUnavailable: l10n.t(
        "Cline keeps its task history in its own storage, which no other program can fork or resume; use Cline's own checkpoints for the conversation",
      ),
    },
    opencode: {
      agent: 'opencode',
      displayName: 'OpenCode',
      icon: 'code',
      transcriptReadable: true,
      conversationUnavailable: null,
      install: 'npm install -g opencode-ai',
    },
    qwen: {
      agent: 'qwen',
      displayName: 'Qwen Code',
      icon: 'hubot',
      transcriptReadable: true,
      conversationUnavailable: null,
      install: 'npm install -g @qwen-code/qwen-code',
    },
    // Not forked yet (issue 29's compat tier ran the real client, Droid 0.225.2): files only, with where
    // the conversation lives and the agent's own command for it.
    droid: {
      agent: 'droid',
      displayName: 'Factory Droid',
      icon: 'rocket',
      transcriptReadable: false,
      conversationUnavailable: l10n.t(
        'Droid keeps each session as a file under ~/.factory/sessions/, which Agent Rewind does not fork yet; use droid exec --fork <id> for the conversation',
      ),
    },
    auggie: {
      agent: 'auggie',
      displayName: 'Auggie',
      icon: 'sparkle-filled',
      transcriptReadable: false,
      conversationUnavailable: l10n.t(
        'Auggie runs only signed in to Augment, whose service keeps the conversation; no other program can fork or resume it',
      ),
    },
    windsurf: {
      agent: 'windsurf',
      displayName: 'Windsurf',
      icon: 'symbol-event',
      transcriptReadable: false,
      conversationUnavailable: l10n.t(
        "Windsurf keeps Cascade conversations in its own storage, which no other program can fork or resume; use Cascade's own checkpoints for the conversation",
      ),
    },
    kiro: {
      agent: 'kiro',
      displayName: 'Kiro',
      icon: 'symbol-misc',
      transcriptReadable: false,
      conversationUnavailable: l10n.t(
        "Kiro keeps its chats in its own storage and its hooks name no session, which no other program can fork or resume; use Kiro's own checkpoints for the conversation",
      ),
    },
  };
}

/** The row for `agent`; an agent we have no adapter for gets a plain one (files only). */
export function agentCapabilities(agent: string, l10n: Localizer = ENGLISH): AgentCapabilities {
  return (
    capabilityTable(l10n)[agent as AgentId] ?? {
      agent,
      displayName: agent || l10n.t('Unknown agent'),
      icon: 'hubot',
      transcriptReadable: false,
      conversationUnavailable: l10n.t("Agent Rewind has no adapter that can fork this agent's conversation"),
    }
  );
}

/** "Conversation rewind is not available for Cursor: …" in `l10n`'s language, or null when it is. */
export function conversationUnavailableText(agent: string, l10n: Localizer = ENGLISH): string | null {
  const c = agentCapabilities(agent, l10n);
  return c.conversationUnavailable
    ? l10n.t('Conversation rewind is not available for {0}: {1}.', c.displayName, c.conversationUnavailable)
    : null;
}

/** The transcript forker of each agent whose fork can be resumed (proven with the real clients by test/compat). */
export const TRANSCRIPT_FORKERS: Partial<Record<AgentId, TranscriptForker>> = {
  claude: claudeForker,
  codex: codexConversation.forker,
  gemini: geminiConversation.forker,
  qwen: qwenConversation.forker,
  opencode: opencodeConversation.forker,
};

/**
 * Agents whose hooks name no transcript file (OpenCode keeps its sessions in a database): the
 * transcript of a session is made on demand into `intoDir` (an export), then read and forked like any other.
 */
export const TRANSCRIPT_FINDERS: Partial<Record<AgentId, (session: string, cwd: string | undefined, intoDir: string) => Promise<string>>> =
  {
    opencode: opencodeConversation.findAsync,
  };

/** The agents whose transcript is told apart by content; a file none of them claims is read as Claude's. */
export const TRANSCRIPT_READERS = [codexConversation, geminiConversation, qwenConversation, opencodeConversation] as const;

/** Which agent's reader and forker a transcript file needs (by content; Claude's otherwise). */
export function conversationOf(file: string): {
  read: typeof readTimeline;
  forker: TranscriptForker;
  follow(file: string): TimelineFollower;
} {
  const other = TRANSCRIPT_READERS.find((c) => c.detect(file));
  return other ?? { read: readTimeline, forker: claudeForker, follow: (f: string) => new TranscriptFollower(f) };
}

/** A transcript's prompts and tool calls, in whichever agent's format it is (told apart by content; Claude's otherwise). */
export function readAnyTimeline(file: string, overrides: readonly EffectOverride[] = []): TranscriptTimeline {
  return conversationOf(file).read(file, overrides);
}

/** What a follower of a transcript gives: the timeline now, parsing only what was appended since the last call. */
export interface TimelineFollower {
  timeline(overrides?: readonly EffectOverride[]): TranscriptTimeline;
  readonly lastRead: 'full' | 'tail';
}

/**
 * A transcript followed as it grows, in whichever agent's format it is: each read parses only the
 * lines appended since the last (the JSONL formats are append-only; an OpenCode export is rewritten
 * whole); a file rewritten, shrunk or replaced is read whole.
 */
export function followAnyTimeline(file: string): TimelineFollower {
  return conversationOf(file).follow(file);
}
