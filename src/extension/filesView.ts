// The Files view: checkpoints newest first; under each, the files its span changed with +/-
// counts; a file opens the native diff between its states at both ends of the span.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointKind } from '../core/records';
import type { SpanChange } from '../core/timeline';
import { CMD } from './commandIds';
import { oneLine } from '../shared/text';
import { relativeTime } from './relativeTime';
import type { CheckpointNode, TimelineModel } from './timelineModel';

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

export function checkpointLabel(n: CheckpointNode): string {
  const c = n.checkpoint;
  if (c.kind === 'before-tool') return `Before ${oneLine(c.label, 70)}`;
  return oneLine(c.label || KIND_NAMES[c.kind], 80);
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
      return this.model.checkpoints.map((node) => this.remember(node.checkpoint.id, { kind: 'checkpoint', node }));
    }
    if (el.kind === 'file') return [];
    return this.model
      .spanFiles(el.node.checkpoint.id)
      .map((change) =>
        this.remember(`${el.node.checkpoint.id}/${change.path}`, { kind: 'file', checkpointId: el.node.checkpoint.id, change }),
      );
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
    return el.kind === 'file' ? this.checkpointElement(el.checkpointId) : undefined;
  }

  getTreeItem(el: FilesElement): vscode.TreeItem {
    if (el.kind === 'checkpoint') {
      const { node } = el;
      const c = node.checkpoint;
      const item = new vscode.TreeItem(
        checkpointLabel(node),
        node.fileCount > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.id = c.id;
      const files = node.fileCount === 1 ? '1 file' : `${node.fileCount} files`;
      item.description = `${relativeTime(c.time)}${node.fileCount ? ` · ${files}` : ''}`;
      const [icon, color] = ICONS[c.kind] ?? ['circle-outline'];
      item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
      item.contextValue = `agentRewind.checkpoint.${c.kind}${node.isLastRewind ? '.lastRewind' : ''}`;
      const tip = new vscode.MarkdownString();
      tip.appendMarkdown(`**${KIND_NAMES[c.kind]}** · ${new Date(c.time).toLocaleString()}\n\n`);
      tip.appendText(c.label.slice(0, 1000));
      tip.appendMarkdown(`\n\n${node.fileCount ? `${files} changed after this point` : 'No files changed after this point'}`);
      if (c.session) tip.appendMarkdown(` · session \`${c.session.slice(0, 8)}\``);
      item.tooltip = tip;
      item.accessibilityInformation = {
        label: `${checkpointLabel(node)}, ${KIND_NAMES[c.kind].toLowerCase()}, ${relativeTime(c.time)}, ${files} changed after it`,
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
