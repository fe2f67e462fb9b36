// Status bar: whether this workspace is recording, and how many checkpoints it has.
import * as vscode from 'vscode';
import { type CaptureStatus, readCaptureStatus } from '../agents/shellCapture';
import { VIEW } from './commandIds';
import type { TimelineModel } from './timelineModel';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentRewind.status', vscode.StatusBarAlignment.Left, 10);
  private warned = new Set<string>();

  constructor(private readonly model: TimelineModel, private readonly connected: () => boolean) {
    this.item.name = 'Agent Rewind';
    this.item.command = { command: `${VIEW.files}.focus`, title: 'Show Agent Rewind' };
    model.onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  /** Shell capture of the newest session, when it turned itself off (too many files). */
  private captureOff(): CaptureStatus | undefined {
    const all = Object.values(readCaptureStatus(this.model.store.dir)).sort((a, b) => b.time - a.time);
    const latest = all[0];
    return latest?.state === 'off' ? latest : undefined;
  }

  update(): void {
    const n = this.model.checkpoints.length;
    const on = this.connected();
    const off = this.captureOff();
    this.item.text = `$(${on ? 'history' : 'debug-disconnect'}) ${n}${off ? ' $(warning)' : ''}`;
    if (off && !this.warned.has(off.session)) {
      this.warned.add(off.session);
      void vscode.window
        .showWarningMessage(off.message ?? `Shell-command capture is off for this session: the workspace has more than ${off.limit} files. Agent edits are still recorded.`, 'Raise the Limit')
        .then((p) => p && vscode.commands.executeCommand('workbench.action.openSettings', 'agentRewind.maxScanFiles'));
    }
    const last = this.model.checkpoints[0]?.checkpoint;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(on ? '**Agent Rewind** — recording Claude Code in this workspace' : '**Agent Rewind** — not connected: agents in this workspace are not recorded');
    tip.appendMarkdown(`\n\n${n} checkpoint${n === 1 ? '' : 's'}`);
    if (last) tip.appendMarkdown(` · last ${new Date(last.time).toLocaleString()}`);
    if (off) tip.appendMarkdown(`\n\n$(warning) Shell-command capture is off: ${off.files} files (limit ${off.limit}, \`agentRewind.maxScanFiles\`). Agent edits are still recorded; files changed by shell commands are not.`);
    if (this.model.badLines) tip.appendMarkdown(`\n\n$(warning) ${this.model.badLines} unreadable line(s) in the store were skipped`);
    this.item.tooltip = tip;
    this.item.accessibilityInformation = { label: `Agent Rewind: ${on ? 'recording' : 'not connected'}, ${n} checkpoints` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
