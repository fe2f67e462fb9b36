// Status bar: whether this workspace is recording, and how many checkpoints it has.
import * as vscode from 'vscode';
import { VIEW } from './commandIds';
import type { TimelineModel } from './timelineModel';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentRewind.status', vscode.StatusBarAlignment.Left, 10);

  constructor(private readonly model: TimelineModel, private readonly connected: () => boolean) {
    this.item.name = 'Agent Rewind';
    this.item.command = { command: `${VIEW.files}.focus`, title: 'Show Agent Rewind' };
    model.onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  update(): void {
    const n = this.model.checkpoints.length;
    const on = this.connected();
    this.item.text = `$(${on ? 'history' : 'debug-disconnect'}) ${n}`;
    const last = this.model.checkpoints[0]?.checkpoint;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(on ? '**Agent Rewind** — recording Claude Code in this workspace' : '**Agent Rewind** — not connected: agents in this workspace are not recorded');
    tip.appendMarkdown(`\n\n${n} checkpoint${n === 1 ? '' : 's'}`);
    if (last) tip.appendMarkdown(` · last ${new Date(last.time).toLocaleString()}`);
    if (this.model.badLines) tip.appendMarkdown(`\n\n$(warning) ${this.model.badLines} unreadable line(s) in the store were skipped`);
    this.item.tooltip = tip;
    this.item.accessibilityInformation = { label: `Agent Rewind: ${on ? 'recording' : 'not connected'}, ${n} checkpoints` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
