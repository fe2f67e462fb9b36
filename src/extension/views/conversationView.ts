// The Conversation view: agent sessions (forks under their parent) -> user prompts -> tool calls,
// an icon per effect class so irreversible calls stand out; under each recorded step (tool call),
// the files that call itself changed, each opening a diff of just that step.
import * as vscode from 'vscode';
import type { SpanChange } from '../../core/timeline/timeline';
import { agentInfo } from './agentInfo';
import { CMD } from '../commandIds';
import type { ConvPrompt, ConvSession, ConvTool } from '../model/conversationModel';
import { countWords } from '../../shared/l10n';
import { oneLine, treeLabel } from '../../shared/text';
import { promptWords } from '../../core/timeline/presentation';
import { relativeTime } from './relativeTime';
import { RowCounts, type RowStats } from './rowStats';
import type { StepIndex } from '../model/stepIndex';
import { whenSlow } from '../timers';
import { describeRow, fileRowItem, textTip } from './rowTip';

export type ConvElement = SessionNode | PromptNode | ToolNode | StepFileNode;

/** What a row needs of its view to draw itself. */
interface ConvContext {
  readonly relative: (p: string) => string;
  readonly steps?: StepSource | undefined;
  readonly counts: RowCounts<ConvElement> | undefined;
}

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

/** A call's effect in words, for its tooltip (an unknown effect: undefined). */
function effectWords(effect: string): string | undefined {
  if (effect === 'irreversible') return vscode.l10n.t('cannot be undone');
  if (effect === 'compensatable') return vscode.l10n.t('can be compensated');
  if (effect === 'rewindable') return vscode.l10n.t('rewindable');
  if (effect === 'none') return vscode.l10n.t('read-only');
  return undefined;
}

/** The tag a call's row leads with: only the calls a rewind cannot undo have one. */
function rowTag(effect: string): string | undefined {
  if (effect === 'irreversible') return vscode.l10n.t('not undoable');
  if (effect === 'compensatable') return vscode.l10n.t('compensatable');
  return undefined;
}

/** Where the view's sessions come from: `prepare` reads what changed (off the host), `build` makes the sessions of it. */
export interface SessionSource {
  prepare(): Promise<void>;
  build(): ConvSession[];
}

export class ConversationView implements vscode.TreeDataProvider<ConvElement>, vscode.Disposable, ConvContext {
  private readonly emitter = new vscode.EventEmitter<ConvElement | ConvElement[] | undefined>();
  /** Step file rows and their counts (drawn again when the counts are in). */
  readonly counts: RowCounts<ConvElement> | undefined;
  private readonly disposables: vscode.Disposable[] = [this.emitter];
  readonly onDidChangeTreeData = this.emitter.event;
  private sessions: ConvSession[] = [];
  /** Refreshes asked for and done (a refresh asked for while one runs is done after it, once). */
  private asked = 0;
  private done = 0;
  private running: Promise<void> | undefined;

  constructor(
    private readonly source: SessionSource,
    onChange: vscode.Event<void>,
    readonly relative: (p: string) => string = (p) => p,
    readonly steps?: StepSource,
    /** Shown while a refresh takes long (the view's progress bar). */
    private readonly slow?: (work: Promise<void>) => void,
  ) {
    // What the hooks recorded, at once; the transcripts follow.
    this.sessions = source.build();
    void this.refresh();
    this.disposables.push(onChange(() => void this.refresh()));
    this.counts = steps && new RowCounts(steps.stats, (rows) => this.emitter.fire(rows));
    if (this.counts) this.disposables.push(this.counts);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  /** Reads what changed and shows it; resolves when the view shows everything asked for until now. */
  refresh(): Promise<void> {
    this.asked++;
    if (!this.running) {
      this.running = this.drain().finally(() => (this.running = undefined));
      const work = this.running;
      whenSlow(work, 300, () => this.slow?.(work));
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
    if (!el) return this.sessions.map((session) => new SessionNode(session));
    if (el.kind === 'session') {
      // Newest first, as the Files view lists its rows (a prompt's calls stay in the order they ran, as a turn's steps there).
      const prompts = el.session.prompts.map((prompt, index) => new PromptNode(el.session, prompt, index)).reverse();
      return [...prompts, ...el.session.forks.map((session) => new SessionNode(session))];
    }
    if (el.kind === 'prompt') return el.prompt.tools.map((tool, index) => new ToolNode(el.prompt, tool, index));
    if (el.kind === 'tool' && el.tool.id && this.steps) {
      const callId = el.tool.id;
      return this.steps.index.changes(callId).map((change) => new StepFileNode(el.prompt, el.tool, callId, change));
    }
    return [];
  }

  getTreeItem(el: ConvElement): vscode.TreeItem {
    return el.item(this);
  }
}

/** An agent session (a fork: under its parent). */
export class SessionNode {
  readonly kind = 'session';
  constructor(public session: ConvSession) {}

  item(): vscode.TreeItem {
    const s = this.session;
    const agent = agentInfo(s.agent);
    // The agent leads the label: at the default sidebar width the description is cut off first.
    const item = new vscode.TreeItem(treeLabel(`${agent.name} · ${s.title}`), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `session:${s.id}`;
    const filesOnly = agent.conversationUnavailable !== null;
    item.description = [filesOnly ? vscode.l10n.t('files only') : '', relativeTime(s.time), s.parent ? vscode.l10n.t('fork') : '']
      .filter(Boolean)
      .join(' · ');
    item.iconPath = s.parent ? new vscode.ThemeIcon('repo-forked') : agent.icon;
    item.contextValue = `agentRewind.session${s.transcript ? '.transcript' : ''}${filesOnly ? '.filesOnly' : ''}`;
    return describeRow(
      item,
      textTip(
        `${vscode.l10n.t('{0} session {1}', agent.name, s.id)}\n${promptWords(s.prompts.length, vscode.l10n)}${s.cwd ? `\n${s.cwd}` : ''}`,
        agent.conversationUnavailable && vscode.l10n.t('{0} Files can still be rewound.', agent.conversationUnavailable),
      ),
      filesOnly
        ? vscode.l10n.t('{0} session: {1}, files only', agent.name, oneLine(s.title, 60))
        : vscode.l10n.t('{0} session: {1}', agent.name, oneLine(s.title, 60)),
    );
  }
}

/** A user prompt; its tool calls are its children. */
export class PromptNode {
  readonly kind = 'prompt';
  constructor(
    public session: ConvSession,
    public prompt: ConvPrompt,
    public index: number,
  ) {}

  item(): vscode.TreeItem {
    const p = this.prompt;
    const risky = p.tools.filter((t) => t.effect === 'irreversible' || t.effect === 'compensatable').length;
    const item = new vscode.TreeItem(
      treeLabel(p.text) || vscode.l10n.t('(empty prompt)'),
      p.tools.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `prompt:${this.session.id}:${p.key}`;
    const calls = p.tools.length;
    item.description = [
      relativeTime(p.time),
      calls ? countWords(calls, vscode.l10n.t('1 tool call'), vscode.l10n.t('{0} tool calls', calls)) : '',
      risky ? vscode.l10n.t('{0} not undoable', risky) : '',
    ]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon(risky ? 'comment-unresolved' : 'comment');
    item.contextValue = `agentRewind.prompt${p.checkpointId ? '.hasCheckpoint' : ''}${p.forkable ? '.forkable' : ''}`;
    const unavailable = agentInfo(this.session.agent).conversationUnavailable;
    return describeRow(
      item,
      textTip(p.text.slice(0, 2000), unavailable && vscode.l10n.t('{0} Rewind files only to before this prompt.', unavailable)),
    );
  }
}

/** A tool call, an icon per effect class; a recorded call's changed files are its children. */
export class ToolNode {
  readonly kind = 'tool';
  constructor(
    public prompt: ConvPrompt,
    public tool: ConvTool,
    public index: number,
  ) {}

  item(ctx: ConvContext): vscode.TreeItem {
    const t = this.tool;
    // File tools summarize as an absolute path: show it relative to the workspace.
    const summary = t.summary.startsWith('/') || /^[A-Za-z]:\\/.test(t.summary) ? ctx.relative(t.summary) : t.summary;
    const changed = ctx.steps?.index.changes(t.id).length ?? 0;
    // Ordinary calls carry no tag; the exceptions lead the label, so the tree's cut never hides them.
    const tag = rowTag(t.effect);
    const text = treeLabel(`${tag ? `${tag} · ` : ''}${t.name}: ${summary}`);
    const item = new vscode.TreeItem(
      tag ? { label: text, highlights: [[0, tag.length]] } : text,
      changed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `tool:${this.prompt.key}:${t.id ?? this.index}`;
    // A recorded call that cannot be undone had a checkpoint taken just before it (DESIGN §4).
    const recorded = ctx.steps?.index.recorded(t.id) ?? false;
    if (tag && recorded) item.description = vscode.l10n.t('checkpoint before this call');
    item.iconPath = toolIcon(t);
    // `.recorded`: the store holds this call, so a rewind to just before it can be planned.
    item.contextValue = `agentRewind.tool.${t.effect}${recorded ? '.recorded' : ''}`;
    return describeRow(
      item,
      textTip(
        `${t.name} — ${t.severity === 'low' ? vscode.l10n.t('{0} (unknown command)', String(effectWords(t.effect))) : effectWords(t.effect)}\n${t.summary.slice(0, 2000)}`,
      ),
    );
  }
}

/** A file one recorded call changed; it opens the diff of just that step. */
export class StepFileNode {
  readonly kind = 'stepFile';
  constructor(
    public prompt: ConvPrompt,
    public tool: ConvTool,
    public callId: string,
    public change: SpanChange,
  ) {}

  item(ctx: ConvContext): vscode.TreeItem {
    const c = this.change;
    const what = ctx.counts?.words(this, c) ?? '';
    const item = fileRowItem(c.path, ctx.relative(c.path), what, vscode.l10n.t('{0} in this step ({1})', what, this.tool.name));
    item.id = `step:${this.prompt.key}:${this.callId}:${c.path}`;
    item.contextValue = 'agentRewind.stepFile';
    item.command = { command: CMD.openStepFileDiff, title: vscode.l10n.t('Open Changes of This Step'), arguments: [this] };
    return item;
  }
}
