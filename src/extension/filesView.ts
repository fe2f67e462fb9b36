// The Files view: checkpoints newest first; under each, the files its span changed with +/-
// counts; a file opens the native diff between its states at both ends of the span.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointKind } from '../core/records';
import type { SpanChange } from '../core/timeline';
import { CMD } from './commandIds';
import { oneLine } from '../shared/text';
import { relativeTime } from './relativeTime';
import { type CheckpointNode, describeSummary, type TimelineModel } from './timelineModel';

export type FilesElement = { kind: 'checkpoint'; node: CheckpointNode } | { kind: 'file'; checkpointId: string; change: SpanChange };

const ICONS: Record<CheckpointKind, [string, string?]> = {
  prompt: ['comment'],
  'session-start': ['debug-start'],
  'before-tool': ['warning', 'editorWarning.foreground'],
  manual: ['bookmark'],
  rewind: ['history', 'charts.blue'],
};

const KIND_NAMES: Record<CheckpointKind, string> = {
  prompt: 'Prompt',
  'session-start': 'Session start',
  'before-tool': 'Before a command that cannot be undone',
  manual: 'Manual checkpoint',
  rewind: 'Before a rewind',
};

/** The kind in words, for tooltips and quick picks. */
export function kindName(kind: CheckpointKind): string {
  return KIND_NAMES[kind] ?? kind;
}

/** Short enough for the default sidebar width; the whole label is in the tooltip. */
export function checkpointLabel(n: CheckpointNode, width = 30): string {
  const c = n.checkpoint;
  if (c.kind === 'before-tool') return `Before ${oneLine(n.label, width - 7)}`;
  return oneLine(n.label || KIND_NAMES[c.kind], width);
}

export class FilesView implements vscode.TreeDataProvider<FilesElement> {
  private readonly emitter = new vscode.EventEmitter<FilesElement | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly byId = new Map<string, FilesElement>();

  constructor(private readonly model: TimelineModel) {
    model.onDidChange(() => {
      this.byId.clear();
      this.emitter.fire(undefined);
    });
  }

  getChildren(el?: FilesElement): FilesElement[] {
    if (!el) {
      return this.model.turns.map((t) => this.remember(t.node.checkpoint.id, { kind: 'checkpoint', node: t.node }));
    }
    if (el.kind === 'file') return [];
    const id = el.node.checkpoint.id;
    const turn = this.model.turnOf(id);
    // A prompt's row holds its turn: the checkpoints inside it, what the turn edited, and the session start before it.
    const files = (turn ? this.model.turnFiles(id) : this.model.spanFiles(id)).map((change) =>
      this.remember(`${id}/${change.path}`, { kind: 'file', checkpointId: id, change }),
    );
    const inside = (turn?.inside ?? []).map((node) => this.remember(node.checkpoint.id, { kind: 'checkpoint', node }));
    const start = turn?.sessionStart
      ? [this.remember(turn.sessionStart.checkpoint.id, { kind: 'checkpoint', node: turn.sessionStart })]
      : [];
    return [...inside, ...files, ...start];
  }

  private hasChildren(node: CheckpointNode): boolean {
    const turn = this.model.turnOf(node.checkpoint.id);
    if (!turn) return node.fileCount > 0;
    return turn.inside.length > 0 || !!turn.sessionStart || this.model.turnFiles(node.checkpoint.id).length > 0;
  }

  private remember(id: string, el: FilesElement): FilesElement {
    const known = this.byId.get(id);
    if (known && known.kind === el.kind) {
      Object.assign(known, el);
      return known;
    }
    this.byId.set(id, el);
    return el;
  }

  /** The element of a checkpoint, for reveal(). */
  checkpointElement(id: string): FilesElement | undefined {
    const node = this.model.find(id);
    return node ? this.remember(id, { kind: 'checkpoint', node }) : undefined;
  }

  getParent(el: FilesElement): FilesElement | undefined {
    if (el.kind === 'file') return this.checkpointElement(el.checkpointId);
    const parent = this.model.parentTurn(el.node.checkpoint.id);
    return parent ? this.checkpointElement(parent.node.checkpoint.id) : undefined;
  }

  getTreeItem(el: FilesElement): vscode.TreeItem {
    if (el.kind === 'checkpoint') {
      const { node } = el;
      const c = node.checkpoint;
      const item = new vscode.TreeItem(
        checkpointLabel(node),
        this.hasChildren(node) ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.id = c.id;
      // One count everywhere: what a rewind to this point would change (the preview says the same).
      const sum = this.model.rewindSummary(c.id);
      const turn = this.model.turnOf(c.id);
      const edited = turn ? this.model.turnFiles(c.id).length : node.fileCount;
      const count = sum.total ? `${sum.total} file${sum.total === 1 ? '' : 's'} to rewind` : 'nothing to rewind';
      // The count first: at the default sidebar width it is what stays visible after the label.
      item.description = `${count} · ${relativeTime(c.time)}`;
      const [icon, color] = ICONS[c.kind] ?? ['circle-outline'];
      // A row a rewind would not change is de-emphasised: its icon is greyed.
      item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(sum.total === 0 ? 'disabledForeground' : (color ?? 'foreground')));
      item.contextValue = `agentRewind.checkpoint.${c.kind}${node.isLastRewind ? '.lastRewind' : ''}`;
      const tip = new vscode.MarkdownString();
      tip.appendMarkdown(`**${KIND_NAMES[c.kind]}** · ${new Date(c.time).toLocaleString()}\n\n`);
      tip.appendText(node.label.slice(0, 1000));
      tip.appendMarkdown(`\n\n${describeSummary(sum)}.`);
      if (edited)
        tip.appendMarkdown(
          `\n\n${turn && c.kind === 'prompt' ? 'This turn' : 'After this point, until the next checkpoint, the agent'} edited ${edited} file${edited === 1 ? '' : 's'}.`,
        );
      if (turn?.sessionStart)
        tip.appendMarkdown('\n\n').appendText(`${oneLine(turn.sessionStart.label || 'Session started', 80)} just before this prompt.`);
      // Agent-provided strings (labels, session ids) go in as text: never markdown, links or command URIs.
      if (c.session) tip.appendMarkdown('\n\n').appendText(`Session ${c.session.slice(0, 8)}`);
      item.tooltip = tip;
      item.accessibilityInformation = {
        label: `${checkpointLabel(node, 200)}, ${KIND_NAMES[c.kind].toLowerCase()}, ${relativeTime(c.time)}, ${count}`,
      };
      return item;
    }
    const { change } = el;
    const s = this.model.stats(change);
    const rel = this.model.relative(change.path);
    const item = new vscode.TreeItem(path.basename(change.path), vscode.TreeItemCollapsibleState.None);
    item.id = `${el.checkpointId}/${change.path}`;
    item.resourceUri = vscode.Uri.file(change.path);
    const dir = path.dirname(rel);
    const what =
      change.to.hash === null && !change.to.skipped
        ? 'deleted'
        : !change.from || (change.from.hash === null && !change.from.skipped)
          ? 'created'
          : s.binary
            ? 'binary'
            : `+${s.insertions} −${s.deletions}`;
    item.description = `${dir === '.' ? '' : dir + ' · '}${what}`;
    item.contextValue = 'agentRewind.file';
    item.tooltip = new vscode.MarkdownString().appendText(`${change.path}\n${what}`);
    item.command = { command: CMD.openFileDiff, title: 'Open Changes', arguments: [el] };
    return item;
  }
}
