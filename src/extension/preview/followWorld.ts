// The preview follows the world (issue 42): what it says — "Stopped: unsaved changes", a file changed
// outside the agent, the files to rewind — is checked again by itself when an editor's unsaved state
// changes or a file the plan names changes on disk. (The store's changes reach it through the timeline
// model, which the store watcher reloads.) Events come in bursts (typing, an agent writing): one check
// after they settle. Everything here lives as long as the panel.
import * as vscode from 'vscode';
import { dirtyAmong } from '../model/unsavedEditors';
import { Debouncer } from '../timers';

/** How long the events must be quiet before the preview is checked again. */
export const FOLLOW_DELAY_MS = 250;

/**
 * Calls `recheck` (once per burst) when the unsaved state of one of `paths()` changes, or one of them is
 * created, changed or deleted on disk. `paths`: the files the preview's plan names, asked at each event.
 */
export function followWorld(paths: () => ReadonlySet<string>, recheck: () => void, delayMs = FOLLOW_DELAY_MS): vscode.Disposable {
  let diskChanged = false;
  /** The unsaved files among the plan's, as last seen: a typed character changes nothing the preview says. */
  let unsaved = dirtyAmong(paths()).sort().join('\n');
  const settle = () => {
    const now = dirtyAmong(paths()).sort().join('\n');
    if (now === unsaved && !diskChanged) return;
    unsaved = now;
    diskChanged = false;
    recheck();
  };
  const settled = new Debouncer(delayMs, settle);
  const soon = () => settled.trigger();
  const named = (uri: vscode.Uri) => uri.scheme === 'file' && paths().has(uri.fsPath);
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
