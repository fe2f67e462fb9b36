// The conversation side of a rewind: describe the fork for the preview, make it (with lineage, so
// the resumed agent is re-grounded), and offer to resume it in a terminal in the session's folder.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentCapabilities, conversationUnavailableText, transcriptForker } from '../../agents/capabilities';
import { forkConversationAsync, type ForkResult } from '../../recording/forkConversation';
import { computeChanges } from '../../core/timeline/changeSet';
import type { Store } from '../../core/store';
import { checkpoints } from '../../core/timeline/timeline';
import { findOnPath } from '../connect/claudeConnection';
import type { PreviewModel } from '../../shared/messages';
import type { ConvPrompt, ConvSession } from '../model/conversationModel';
import { oneLine } from '../../shared/text';
import type { TimelineModel } from '../model/timelineModel';

export interface ConversationTarget {
  session: ConvSession;
  prompt: ConvPrompt;
}

/** The conversation side of a rewind (fork), supplied by the conversation feature. */
export interface ConversationRewinder {
  describe(t: ConversationTarget): PreviewModel['conversation'] | { unavailable: string };
  fork(t: ConversationTarget, filesRewound: boolean): Promise<void>;
}

export interface ResumeOffer {
  /** The agent of the forked session: it names the terminal and says what to install. */
  agent: string;
  fork: ForkResult;
  cwd: string | undefined;
  command: string;
  /** The agent's executable as the terminal would find it, or undefined when it is not on the terminal's PATH. */
  resolved: string | undefined;
  /** What the notification said and the buttons it offered (a warning without "Resume in Terminal" when unresolved). */
  notice: { text: string; actions: string[] };
}

/** The PATH a new integrated terminal gets: `terminal.integrated.env.<os>`'s PATH (with `${env:PATH}`), else ours. */
export function terminalPath(configured: string | undefined, inherited: string | undefined = process.env.PATH): string | undefined {
  if (typeof configured !== 'string') return inherited;
  return configured.replace(/\$\{env:PATH\}/g, inherited ?? '');
}

function terminalPathNow(): string | undefined {
  const os = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux';
  const env = vscode.workspace.getConfiguration('terminal.integrated').get<Record<string, string>>(`env.${os}`);
  return terminalPath(env?.PATH);
}

function resolveInTerminal(command: string, searched: string | undefined): string | undefined {
  const exe = command.trim().split(/\s+/)[0] ?? '';
  if (path.isAbsolute(exe)) return findOnPath([path.basename(exe)], path.dirname(exe));
  return findOnPath(process.platform === 'win32' ? [`${exe}.cmd`, `${exe}.exe`, exe] : [exe], searched);
}

/** "<agent> (npm install -g <package>)": what the warning tells the user to install. */
function installWords(agent: string): string {
  const c = agentCapabilities(agent, vscode.l10n);
  return c.install ? `${c.displayName} (${c.install})` : c.displayName;
}

export class ClaudeConversationRewinder implements ConversationRewinder {
  /** The last fork made, and the terminal command offered for it (tests read it). */
  lastResume: ResumeOffer | undefined;

  constructor(
    private readonly store: Store,
    private readonly model: TimelineModel,
    private readonly onForked: () => void,
    private readonly output?: vscode.LogOutputChannel,
  ) {}

  describe(t: ConversationTarget): ReturnType<ConversationRewinder['describe']> {
    const { session, prompt } = t;
    const notForAgent = conversationUnavailableText(session.agent, vscode.l10n);
    if (notForAgent) return { unavailable: vscode.l10n.t('{0} Files can still be rewound.', notForAgent) };
    if (!session.transcript || !prompt.uuid)
      return {
        unavailable: vscode.l10n.t(
          'This session has no {0} transcript Agent Rewind can read, so its conversation cannot be forked.',
          agentCapabilities(session.agent).displayName,
        ),
      };
    const index = session.prompts.indexOf(prompt);
    if (index <= 0)
      return {
        unavailable: vscode.l10n.t(
          'This is the first prompt of the session: a conversation cut before it would be empty. Start a new session instead.',
        ),
      };
    // Files changed after the prompt that a conversation-only rewind leaves as they are.
    let filesKeepingEdits: string[] = [];
    const cp = prompt.checkpointId ? checkpoints(this.model.all).find((c) => c.id === prompt.checkpointId) : undefined;
    if (cp) filesKeepingEdits = computeChanges(this.model.all, cp).changes.map((c) => this.model.relative(c.path));
    return {
      promptText: prompt.text,
      promptTime: new Date(prompt.time).toISOString(),
      kept: index,
      dropped: session.prompts.length - index,
      session: session.id,
      filesKeepingEdits,
    };
  }

  async fork(t: ConversationTarget, filesRewound: boolean): Promise<void> {
    if (!t.session.transcript || !t.prompt.uuid) throw new Error(vscode.l10n.t('This session has no transcript to fork.'));
    const forker = transcriptForker(t.session.agent);
    if (!forker)
      throw new Error(conversationUnavailableText(t.session.agent, vscode.l10n) ?? vscode.l10n.t('This agent has no transcript forker.'));
    // Without blocking the host where the forker runs the agent's own CLI (OpenCode's import).
    const fork = await forkConversationAsync(this.store, { transcript: t.session.transcript }, t.prompt.uuid, forker);
    const cwd = t.session.cwd ?? fork.lineage.cwd;
    const command = fork.resume ?? `claude --resume ${fork.session}`;
    const searched = terminalPathNow();
    const resolved = resolveInTerminal(command, searched);
    // The log keeps what the notification says only for a while: which session was forked where, and how to resume it.
    this.output?.info(
      `Conversation fork of session ${t.session.id} before "${oneLine(t.prompt.text, 80)}": new session ${fork.session}, transcript ${fork.transcript}${filesRewound ? ', files rewound too' : ''}. Resume: ${command}${cwd ? ` (in ${cwd})` : ''}`,
    );
    this.onForked();
    const what = filesRewound
      ? vscode.l10n.t('Files and conversation rewound')
      : vscode.l10n.t('Conversation rewound; your files are unchanged');
    const copyCommand = vscode.l10n.t('Copy Command');
    if (!resolved) {
      // A terminal would only print "command not found": say where we looked and what to run instead.
      const exe = command.trim().split(/\s+/)[0];
      this.output?.warn(`\`${exe}\` is not on the terminal's PATH: ${searched || '(empty)'}`);
      const notice = {
        text: vscode.l10n.t(
          '{0}: a new session starts before "{1}". To resume it, `{2}` must be installed: it is not on the terminal\'s PATH (the Agent Rewind output lists where it was looked for). Install {3}, then run: {4}',
          what,
          oneLine(t.prompt.text, 50),
          exe ?? '',
          installWords(t.session.agent),
          command,
        ),
        actions: [copyCommand],
      };
      this.lastResume = { agent: t.session.agent, fork, cwd, command, resolved, notice };
      void vscode.window.showWarningMessage(notice.text, ...notice.actions).then((pick) => {
        if (pick) void vscode.env.clipboard.writeText(command);
      });
      return;
    }
    const resumeInTerminal = vscode.l10n.t('Resume in Terminal');
    const notice = {
      text: vscode.l10n.t(
        '{0}: a new session starts before "{1}". Resume it to continue from there; the agent is told what changed.',
        what,
        oneLine(t.prompt.text, 50),
      ),
      actions: [resumeInTerminal, copyCommand],
    };
    this.lastResume = { agent: t.session.agent, fork, cwd, command, resolved, notice };
    // Not awaited: the notification stays while the user decides; the rewind itself is done.
    void vscode.window.showInformationMessage(notice.text, ...notice.actions).then((pick) => {
      if (pick === resumeInTerminal) this.openTerminal();
      else if (pick === copyCommand) void vscode.env.clipboard.writeText(command);
    });
  }

  /** Opens a terminal in the session's folder running the resume command. */
  openTerminal(offer = this.lastResume): vscode.Terminal | undefined {
    if (!offer) return undefined;
    const name = `${agentCapabilities(offer.agent).displayName} (rewound)`;
    const term = vscode.window.createTerminal({ name, ...(offer.cwd ? { cwd: offer.cwd } : {}) });
    term.show();
    term.sendText(offer.command, true);
    return term;
  }
}
