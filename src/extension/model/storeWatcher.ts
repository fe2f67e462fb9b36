// Fires when the store's timeline or status changes (hooks append while an agent works). fs.watch on the
// store folder, debounced, with a slow poll as a safety net (fs.watch can miss events on some
// file systems, e.g. network mounts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { STORE_FILE } from '../../core/storeFiles/names';
import { Debouncer } from '../timers';

/**
 * Besides the timeline: conversation lineage, shell capture's status (a baseline running, capture off), and
 * what the resident's file watcher could not narrow.
 */
const WATCHED: readonly string[] = [STORE_FILE.lineage, STORE_FILE.captureStatus, STORE_FILE.watchFallbacks];

export class StoreWatcher implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private watcher: fs.FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private last = '';
  private readonly settled: Debouncer;

  constructor(
    private readonly storeDir: string,
    debounceMs = 150,
    pollMs = 3000,
  ) {
    this.settled = new Debouncer(debounceMs, () => {
      if (this.stamp() !== this.last) {
        this.last = this.stamp();
        this.emitter.fire();
      }
    });
    const fire = () => this.settled.trigger();
    this.last = this.stamp();
    this.watch(fire);
    // The poll also starts the watch once a store that did not exist yet appears (the first hook event creates it).
    this.poll = setInterval(() => {
      if (!this.watcher) this.watch(fire);
      fire();
    }, pollMs);
  }

  private watch(fire: () => void): void {
    try {
      this.watcher = fs.watch(this.storeDir, { persistent: false }, (_e, name) => {
        if (!name || name.startsWith(STORE_FILE.log) || WATCHED.includes(name) || name === STORE_FILE.rewindJournal) fire();
      });
      this.watcher.on('error', () => undefined);
    } catch {
      /* no folder yet, or a file system without watching: the poll still works */
    }
  }

  private stamp(): string {
    const parts: string[] = [];
    for (const f of [STORE_FILE.log, ...WATCHED]) {
      try {
        const st = fs.statSync(path.join(this.storeDir, f));
        parts.push(`${st.size}:${st.mtimeMs}:${st.ino}`);
      } catch {
        parts.push('-');
      }
    }
    return parts.join('|');
  }

  dispose(): void {
    this.watcher?.close();
    this.settled.dispose();
    if (this.poll) clearInterval(this.poll);
    this.emitter.dispose();
  }
}
