// The rewind writer for VS Code: a WorkspaceEdit per file (create-with-contents / delete), so open
// editors, undo stacks and file watchers see ordinary file changes. What a WorkspaceEdit cannot
// express goes to the file-system writer: symlinks (created, or replaced), the mode of a written
// file. Everything it writes is verified afterwards like content (hash, link, mode, emptied
// folders: core/rewind/transaction.ts), and a chmod that fails is a failed file, never swallowed.
//
// One file per edit, because each is checked right before it is written: the core apply loop
// re-reads the path on disk (a file saved meanwhile is left as it is, its content kept in the
// store), and `holdBack` looks at its editor. The unsaved-work check is repeated at the moment of
// writing: an editor dirtied (or changed) since the rewind's check refuses the whole rewind before
// the first write (WriteRefused), and leaves that one file as it is once writing has begun.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { type FileWriter, fsWriter } from '../../core/rewind/apply';
import type { Write } from '../../core/rewind/writes';
import type { Store } from '../../core/store';
import { pathKey } from '../../core/paths';
import { AgentRewindError } from '../../core/errors';

/** What the rewind's check saw of the open editors, for the check repeated at the moment of writing. */
export interface EditorGate {
  /** Paths among these with unsaved changes in an editor of any kind, now. */
  dirty(paths: readonly string[]): string[];
  /** The version of each open text document among the rewind's paths when the check passed (by path key). */
  seen: Map<string, number>;
}

/** An editor gate whose check is `dirty`, remembering the documents' versions each time it passes. */
export function editorGate(dirty: (paths: readonly string[]) => string[]): EditorGate & { veto: (paths: string[]) => string[] } {
  const seen = new Map<string, number>();
  return {
    dirty,
    seen,
    veto(paths) {
      const found = dirty(paths);
      seen.clear();
      const wanted = new Set(paths.map((p) => pathKey(p)));
      for (const d of vscode.workspace.textDocuments)
        if (d.uri.scheme === 'file' && wanted.has(pathKey(d.uri.fsPath))) seen.set(pathKey(d.uri.fsPath), d.version);
      return found;
    },
  };
}

/** The rewind's paths whose editor changed since the check: dirty now, or a document at another version (or newly opened and dirty). */
export function changedSinceCheck(gate: EditorGate, paths: readonly string[]): string[] {
  const out = new Set(gate.dirty(paths));
  const byKey = new Map(paths.map((p) => [pathKey(p), p]));
  for (const d of vscode.workspace.textDocuments) {
    const p = d.uri.scheme === 'file' ? byKey.get(pathKey(d.uri.fsPath)) : undefined;
    if (p === undefined) continue;
    const then = gate.seen.get(pathKey(p));
    if (d.isDirty || (then !== undefined && then !== d.version)) out.add(p);
  }
  return [...out];
}

function setMode(w: Write): string | null {
  if (w.to === null || w.mode === undefined) return null;
  try {
    fs.chmodSync(w.path, w.mode);
    return null;
  } catch (e) {
    return vscode.l10n.t('written, but its permissions could not be set: {0}', (e as Error).message);
  }
}

export function workspaceEditWriter(store: Store, gate: EditorGate): FileWriter {
  const direct = fsWriter(store);
  return {
    begin(writes) {
      // The check again, with nothing awaited between it and the first edit: a buffer dirtied after
      // the preview (or after the rewind's own check) stops everything here, before any write.
      const changed = changedSinceCheck(
        gate,
        writes.map((w) => w.path),
      );
      if (changed.length) throw new AgentRewindError('write-refused', { paths: changed });
    },
    holdBack: (w) => (changedSinceCheck(gate, [w.path]).length ? 'unsaved-during-rewind' : null),
    async writeOne(w, recheck) {
      if (w.link || (w.to !== null && fs.existsSync(w.path) && fs.lstatSync(w.path).isSymbolicLink())) return direct.writeOne(w, recheck);
      const edit = new vscode.WorkspaceEdit();
      const uri = vscode.Uri.file(w.path);
      if (w.to === null) edit.deleteFile(uri, { ignoreIfNotExists: true });
      else edit.createFile(uri, { overwrite: true, contents: store.content(w.to) });
      // The content is ready (a large file's copy takes a while to read): the path is read once more, and
      // nothing is awaited between that and handing VS Code the edit. A save meanwhile leaves the file as saved.
      // (What VS Code does between taking the edit and writing is its own; the file-system writer has no such window.)
      if (!recheck()) return;
      if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: false })))
        throw new Error(vscode.l10n.t('VS Code did not apply the edit'));
      const e = setMode(w);
      if (e) throw new Error(e);
    },
  };
}
