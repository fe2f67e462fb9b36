// The Conversation view: agent sessions (forks under their parent) -> user prompts -> tool calls,
// an icon per effect class so irreversible calls stand out; under each recorded step (tool call),
// the files that call itself changed, each opening a diff of just that step.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpanChange } from '../../core/timeline/timeline';
import { agentInfo } from './agentInfo';
import { CMD } from '../commandIds';
import type { ConvPrompt, ConvSession, ConvTool } from '../model/conversationModel';
import { escapeMarkdown, oneLine } from '../../shared/text';
import { relativeTime } from './relativeTime';
import { RowCounts, type RowStats } from './rowStats';
import type { StepIndex } from '../model/stepIndex';

export type ConvElement =
  | { kind: 'session'; session: ConvSession }
  | { kind: 'prompt'; session: ConvSession; prompt: ConvPrompt; index: number }
  | { kind: 'tool'; prompt: ConvPrompt; tool: ConvTool; index: number }
  | { kind: 'stepFile'; prompt: ConvPrompt; tool: ConvTool; callId: string; change: SpanChange };

/** The steps behind the view: what the store recorded of each call, and +/- counts of a change. */
export interface StepSource {
  index: StepIndex;
  stats: RowStats;
}

function toolIcon(t: ConvTool): vscode.ThemeIcon {
  switch (t.effect) {
    case 'irreversible':
      return t.severity === 'low'
        ? new vscode.ThemeIcon('question', new vscode.ThemeColor('editorWarning.foreground'))
        : new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    case 'compensatable':
      return new vscode.ThemeIcon('debug-step-back', new vscode.ThemeColor('editorWarning.foreground'));
    case 'rewindable':
      return new vscode.ThemeIcon('edit');
    default:
      return new vscode.ThemeIcon(
        /^(Bash|PowerShell)$/.test(t.name) ? 'terminal' : /Web/.test(t.name) ? 'globe' : /Todo/.test(t.name) ? 'checklist' : 'search',
      );
  }
}

const EFFECT_WORDS: Record<string, string> = {
  irreversible: 'cannot be undone',
  compensatable: 'can be compensated',
  rewindable: 'rewindable',
  none: 'read-only',
};

/** Where the view's sessions come from: `prepare` reads what changed (off the host), `build` makes the sessions of it. */
export interface SessionSource {
  prepare(): Promise<void>;
  build(): ConvSession[];
}

export class ConversationView implements vscode.TreeDataProvider<ConvElement> {
  private readonly emitter = new vscode.EventEmitter<ConvElement | ConvElement[] | undefined>();
  /** Step file rows and their counts (drawn again when the counts are in). */
  private readonly counts: RowCounts<ConvElement> | undefined;
  readonly onDidChangeTreeData = this.emitter.event;
  private sessions: ConvSession[] = [];
  /** Refreshes asked for and done (a refresh asked for while one runs is done after it, once). */
  private asked = 0;
  private done = 0;
  private running: Promise<void> | undefined;

  constructor(
    private readonly source: SessionSource,
    onChange: vscode.Event<void>,
    private readonly relative: (p: string) => string = (p) => p,
    private readonly steps?: StepSource,
    /** Shown while a refresh takes long (the view's progress bar). */
    private readonly slow?: (work: Promise<void>) => void,
  ) {
    // What the hooks recorded, at once; the transcripts follow.
    this.sessions = source.build();
    void this.refresh();
    onChange(() => void this.refresh());
    this.counts = steps && new RowCounts(steps.stats, (rows) => this.emitter.fire(rows));
  }

  /** Reads what changed and shows it; resolves when the view shows everything asked for until now. */
  refresh(): Promise<void> {
    this.asked++;
    if (!this.running) {
      this.running = this.drain().finally(() => (this.running = undefined));
      const work = this.running;
      setTimeout(() => {
        if (this.running === work) this.slow?.(work);
      }, 300);
    }
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.done < this.asked) {
      const upTo = this.asked;
      try {
        await this.source.prepare();
      } catch {
        // Cancelled (the window is closing), or a store that cannot be read: show what can be built.
      }
      this.sessions = this.source.build();
      this.done = upTo;
      this.emitter.fire(undefined);
    }
  }

  get all(): readonly ConvSession[] {
    return this.sessions;
  }

  getChildren(el?: ConvElement): ConvElement[] {
    if (!el) return this.sessions.map((session) => ({ kind: 'session', session }));
    if (el.kind === 'session') {
      return [
        ...el.session.prompts.map((prompt, index): ConvElement => ({ kind: 'prompt', session: el.session, prompt, index })),
        ...el.session.forks.map((session): ConvElement => ({ kind: 'session', session })),
      ];
    }
    if (el.kind === 'prompt') return el.prompt.tools.map((tool, index) => ({ kind: 'tool', prompt: el.prompt, tool, index }));
    if (el.kind === 'tool' && el.tool.id && this.steps) {
      const callId = el.tool.id;
      return this.steps.index.changes(callId).map((change) => ({ kind: 'stepFile', prompt: el.prompt, tool: el.tool, callId, change }));
    }
    return [];
  }

  getTreeItem(el: ConvElement): vscode.TreeItem {
    switch (el.kind) {
      case 'session': {
        const s = el.session;
        const agent = agentInfo(s.agent);
        // The agent leads the label: at the default sidebar width the description is cut off first.
        const item = new vscode.TreeItem(`${agent.name} · ${oneLine(s.title, 60)}`, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `session:${s.id}`;
        const filesOnly = agent.conversationUnavailable !== null;
        item.description = `${filesOnly ? 'files only · ' : ''}${relativeTime(s.time)}${s.parent ? ' · fork' : ''}`;
        item.iconPath = s.parent ? new vscode.ThemeIcon('repo-forked') : agent.icon;
        item.contextValue = `agentRewind.session${s.transcript ? '.transcript' : ''}${filesOnly ? '.filesOnly' : ''}`;
        const tip = new vscode.MarkdownString();
        tip.appendText(`${agent.name} session ${s.id}\n${s.prompts.length} prompt(s)${s.cwd ? `\n${s.cwd}` : ''}`);
        if (agent.conversationUnavailable)
          tip.appendMarkdown(`\n\n${escapeMarkdown(`${agent.conversationUnavailable} Files can still be rewound.`)}`);
        item.tooltip = tip;
        item.accessibilityInformation = { label: `${agent.name} session: ${oneLine(s.title, 60)}${filesOnly ? ', files only' : ''}` };
        return item;
      }
      case 'prompt': {
        const p = el.prompt;
        const risky = p.tools.filter((t) => t.effect === 'irreversible' || t.effect === 'compensatable').length;
        const item = new vscode.TreeItem(
          oneLine(p.text, 80) || '(empty prompt)',
          p.tools.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        item.id = `prompt:${el.session.id}:${p.key}`;
        item.description = `${relativeTime(p.time)}${p.tools.length ? ` · ${p.tools.length} tool call${p.tools.length > 1 ? 's' : ''}` : ''}${risky ? ` · ${risky} not undoable` : ''}`;
        item.iconPath = new vscode.ThemeIcon(risky ? 'comment-unresolved' : 'comment');
        item.contextValue = `agentRewind.prompt${p.checkpointId ? '.hasCheckpoint' : ''}${p.forkable ? '.forkable' : ''}`;
        const unavailable = agentInfo(el.session.agent).conversationUnavailable;
        item.tooltip = new vscode.MarkdownString().appendText(p.text.slice(0, 2000));
        if (unavailable) item.tooltip.appendMarkdown(`\n\n${escapeMarkdown(`${unavailable} Rewind files only to before this prompt.`)}`);
        return item;
      }
      case 'tool': {
        const t = el.tool;
        // File tools summarize as an absolute path: show it relative to the workspace.
        const summary = t.summary.startsWith('/') || /^[A-Za-z]:\\/.test(t.summary) ? this.relative(t.summary) : t.summary;
        const changed = this.steps?.index.changes(t.id).length ?? 0;
        const item = new vscode.TreeItem(
          `${t.name}: ${oneLine(summary, 70)}`,
          changed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        item.id = `tool:${el.prompt.key}:${t.id ?? el.index}`;
        item.description = t.effect === 'none' ? undefined : EFFECT_WORDS[t.effect];
        item.iconPath = toolIcon(t);
        // `.recorded`: the store holds this call, so a rewind to just before it can be planned.
        item.contextValue = `agentRewind.tool.${t.effect}${this.steps?.index.recorded(t.id) ? '.recorded' : ''}`;
        item.tooltip = new vscode.MarkdownString().appendText(
          `${t.name} — ${EFFECT_WORDS[t.effect]}${t.severity === 'low' ? ' (unknown command)' : ''}\n${t.summary.slice(0, 2000)}`,
        );
        return item;
      }
      case 'stepFile':
        return this.stepFileItem(el);
    }
  }

  private stepFileItem(el: Extract<ConvElement, { kind: 'stepFile' }>): vscode.TreeItem {
    const c = el.change;
    const rel = this.relative(c.path);
    const item = new vscode.TreeItem(path.basename(c.path), vscode.TreeItemCollapsibleState.None);
    item.id = `step:${el.prompt.key}:${el.callId}:${c.path}`;
    item.resourceUri = vscode.Uri.file(c.path);
    const what = this.counts?.words(el, c) ?? '';
    const dir = path.dirname(rel);
    item.description = [dir === '.' ? '' : dir, what].filter(Boolean).join(' · ');
    item.contextValue = 'agentRewind.stepFile';
    item.tooltip = new vscode.MarkdownString().appendText(`${c.path}\n${what} in this step (${el.tool.name})`);
    item.command = { command: CMD.openStepFileDiff, title: 'Open Changes of This Step', arguments: [el] };
    return item;
  }
}
