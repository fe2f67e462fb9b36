// Storage usage, clean-up (retention + sweep, with progress) and purge. The store holds copies of
// source files and conversations: users must be able to see it and delete it.
import * as vscode from 'vscode';
import { gc, storeBytes } from '../core/gc';
import { acquireCompactionLock, acquireStoreLock } from '../core/lock';
import type { Store } from '../core/store';
import { deleteRecordings } from '../core/workspaceStore';
import type { Busy } from './busy';
import type { TimelineModel } from './timelineModel';

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
    private readonly retentionDays: () => number,
  ) {}

  async showUsage(): Promise<void> {
    const bytes = storeBytes(this.store);
    const blobs = [...this.store.blobs.list()].length;
    const n = this.model.checkpoints.length;
    const pick = await vscode.window.showInformationMessage(
      `Agent Rewind stores ${formatBytes(bytes)} for this workspace: ${n} checkpoint${n === 1 ? '' : 's'}, ${blobs} file version${blobs === 1 ? '' : 's'}. Checkpoints older than ${this.retentionDays()} days are removed by clean-up.`,
      'Clean Up Now',
      'Reveal Folder',
      'Delete Everything…',
    );
    if (pick === 'Clean Up Now') await this.cleanUp();
    else if (pick === 'Reveal Folder')
      await vscode.env.openExternal(vscode.Uri.file(this.store.dir)).then(undefined, () => vscode.env.clipboard.writeText(this.store.dir));
    else if (pick === 'Delete Everything…') await this.deleteAll();
  }

  async cleanUp(silent = false): Promise<void> {
    const days = this.retentionDays();
    await this.busy.run(
      'cleaning up',
      async () =>
        await vscode.window.withProgress(
          {
            location: silent ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
            title: 'Agent Rewind: cleaning up old checkpoints…',
          },
          async () => {
            const r = gc(this.store, days);
            this.model.reload();
            if (!silent) {
              void vscode.window.showInformationMessage(
                `Freed ${formatBytes(r.bytesFreed)}: removed ${r.droppedCheckpoints} checkpoint${r.droppedCheckpoints === 1 ? '' : 's'} older than ${days} days and ${r.blobsFreed} unused file version${r.blobsFreed === 1 ? '' : 's'}. ${formatBytes(r.bytesLeft)} left.`,
              );
            }
          },
        ),
    );
  }

  async deleteAll(): Promise<void> {
    const bytes = storeBytes(this.store);
    const ok = await vscode.window.showWarningMessage(
      `Delete everything Agent Rewind recorded for this workspace?`,
      {
        modal: true,
        detail: `${this.model.checkpoints.length} checkpoints and ${formatBytes(bytes)} of file copies and session logs will be deleted. Your files are not touched. Rewinding to any earlier point will no longer be possible. Connected agents keep recording from now on.`,
      },
      'Delete Everything',
    );
    if (ok !== 'Delete Everything') return;
    await this.busy.run('deleting recordings', () => {
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
      void vscode.window.showInformationMessage(`Deleted ${formatBytes(bytes)} recorded by Agent Rewind for this workspace.`);
    });
  }
}
