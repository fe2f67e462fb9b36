// Storage usage, clean-up (retention + sweep, with progress) and purge. The store holds copies of
// source files and conversations: users must be able to see it and delete it. Counting and
// clean-up read every blob: they run in the plan worker (on the host only if it is unusable).
import { countWords } from '../../shared/l10n';
import * as vscode from 'vscode';
import { gc, storeBytes } from '../../core/upkeep/gc';
import { storageUse, type StorageUse } from '../../core/upkeep/storageUse';
import { acquireCompactionLock, acquireStoreLock } from '../../core/storeFiles/lock';
import type { Store } from '../../core/store';
import { deleteRecordings } from '../../core/storeFiles/workspaceStore';
import { oneLine } from '../../shared/text';
import { checkpointWords, sessionWords } from '../../core/timeline/presentation';
import type { Busy } from '../rewind/busy';
import type { WorkerClient } from '../offHost/workerClient';
import type { Settings } from '../settings';
import type { TimelineModel } from '../model/timelineModel';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export class StorageCommands {
  constructor(
    private readonly store: Store,
    private readonly model: TimelineModel,
    private readonly busy: Busy,
    private readonly settings: () => Pick<Settings, 'retentionDays' | 'maxStorageGB'>,
    private readonly output: vscode.LogOutputChannel,
    private readonly offHost?: WorkerClient,
  ) {}

  private usage(): Promise<StorageUse> {
    const now = Date.now();
    const here = async () => storageUse(this.store, now);
    return this.offHost ? this.offHost.usage(this.store.dir, now, here) : here();
  }

  private retentionDays(): number {
    return this.settings().retentionDays;
  }

  /** The breakdown by age and by session, in the output channel (a message has no room for it). */
  private writeBreakdown(u: StorageUse): void {
    const o = this.output;
    o.info(
      `Storage for this workspace (${this.store.dir}): ${formatBytes(u.totalBytes)} — file copies ${formatBytes(u.recordedBytes)}, timeline ${formatBytes(u.logBytes)}, shell-capture baselines ${formatBytes(u.scanBytes)}, unused (freed by clean-up) ${formatBytes(u.unreferencedBytes)}, other ${formatBytes(u.otherBytes)}.`,
    );
    o.info('  By age (file copies counted when first recorded):');
    for (const a of u.byAge)
      o.info(`    ${`${a.days} days`.padEnd(10)} ${formatBytes(a.bytes).padStart(9)}  ${checkpointWords(a.checkpoints)}`);
    o.info(`  By session (${sessionWords(u.sessions.length)}, largest first):`);
    for (const s of u.sessions.slice(0, 50))
      o.info(
        `    ${formatBytes(s.bytes).padStart(9)}  ${checkpointWords(s.checkpoints)}, last ${new Date(s.last).toLocaleString()}  ${s.agent ?? ''} ${oneLine(s.label, 60)}`,
      );
    if (u.sessions.length > 50) o.info(`    … and ${u.sessions.length - 50} smaller sessions (agent-rewind storage lists them all).`);
    if (u.own.checkpoints || u.own.bytes)
      o.info(
        `  Your own actions (rewinds, undos, takes, manual checkpoints): ${formatBytes(u.own.bytes)}, ${checkpointWords(u.own.checkpoints)}.`,
      );
  }

  /** Before the first recorded event there is no store folder (and nothing to count, clean or delete). */
  private nothingYet(): boolean {
    if (this.store.exists()) return false;
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Agent Rewind has recorded nothing for this workspace yet: its store ({0}) is created when a connected agent records its first event.',
        this.store.dir,
      ),
    );
    return true;
  }

  async showUsage(): Promise<void> {
    if (this.nothingYet()) return;
    const u = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Agent Rewind: counting storage…') },
      () => this.usage(),
    );
    this.writeBreakdown(u);
    const n = this.model.checkpoints.length;
    const biggest = u.sessions[0];
    const gb = this.settings().maxStorageGB;
    const showBySession = vscode.l10n.t('Show by Session and Age');
    const cleanUpNow = vscode.l10n.t('Clean Up Now');
    const revealFolder = vscode.l10n.t('Reveal Folder');
    const deleteEverything = vscode.l10n.t('Delete Everything…');
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Agent Rewind stores {0} for this workspace: {1} in {2}{3}; {4} is older than 7 days. Clean-up removes checkpoints older than {5} days{6}.',
        formatBytes(u.totalBytes),
        checkpointCount(n),
        countWords(u.sessions.length, vscode.l10n.t('1 session'), vscode.l10n.t('{0} sessions', u.sessions.length)),
        biggest ? vscode.l10n.t(' (the largest: {0})', formatBytes(biggest.bytes)) : '',
        formatBytes(u.byAge.slice(2).reduce((t, a) => t + a.bytes, 0)),
        this.retentionDays(),
        gb > 0 ? vscode.l10n.t(' and the oldest beyond {0} GB', gb) : '',
      ),
      showBySession,
      cleanUpNow,
      revealFolder,
      deleteEverything,
    );
    if (pick === showBySession) this.output.show(true);
    else if (pick === cleanUpNow) await this.cleanUp();
    else if (pick === revealFolder)
      await vscode.env.openExternal(vscode.Uri.file(this.store.dir)).then(undefined, () => vscode.env.clipboard.writeText(this.store.dir));
    else if (pick === deleteEverything) await this.deleteAll();
  }

  async cleanUp(silent = false): Promise<void> {
    if (!this.store.exists()) {
      if (!silent) this.nothingYet();
      return;
    }
    const days = this.retentionDays();
    await this.busy.run(
      vscode.l10n.t('cleaning up'),
      async () =>
        await vscode.window.withProgress(
          {
            location: silent ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('Agent Rewind: cleaning up old checkpoints…'),
          },
          async () => {
            const gb = this.settings().maxStorageGB;
            const limits = gb > 0 ? { maxBytes: Math.round(gb * 1024 ** 3) } : {};
            const now = Date.now();
            const here = async () => gc(this.store, days, now, limits);
            const r = await (this.offHost ? this.offHost.gc(this.store.dir, days, now, limits, here) : here());
            this.model.reload();
            for (const k of r.kept)
              this.output.info(
                `Clean-up kept checkpoint ${k.checkpoint} (${new Date(k.time).toISOString()}): ${k.reason === 'last-rewind' ? 'the undo of the last rewind' : `its undo brings back edits a rewind overwrote, recorded nowhere newer (${k.paths.join(', ')})`}.`,
              );
            if (!silent) {
              void vscode.window.showInformationMessage(
                vscode.l10n.t(
                  'Freed {0}: removed {1} (older than {2} days{3}) and {4}. {5} left{6}.',
                  formatBytes(r.bytesFreed),
                  checkpointCount(r.droppedCheckpoints),
                  days,
                  r.sizeLimit ? vscode.l10n.t(', or the oldest beyond {0} GB', gb) : '',
                  countWords(r.blobsFreed, vscode.l10n.t('1 unused file version'), vscode.l10n.t('{0} unused file versions', r.blobsFreed)),
                  formatBytes(r.bytesLeft),
                  r.sizeLimit && !r.sizeLimit.fits
                    ? vscode.l10n.t(', still over {0} GB: the latest checkpoint and the undo of the last rewind are never removed', gb)
                    : '',
                ),
              );
            }
          },
        ),
    );
  }

  async deleteAll(): Promise<void> {
    if (this.nothingYet()) return;
    const bytes = storeBytes(this.store);
    const deleteEverything = vscode.l10n.t('Delete Everything');
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete everything Agent Rewind recorded for this workspace?'),
      {
        modal: true,
        detail: vscode.l10n.t(
          '{0} checkpoints and {1} of file copies and session logs will be deleted. Your files are not touched. Rewinding to any earlier point will no longer be possible. Connected agents keep recording from now on.',
          this.model.checkpoints.length,
          formatBytes(bytes),
        ),
      },
      deleteEverything,
    );
    if (ok !== deleteEverything) return;
    await this.busy.run(vscode.l10n.t('deleting recordings'), () => {
      const release = acquireStoreLock(this.store.dir, 'purge');
      try {
        const releaseWriters = acquireCompactionLock(this.store.dir);
        try {
          deleteRecordings(this.store.dir);
        } finally {
          releaseWriters();
        }
      } finally {
        release();
      }
      this.model.reload();
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Deleted {0} recorded by Agent Rewind for this workspace.', formatBytes(bytes)),
      );
    });
  }
}

/** "1 checkpoint" / "3 checkpoints". */
const checkpointCount = (n: number): string => countWords(n, vscode.l10n.t('1 checkpoint'), vscode.l10n.t('{0} checkpoints', n));
