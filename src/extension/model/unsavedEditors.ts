// Unsaved work in this window, of every editor kind, for the checks before a write: a rewind (its
// preview, its check under the store lock and again at the moment of writing) and Connect/Disconnect.
import * as vscode from 'vscode';
import { unsavedAmong } from './unsavedPaths';

/** File paths with unsaved work in this window: text documents, notebooks, and dirty custom-editor tabs. */
function unsavedFiles(): string[] {
  const out: string[] = [];
  const add = (u: vscode.Uri) => u.scheme === 'file' && out.push(u.fsPath);
  for (const d of vscode.workspace.textDocuments) if (d.isDirty) add(d.uri);
  for (const n of vscode.workspace.notebookDocuments) if (n.isDirty) add(n.uri);
  for (const g of vscode.window.tabGroups.all)
    for (const t of g.tabs)
      if (
        t.isDirty &&
        (t.input instanceof vscode.TabInputCustom || t.input instanceof vscode.TabInputNotebook || t.input instanceof vscode.TabInputText)
      )
        add(t.input.uri);
  return out;
}

/** Paths among `paths` with unsaved changes in an editor of any kind. */
export function dirtyAmong(paths: Iterable<string>): string[] {
  return unsavedAmong(paths, unsavedFiles());
}
