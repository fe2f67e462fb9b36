// Status bar: whether this workspace is recording (and the file that proves each agent's hooks), and how
// many prompts the Files view lists — the pre-call checkpoints inside them named apart in the tooltip.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { baselinesRunning, type CaptureStatus, readCaptureStatus } from '../../core/capture/status';
import { residentHolder } from '../../core/storeFiles/lock';
import { VIEW } from '../commandIds';
import type { TimelineModel, TurnNode } from '../model/timelineModel';

/** An agent whose hooks are installed, and the file (workspace-relative) that holds them. */
export interface Recording {
  name: string;
  file: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the Files view's rows are: prompts, and the rows that are not (session starts, rewinds, manual checkpoints). */
export function rowCounts(turns: readonly TurnNode[]): { prompts: number; other: Map<string, number>; beforeCalls: number } {
  const other = new Map<string, number>();
  let prompts = 0;
  let beforeCalls = 0;
  for (const t of turns) {
    const kind = t.node.checkpoint.kind;
    beforeCalls += t.inside.filter((n) => n.checkpoint.kind === 'before-tool').length;
    if (kind === 'prompt') prompts++;
    else if (kind === 'before-tool') beforeCalls++;
    else other.set(kind, (other.get(kind) ?? 0) + 1);
  }
  return { prompts, other, beforeCalls };
}

const ROW_WORDS: Record<string, [string, string]> = {
  'session-start': ['session start', 'session starts'],
  rewind: ['rewind', 'rewinds'],
  manual: ['manual checkpoint', 'manual checkpoints'],
};

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentRewind.status', vscode.StatusBarAlignment.Left, 10);
  private warned = new Set<string>();
  /** Resolves the window progress shown while a session's baseline runs. */
  private endProgress: (() => void) | undefined;
  private staleCheck: NodeJS.Timeout | undefined;

  constructor(
    private readonly model: TimelineModel,
    /** The agents whose hooks are installed in this workspace, each with the file that holds them. */
    private readonly connected: () => readonly Recording[],
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

  /** What the item shows and its tooltip's text (for the tests). */
  get shown(): { text: string; tooltip: string } {
    const tip = this.item.tooltip;
    return { text: this.item.text, tooltip: typeof tip === 'string' ? tip : (tip?.value ?? '') };
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
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Agent Rewind') },
      (progress) =>
        new Promise<void>((resolve) => {
          progress.report({ message: `taking a baseline of ${where} for shell capture…` });
          this.endProgress = resolve;
        }),
    );
  }

  update(): void {
    const rows = rowCounts(this.model.turns);
    const n = rows.prompts;
    const recording = this.connected();
    const names = [...new Set(recording.map((r) => r.name))];
    const on = recording.length > 0;
    const capture = readCaptureStatus(this.model.store.dir);
    const off = StatusBar.captureOff(Object.values(capture));
    const running = baselinesRunning(capture);
    const where = running.map((r) => path.basename(r.root)).join(', ');
    this.showBaselineProgress(running, where);
    this.item.text = `$(${running.length ? 'sync~spin' : on ? 'history' : 'debug-disconnect'}) ${plural(n, 'prompt')}${off ? ' $(warning)' : ''}`;
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
    if (on) {
      tip.appendMarkdown('**Agent Rewind** — Recording:');
      // Agent names are ours; the file paths come from the workspace: text, never markdown.
      for (const r of recording) tip.appendMarkdown(`\n- ${r.name}: hooks in `).appendText(r.file);
    } else tip.appendMarkdown('**Agent Rewind** — not connected: agents in this workspace are not recorded');
    const others = [...rows.other].map(([kind, k]) => plural(k, ...(ROW_WORDS[kind] ?? [kind, kind])));
    tip.appendMarkdown(`\n\n${plural(n, 'prompt')}${others.length ? `, ${others.join(', ')}` : ''} in the Files view`);
    if (last) tip.appendMarkdown(` · last ${new Date(last.time).toLocaleString()}`);
    if (rows.beforeCalls)
      tip.appendMarkdown(
        `\n\n${plural(rows.beforeCalls, 'checkpoint')} before a command that cannot be undone (inside ${rows.beforeCalls === 1 ? 'its prompt' : 'their prompts'})`,
      );
    if (running.length)
      tip.appendMarkdown('\n\n$(sync~spin) ').appendText(`Taking a baseline of the workspace for shell-command capture (${where})…`);
    const pending = Object.values(capture).reduce((k, x) => k + (x.state === 'on' ? (x.pending ?? 0) : 0), 0);
    if (pending) tip.appendMarkdown(`\n\n${pending} file(s) of the baseline are copied before the next shell command.`);
    if (off)
      tip.appendMarkdown(
        `\n\n$(warning) Shell-command capture is off: ${off.files} files (limit ${off.limit}, \`agentRewind.maxScanFiles\`). Agent edits are still recorded; files changed by shell commands are not.`,
      );
    const resident = residentHolder(this.model.store.dir);
    tip.appendMarkdown(
      resident
        ? `\n\nResident recorder: running since ${new Date(resident.time).toLocaleString()} (process ${resident.pid})`
        : '\n\nResident recorder: not running (hooks record by themselves)',
    );
    if (this.model.badLines) tip.appendMarkdown(`\n\n$(warning) ${this.model.badLines} unreadable line(s) in the store were skipped`);
    this.item.tooltip = tip;
    this.item.accessibilityInformation = {
      label: `Agent Rewind: ${on ? `recording ${names.join(', ')}` : 'not connected'}, ${plural(n, 'prompt')}`,
    };
  }

  dispose(): void {
    clearTimeout(this.staleCheck);
    this.endProgress?.();
    this.item.dispose();
  }
}
