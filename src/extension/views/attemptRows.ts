// The Files view's row for an attempt not in progress, "Attempt 1 · 3 prompts · 5 files · left 2:02 PM" (the
// row core/timeline/presentation.ts builds), collapsible to its prompts, with Compare and Switch inline.
import * as vscode from 'vscode';
import type { Attempt, OwnWork } from '../../core/timeline/attempts';
import { oneLine } from '../../shared/text';
import { clockTime } from '../../shared/time';
import { attemptDescription, attemptRow, attemptTitle, sessionWords } from '../../core/timeline/presentation';
import type { TurnNode } from '../model/timelineModel';
import { agentInfo } from './agentInfo';

/** An attempt as one row; `rows` are its rows off the line (its children), `own` its own work (the counts `attempts` gives too). */
export function attemptItem(a: Attempt, rows: readonly TurnNode[], own: OwnWork): vscode.TreeItem {
  const row = attemptRow(a, own);
  const item = new vscode.TreeItem(
    attemptTitle(a.n, vscode.l10n),
    rows.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `attempt:${a.n}`;
  item.description = attemptDescription(row, (t) => clockTime(t), vscode.l10n);
  item.iconPath = new vscode.ThemeIcon('git-branch', new vscode.ThemeColor('charts.purple'));
  item.contextValue = a.end ? 'agentRewind.attempt' : 'agentRewind.attempt.current';
  const tip = new vscode.MarkdownString();
  tip.appendMarkdown(`${vscode.l10n.t('**Attempt {0}** — work a rewind set aside, kept whole in the store.', a.n)}\n\n`);
  // Agent-provided strings go in as text: never markdown, links or command URIs.
  if (row.firstPrompt !== null) tip.appendText(`${vscode.l10n.t('First prompt: {0}', oneLine(row.firstPrompt, 200))}\n\n`);
  if (row.agents.length)
    tip.appendText(`${row.agents.map((x) => agentInfo(x).name).join(', ')} · ${sessionWords(row.sessions, vscode.l10n)}\n\n`);
  if (row.left !== null) tip.appendText(vscode.l10n.t('Left {0}.', clockTime(row.left)));
  tip.appendMarkdown(
    `\n\n${vscode.l10n.t('Compare it with the current files, take files from it, or switch to it (a rewind to its end, with Undo).')}`,
  );
  item.tooltip = tip;
  item.accessibilityInformation = { label: vscode.l10n.t('Attempt {0}, {1}', a.n, String(item.description)) };
  return item;
}
