// The one way a tree row (Files view, Conversation view) gets its tooltip and what a screen reader says:
// agent-provided strings (prompts, labels, paths, session ids) go into the tooltip as text, never markdown,
// links or command URIs; the project's own notes go in as escaped markdown after a blank line.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { escapeMarkdown } from '../../shared/text';

/** A tooltip of `text` as plain text, then each note (already localized) as its own paragraph. */
export function textTip(text: string, ...notes: (string | false | null | undefined)[]): vscode.MarkdownString {
  const tip = new vscode.MarkdownString().appendText(text);
  for (const n of notes) if (n) tip.appendMarkdown(`\n\n${escapeMarkdown(n)}`);
  return tip;
}

/** Sets `item`'s tooltip and, when given, the label a screen reader reads for it. */
export function describeRow(item: vscode.TreeItem, tip: vscode.MarkdownString, a11yLabel?: string): vscode.TreeItem {
  item.tooltip = tip;
  if (a11yLabel !== undefined) item.accessibilityInformation = { label: a11yLabel };
  return item;
}

/**
 * A changed file as a row (a checkpoint's file in the Files view, a step's file in the Conversation view): its
 * name as the label, its folder relative to the workspace and `what` changed as the description, its full path
 * and `detail` as the tooltip; a screen reader hears the name, the folder and what changed.
 */
export function fileRowItem(file: string, rel: string, what: string, detail: string): vscode.TreeItem {
  const name = path.basename(file);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.resourceUri = vscode.Uri.file(file);
  const dir = path.dirname(rel);
  item.description = [dir === '.' ? '' : dir, what].filter(Boolean).join(' · ');
  return describeRow(item, textTip(`${file}\n${detail}`), [name, dir === '.' ? '' : dir, what].filter(Boolean).join(', '));
}
