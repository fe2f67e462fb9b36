// Status bar: whether this workspace is recording, and how many checkpoints it has.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { baselinesRunning, type CaptureStatus, readCaptureStatus } from '../../recording/shellCapture';
import { VIEW } from '../commandIds';
import type { TimelineModel } from '../model/timelineModel';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentRewind.status', vscode.StatusBarAlignment.Left, 10);
  private warned = new Set<string>();
  /** Resolves the window progress shown while a session's baseline runs. */
  private endProgress: (() => void) | undefined;
  private staleCheck: NodeJS.Timeout | undefined;

  constructor(
    private readonly model: TimelineModel,
    /** Display names of the agents recording in this workspace. */
    private readonly connected: () => readonly string[],
  ) {
    this.item.name = 'Agent Rewind';
    this.item.command = { command: `${VIEW.files}.focus`, title: 'Show Agent Rewind' };
    model.onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  /** Shell capture of the newest session, when it turned itself off (too many files). */
  private static captureOff(all: CaptureStatus[]): CaptureStatus | undefined {
    const latest = [...all].sort((a, b) => b.time - a.time)[0];
    return latest?.state === 'off' ? latest : undefined;
  }

  /** True while the window shows baseline progress (for the tests). */
  get showingProgress(): boolean {
    return this.endProgress !== undefined;
  }

  /**
   * A session's first scan (the baseline shell capture starts from) runs in the agent's hook, not
   * here; the hook says so in capture.json and we show window progress until it is done.
   */
  private showBaselineProgress(running: CaptureStatus[], where: string): void {
    if (running.length === 0) {
      this.endProgress?.();
      this.endProgress = undefined;
      return;
    }
    // A hook killed mid-baseline never says it is done: look again once it would count as stale.
    clearTimeout(this.staleCheck);
    this.staleCheck = setTimeout(() => this.update(), 5000);
    if (this.endProgress) return;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Agent Rewind' },
      (progress) =>
        new Promise<void>((resolve) => {
          progress.report({ message: `taking a baseline of ${where} for shell capture…` });
          this.endProgress = resolve;
        }),
    );
  }

  update(): void {
    const n = this.model.checkpoints.length;
    const names = this.connected();
    const on = names.length > 0;
    const capture = readCaptureStatus(this.model.store.dir);
    const off = StatusBar.captureOff(Object.values(capture));
    const running = baselinesRunning(capture);
    const where = running.map((r) => path.basename(r.root)).join(', ');
    this.showBaselineProgress(running, where);
    this.item.text = `$(${running.length ? 'sync~spin' : on ? 'history' : 'debug-disconnect'}) ${n} checkpoint${n === 1 ? '' : 's'}${off ? ' $(warning)' : ''}`;
    if (off && !this.warned.has(off.session)) {
      this.warned.add(off.session);
      void vscode.window
        .showWarningMessage(
          off.message ??
            `Shell-command capture is off for this session: the workspace has more than ${off.limit} files. Agent edits are still recorded.`,
          'Raise the Limit',
        )
        .then((p) => p && vscode.commands.executeCommand('workbench.action.openSettings', 'agentRewind.maxScanFiles'));
    }
    const last = this.model.checkpoints[0]?.checkpoint;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(
      on
        ? `**Agent Rewind** — Recording: ${names.join(', ')}`
        : '**Agent Rewind** — not connected: agents in this workspace are not recorded',
    );
    tip.appendMarkdown(`\n\n${n} checkpoint${n === 1 ? '' : 's'}`);
    if (last) tip.appendMarkdown(` · last ${new Date(last.time).toLocaleString()}`);
    if (running.length)
      tip.appendMarkdown('\n\n$(sync~spin) ').appendText(`Taking a baseline of the workspace for shell-command capture (${where})…`);
    const pending = Object.values(capture).reduce((k, x) => k + (x.state === 'on' ? (x.pending ?? 0) : 0), 0);
    if (pending) tip.appendMarkdown(`\n\n${pending} file(s) of the baseline are copied before the next shell command.`);
    if (off)
      tip.appendMarkdown(
        `\n\n$(warning) Shell-command capture is off: ${off.files} files (limit ${off.limit}, \`agentRewind.maxScanFiles\`). Agent edits are still recorded; files changed by shell commands are not.`,
      );
    if (this.model.badLines) tip.appendMarkdown(`\n\n$(warning) ${this.model.badLines} unreadable line(s) in the store were skipped`);
    this.item.tooltip = tip;
    this.item.accessibilityInformation = {
      label: `Agent Rewind: ${on ? `recording ${names.join(', ')}` : 'not connected'}, ${n} checkpoints`,
    };
  }

  dispose(): void {
    clearTimeout(this.staleCheck);
    this.endProgress?.();
    this.item.dispose();
  }
}
