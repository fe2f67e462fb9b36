// Status bar: whether this workspace is recording (and the file that proves each agent's hooks), and how
// many prompts the Files view lists — the pre-call checkpoints inside them named apart in the tooltip.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { type Fallbacks, readFallbacks } from '../../core/capture/narrowing';
import { baselinesRunning, type CaptureStatus, readCaptureStatus } from '../../core/capture/status';
import { residentHolder } from '../../core/storeFiles/lock';
import { recordingHealth } from '../../core/upkeep/recordingHealth';
import { countWords } from '../../shared/l10n';
import { VIEW } from '../commandIds';
import type { TimelineModel } from '../model/timelineModel';
import { promptWords, type TimelineCounts } from '../../core/timeline/presentation';
import { clockTime } from '../../shared/time';
import { Debouncer } from '../timers';

/** An agent whose hooks are installed, and the file (workspace-relative) that holds them. */
export interface Recording {
  name: string;
  file: string;
}

/** How far back the log is searched for dropped payloads at each update (`agent-rewind status` reads it whole). */
const HEALTH_BYTES = 1024 * 1024;

/** "1 prompt" / "3 prompts". */
const promptCount = (n: number) => promptWords(n, vscode.l10n);

/** What the resident's file watcher could not narrow (core/capture/narrowing.ts), in the tooltip's words. */
function fallbackWords(f: Fallbacks): string {
  const whole =
    f.total === 0
      ? vscode.l10n.t('File watcher: no shell scan of the whole workspace since it started.')
      : countWords(
          f.total,
          vscode.l10n.t('File watcher: 1 shell scan of the whole workspace since it started ({0}).', reasonsOf(f)),
          vscode.l10n.t('File watcher: {0} shell scans of the whole workspace since it started ({1}).', f.total, reasonsOf(f)),
        );
  if (!f.wholeFolders.length) return whole;
  const alone = countWords(
    f.wholeFolders.length,
    vscode.l10n.t('1 folder it does not watch is scanned alone: {0}', f.wholeFolders.join(', ')),
    vscode.l10n.t('{0} folders it does not watch are scanned alone: {1}', f.wholeFolders.length, f.wholeFolders.join(', ')),
  );
  return `${whole} ${alone}`;
}

function reasonsOf(f: Fallbacks): string {
  return Object.entries(f.byReason)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

/** The rows that are not prompts, counted: "2 session starts" (none: nothing). */
function otherRowWords(c: TimelineCounts): string[] {
  const words: string[] = [];
  const n = c.sessionStarts;
  if (n) words.push(countWords(n, vscode.l10n.t('1 session start'), vscode.l10n.t('{0} session starts', n)));
  if (c.rewinds) words.push(countWords(c.rewinds, vscode.l10n.t('1 rewind'), vscode.l10n.t('{0} rewinds', c.rewinds)));
  if (c.manual) words.push(countWords(c.manual, vscode.l10n.t('1 manual checkpoint'), vscode.l10n.t('{0} manual checkpoints', c.manual)));
  return words;
}

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentRewind.status', vscode.StatusBarAlignment.Left, 10);
  private warned = new Set<string>();
  /** Resolves the window progress shown while a session's baseline runs. */
  private endProgress: (() => void) | undefined;
  private readonly staleCheck = new Debouncer(5000, () => this.update());
  private readonly modelChange: vscode.Disposable;

  constructor(
    private readonly model: TimelineModel,
    /** The agents whose hooks are installed in this workspace, each with the file that holds them. */
    private readonly connected: () => readonly Recording[],
  ) {
    this.item.name = vscode.l10n.t('Agent Rewind');
    this.item.command = { command: `${VIEW.files}.focus`, title: vscode.l10n.t('Show Agent Rewind') };
    // Shown once the model has read the log (a model loaded after activation says so on change): asking it sooner
    // would read the log during activation.
    const show = () => {
      this.update();
      this.item.show();
    };
    this.modelChange = model.onDidChange(show);
    if (!model.loading) show();
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
    this.staleCheck.trigger();
    if (this.endProgress) return;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Agent Rewind') },
      (progress) =>
        new Promise<void>((resolve) => {
          progress.report({ message: vscode.l10n.t('taking a baseline of {0} for shell capture…', where) });
          this.endProgress = resolve;
        }),
    );
  }

  update(): void {
    // The timeline's counts (core/timeline/presentation.ts): `status --json` gives the same.
    const rows = this.model.counts();
    const n = rows.prompts;
    const recording = this.connected();
    const names = [...new Set(recording.map((r) => r.name))];
    const on = recording.length > 0;
    const capture = readCaptureStatus(this.model.store.dir);
    const off = StatusBar.captureOff(Object.values(capture));
    const running = baselinesRunning(capture);
    const where = running.map((r) => path.basename(r.root)).join(', ');
    this.showBaselineProgress(running, where);
    const health = recordingHealth(this.model.store, HEALTH_BYTES);
    const lost = health.writeFailures.length > 0 || health.dropped !== null;
    this.item.text = `$(${running.length ? 'sync~spin' : on ? 'history' : 'debug-disconnect'}) ${promptCount(n)}${off || lost ? ' $(warning)' : ''}`;
    if (off && !this.warned.has(off.session)) {
      this.warned.add(off.session);
      void vscode.window
        .showWarningMessage(
          off.message ??
            vscode.l10n.t(
              'Shell-command capture is off for this session: the workspace has more than {0} files. Agent edits are still recorded.',
              off.limit,
            ),
          vscode.l10n.t('Raise the Limit'),
        )
        .then((p) => p && vscode.commands.executeCommand('workbench.action.openSettings', 'agentRewind.maxScanFiles'));
    }
    const last = this.model.checkpoints[0]?.checkpoint;
    const tip = new vscode.MarkdownString(undefined, true);
    if (on) {
      tip.appendMarkdown(vscode.l10n.t('**Agent Rewind** — Recording:'));
      // Agent names are ours; the file paths come from the workspace: text, never markdown.
      for (const r of recording) tip.appendMarkdown(`\n- ${vscode.l10n.t('{0}: hooks in ', r.name)}`).appendText(r.file);
    } else tip.appendMarkdown(vscode.l10n.t('**Agent Rewind** — not connected: agents in this workspace are not recorded'));
    const others = otherRowWords(rows);
    const counted = [promptCount(n), ...others].join(', ');
    tip.appendMarkdown(`\n\n${vscode.l10n.t('{0} in the Files view', counted)}`);
    if (last) tip.appendMarkdown(` · ${vscode.l10n.t('last {0}', clockTime(last.time))}`);
    if (rows.beforeCalls) {
      const inside = countWords(
        rows.beforeCalls,
        vscode.l10n.t('1 checkpoint before a command that cannot be undone (inside its prompt)'),
        vscode.l10n.t('{0} checkpoints before a command that cannot be undone (inside their prompts)', rows.beforeCalls),
      );
      tip.appendMarkdown(`\n\n${inside}`);
    }
    if (running.length)
      tip
        .appendMarkdown('\n\n$(sync~spin) ')
        .appendText(vscode.l10n.t('Taking a baseline of the workspace for shell-command capture ({0})…', where));
    const pending = Object.values(capture).reduce((k, x) => k + (x.state === 'on' ? (x.pending ?? 0) : 0), 0);
    if (pending)
      tip.appendMarkdown(`\n\n${vscode.l10n.t('{0} file(s) of the baseline are copied before the next shell command.', pending)}`);
    if (off) {
      const offWords = vscode.l10n.t(
        'Shell-command capture is off: {0} files (limit {1}, `agentRewind.maxScanFiles`). Agent edits are still recorded; files changed by shell commands are not.',
        off.files,
        off.limit,
      );
      tip.appendMarkdown(`\n\n$(warning) ${offWords}`);
    }
    for (const f of health.writeFailures) {
      const words = vscode.l10n.t(
        'The store could not be written ({0}) between {1} and {2}: what agents did then was not recorded. Free space on its disk.',
        f.code,
        clockTime(f.first),
        clockTime(f.last),
      );
      tip.appendMarkdown('\n\n$(warning) ').appendText(words);
    }
    if (health.dropped) {
      const d = health.dropped;
      const words = vscode.l10n.t(
        '{0} hook message(s) over 64 MB dropped since {1}: the changes they carried were not recorded.',
        d.count,
        clockTime(d.first),
      );
      tip.appendMarkdown('\n\n$(warning) ').appendText(words);
      // The file names come from the agent: text, never markdown.
      if (d.paths.length) tip.appendText(` ${d.paths.join(', ')}`);
    }
    const resident = residentHolder(this.model.store.dir);
    const residentWords = resident
      ? vscode.l10n.t('Resident recorder: running since {0} (process {1})', clockTime(resident.time), resident.pid)
      : vscode.l10n.t('Resident recorder: not running (hooks record by themselves)');
    tip.appendMarkdown(`\n\n${residentWords}`);
    const fb = resident ? readFallbacks(this.model.store.dir, resident.pid) : null;
    if (fb) tip.appendMarkdown('\n\n').appendText(fallbackWords(fb));
    if (this.model.badLines)
      tip.appendMarkdown(`\n\n$(warning) ${vscode.l10n.t('{0} unreadable line(s) in the store were skipped', this.model.badLines)}`);
    this.item.tooltip = tip;
    this.item.accessibilityInformation = {
      label: on
        ? vscode.l10n.t('Agent Rewind: recording {0}, {1}', names.join(', '), promptCount(n))
        : vscode.l10n.t('Agent Rewind: not connected, {0}', promptCount(n)),
    };
  }

  dispose(): void {
    this.modelChange.dispose();
    this.staleCheck.dispose();
    this.endProgress?.();
    this.item.dispose();
  }
}
