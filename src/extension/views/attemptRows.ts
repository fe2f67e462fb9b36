// The Files view's row for an attempt that is not in progress: "Attempt 1 · 3 prompts · 5 files · left
// 14:02", collapsible to its prompts, with Compare with Current and Switch to This Attempt inline.
import * as vscode from 'vscode';
import type { Attempt, OwnWork } from '../../core/timeline/attempts';
import { countWords } from '../../shared/l10n';
import { oneLine } from '../../shared/text';
import type { TurnNode } from '../model/timelineModel';
import { agentInfo } from './agentInfo';

/** "14:02" today, "3 Dec 14:02" on another day. */
export function leftAt(time: number, now = Date.now()): string {
  const d = new Date(time);
  const hm = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return new Date(now).toDateString() === d.toDateString()
    ? hm
    : `${d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${hm}`;
}

/** An attempt as one row; `rows` are its rows off the line (its children), `own` its own work (the counts `attempts` gives too). */
export function attemptItem(a: Attempt, rows: readonly TurnNode[], own: OwnWork): vscode.TreeItem {
  const item = new vscode.TreeItem(
    vscode.l10n.t('Attempt {0}', a.n),
    rows.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `attempt:${a.n}`;
  item.description = [
    countWords(own.prompts.length, vscode.l10n.t('1 prompt'), vscode.l10n.t('{0} prompts', own.prompts.length)),
    countWords(own.files.length, vscode.l10n.t('1 file'), vscode.l10n.t('{0} files', own.files.length)),
    a.end ? vscode.l10n.t('left {0}', leftAt(a.end.time)) : vscode.l10n.t('in progress'),
  ].join(' · ');
  item.iconPath = new vscode.ThemeIcon('git-branch', new vscode.ThemeColor('charts.purple'));
  item.contextValue = a.end ? 'agentRewind.attempt' : 'agentRewind.attempt.current';
  const tip = new vscode.MarkdownString();
  tip.appendMarkdown(`${vscode.l10n.t('**Attempt {0}** — work a rewind set aside, kept whole in the store.', a.n)}\n\n`);
  const first = own.prompts[0];
  // Agent-provided strings go in as text: never markdown, links or command URIs.
  if (first) tip.appendText(`${vscode.l10n.t('First prompt: {0}', oneLine(first.label, 200))}\n\n`);
  if (own.agents.length) {
    const sessions = countWords(own.sessions.length, vscode.l10n.t('1 session'), vscode.l10n.t('{0} sessions', own.sessions.length));
    tip.appendText(`${own.agents.map((x) => agentInfo(x).name).join(', ')} · ${sessions}\n\n`);
  }
  if (a.end) tip.appendText(vscode.l10n.t('Left {0}.', new Date(a.end.time).toLocaleString()));
  tip.appendMarkdown(
    `\n\n${vscode.l10n.t('Compare it with the current files, take files from it, or switch to it (a rewind to its end, with Undo).')}`,
  );
  item.tooltip = tip;
  item.accessibilityInformation = { label: vscode.l10n.t('Attempt {0}, {1}', a.n, String(item.description)) };
  return item;
}
