// Which workspace folder(s) a command acts on: the only one, or the user's pick ("All folders" first).
import * as vscode from 'vscode';

export async function pickFolders(placeHolder: string): Promise<readonly vscode.WorkspaceFolder[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders;
  const all = { label: vscode.l10n.t('All folders'), folders };
  const pick = await vscode.window.showQuickPick(
    [all, ...folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folders: [f] }))],
    { placeHolder },
  );
  return pick?.folders ?? [];
}
