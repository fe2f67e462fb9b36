// The rewind writer for VS Code: one WorkspaceEdit (create-with-contents / delete), so open
// editors, undo stacks and file watchers see ordinary file changes. What a WorkspaceEdit cannot
// express goes to the file-system writer: symlinks (created, or replaced), and the mode of a
// recreated file.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { type FileWriter, fsWriter } from '../../core/rewind/apply';
import type { Write } from '../../core/rewind/writes';
import type { Store } from '../../core/store';

export function workspaceEditWriter(store: Store): FileWriter {
  return {
    async write(writes) {
      const errors = new Map<string, string>();
      const edit = new vscode.WorkspaceEdit();
      const direct: Write[] = [];
      const viaEdit: Write[] = [];
      for (const w of writes) {
        const uri = vscode.Uri.file(w.path);
        if (w.link || (w.to !== null && fs.existsSync(w.path) && fs.lstatSync(w.path).isSymbolicLink())) direct.push(w);
        else if (w.to === null) {
          edit.deleteFile(uri, { ignoreIfNotExists: true });
          viaEdit.push(w);
        } else {
          edit.createFile(uri, { overwrite: true, contents: store.content(w.to) });
          viaEdit.push(w);
        }
      }
      if (viaEdit.length) {
        const ok = await vscode.workspace.applyEdit(edit, { isRefactoring: false });
        if (!ok) for (const w of viaEdit) errors.set(w.path, 'VS Code did not apply the edit');
      }
      for (const w of viaEdit) {
        if (errors.has(w.path)) continue;
        try {
          if (w.to !== null && w.mode !== undefined) fs.chmodSync(w.path, w.mode);
        } catch {
          /* reported by the hash check if it matters */
        }
      }
      for (const [p, e] of await fsWriter(store).write(direct)) errors.set(p, e);
      return errors;
    },
  };
}
