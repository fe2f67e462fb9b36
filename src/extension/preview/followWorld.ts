// The preview follows the world (issue 42): what it says — "Stopped: unsaved changes", a file changed
// outside the agent, the files to rewind — is checked again by itself when an editor's unsaved state
// changes or a file the plan names changes on disk. (The store's changes reach it through the timeline
// model, which the store watcher reloads.) Events come in bursts (typing, an agent writing): one check
// after they settle. Everything here lives as long as the panel.
import * as vscode from 'vscode';
import { Debouncer } from '../timers';

/** How long the events must be quiet before the preview is checked again. */
export const FOLLOW_DELAY_MS = 250;

/** What the preview shows, as the following asks it at each event. */
export interface Shown {
  /** Every file the plan shown names: a change on disk to one of them re-plans. */
  paths(): ReadonlySet<string>;
  /**
   * True when the unsaved files the preview says stop it are not the unsaved files now. Compared with what
   * the page shows, not with what this saw at its last check: a refresh asked for between two checks (the
   * Refresh button) must not make a later change look like no change.
   */
  unsavedDiffers(): boolean;
}

/** Calls `recheck` (once per burst) when the preview's unsaved files are no longer so, or a file it names changes on disk. */
export function followWorld(shown: Shown, recheck: () => void, delayMs = FOLLOW_DELAY_MS): vscode.Disposable {
  let diskChanged = false;
  const settle = () => {
    if (!diskChanged && !shown.unsavedDiffers()) return; // a typed character changes nothing the preview says
    diskChanged = false;
    recheck();
  };
  const settled = new Debouncer(delayMs, settle);
  const soon = () => settled.trigger();
  const named = (uri: vscode.Uri) => uri.scheme === 'file' && shown.paths().has(uri.fsPath);
  const onDisk = (uri: vscode.Uri) => {
    if (!named(uri)) return;
    diskChanged = true;
    soon();
  };
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const subscriptions = [
    watcher,
    watcher.onDidChange(onDisk),
    watcher.onDidCreate(onDisk),
    watcher.onDidDelete(onDisk),
    // Unsaved state: text documents (an edit, an undo back to the saved text, a revert), notebooks, and the
    // tabs of every editor kind (custom editors say it only there); a save or a close ends it.
    vscode.workspace.onDidChangeTextDocument((e) => named(e.document.uri) && soon()),
    vscode.workspace.onDidSaveTextDocument((d) => named(d.uri) && soon()),
    vscode.workspace.onDidCloseTextDocument((d) => named(d.uri) && soon()),
    vscode.workspace.onDidChangeNotebookDocument((e) => named(e.notebook.uri) && soon()),
    vscode.window.tabGroups.onDidChangeTabs((e) => e.changed.length > 0 && soon()),
  ];
  return new vscode.Disposable(() => {
    settled.dispose();
    for (const s of subscriptions) s.dispose();
  });
}
