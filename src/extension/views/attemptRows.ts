// The Files view's row for an attempt that is not in progress: "Attempt 1 · 3 prompts · 5 files · left
// 14:02", collapsible to its prompts, with Compare with Current and Switch to This Attempt inline.
import * as vscode from 'vscode';
import type { Attempt } from '../../core/timeline/attempts';
import { oneLine } from '../../shared/text';
import type { TurnNode } from '../model/timelineModel';
import { agentInfo } from './agentInfo';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "14:02" today, "3 Dec 14:02" on another day. */
export function leftAt(time: number, now = Date.now()): string {
  const d = new Date(time);
  const hm = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return new Date(now).toDateString() === d.toDateString()
    ? hm
    : `${d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${hm}`;
}

/** An attempt as one row; `rows` are its rows off the line, `filesOf` what a row's turn edited. */
export function attemptItem(a: Attempt, rows: readonly TurnNode[], filesOf: (checkpointId: string) => string[]): vscode.TreeItem {
  const prompts = rows.filter((t) => t.node.checkpoint.kind === 'prompt');
  const files = new Set(rows.flatMap((t) => filesOf(t.node.checkpoint.id)));
  const item = new vscode.TreeItem(
    `Attempt ${a.n}`,
    rows.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `attempt:${a.n}`;
  item.description = [
    plural(prompts.length, 'prompt'),
    plural(files.size, 'file'),
    a.end ? `left ${leftAt(a.end.time)}` : 'in progress',
  ].join(' · ');
  item.iconPath = new vscode.ThemeIcon('git-branch', new vscode.ThemeColor('charts.purple'));
  item.contextValue = a.end ? 'agentRewind.attempt' : 'agentRewind.attempt.current';
  const tip = new vscode.MarkdownString();
  tip.appendMarkdown(`**Attempt ${a.n}** — work a rewind set aside, kept whole in the store.\n\n`);
  const first = prompts[prompts.length - 1];
  // Agent-provided strings go in as text: never markdown, links or command URIs.
  if (first) tip.appendText(`First prompt: ${oneLine(first.node.label, 200)}\n\n`);
  if (a.agents.length) tip.appendText(`${a.agents.map((x) => agentInfo(x).name).join(', ')} · ${plural(a.sessions.length, 'session')}\n\n`);
  if (a.end) tip.appendText(`Left ${new Date(a.end.time).toLocaleString()}.`);
  tip.appendMarkdown('\n\nCompare it with the current files, take files from it, or switch to it (a rewind to its end, with Undo).');
  item.tooltip = tip;
  item.accessibilityInformation = { label: `Attempt ${a.n}, ${item.description}` };
  return item;
}
