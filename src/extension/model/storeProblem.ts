// The "store unusable" state: this workspace's store exists but cannot be read (damaged store.json, a
// newer format, a folder that is not a store). Nothing records or rewinds; the status bar and the Files
// view say so and offer to reveal the folder or move it aside (renamed, never deleted) and start fresh.
import * as vscode from 'vscode';
import { moveStoreAside } from '../../core/storeFiles/workspaceStore';
import { CMD, type CommandId, CTX, VIEW } from '../commandIds';
import { localizedMessage } from '../../core/errors';

export function showStoreUnusable(dir: string, error: Error, output: vscode.LogOutputChannel): vscode.Disposable[] {
  const message = vscode.l10n.t("Agent Rewind cannot use this workspace's store ({0}): {1}", dir, localizedMessage(error, vscode.l10n));
  const revealFolder = vscode.l10n.t('Reveal Folder');
  const moveAsideAndStart = vscode.l10n.t('Move Aside and Start Fresh');
  output.error(message);
  const item = vscode.window.createStatusBarItem('agentRewind.status', vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('Agent Rewind');
  item.text = `$(error) ${vscode.l10n.t('Agent Rewind: store unusable')}`;
  item.tooltip = message; // plain text: the error may quote file content
  item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
  item.command = { command: `${VIEW.files}.focus`, title: vscode.l10n.t('Show Agent Rewind') };
  item.show();
  void vscode.commands.executeCommand('setContext', CTX.storeUnusable, true);
  void vscode.window.showErrorMessage(message, revealFolder, moveAsideAndStart).then((pick) => {
    if (pick === revealFolder) void vscode.commands.executeCommand(CMD.revealStoreFolder);
    else if (pick) void vscode.commands.executeCommand(CMD.moveStoreAside);
  });

  const reveal = async () => {
    await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(dir)).then(undefined, () => vscode.env.clipboard.writeText(dir));
    output.info(`Store folder: ${dir}`);
  };
  const moveAside = async () => {
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t('Move the damaged store aside and start with an empty one?'),
      {
        modal: true,
        detail: vscode.l10n.t(
          '{0} is renamed to {0}.damaged-<time> (nothing is deleted). Earlier recordings stay there but cannot be rewound to from VS Code.',
          dir,
        ),
      },
      moveAsideAndStart,
    );
    if (ok !== moveAsideAndStart) return;
    const moved = moveStoreAside(dir);
    output.info(`Moved the unusable store to ${moved}.`);
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
  };
  const handlers: Partial<Record<CommandId, () => unknown>> = { [CMD.revealStoreFolder]: reveal, [CMD.moveStoreAside]: moveAside };
  const registered = (Object.values(CMD) as CommandId[]).map((id) =>
    vscode.commands.registerCommand(
      id,
      handlers[id] ?? (() => vscode.window.showErrorMessage(message, revealFolder).then((p) => (p ? reveal() : undefined))),
    ),
  );
  return [item, ...registered];
}
