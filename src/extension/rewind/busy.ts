// One long or conflicting operation at a time (rewind, clean-up, purge), reflected in the
// `agentRewind.busy` context key that disables the conflicting commands.
import * as vscode from 'vscode';
import { CTX } from '../commandIds';

export class Busy {
  private current: string | null = null;

  get what(): string | null {
    return this.current;
  }

  async run<T>(what: string, fn: () => Promise<T> | T): Promise<T | undefined> {
    if (this.current) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Agent Rewind is busy ({0}); try again when it has finished.', this.current));
      return undefined;
    }
    this.current = what;
    await vscode.commands.executeCommand('setContext', CTX.busy, true);
    try {
      return await fn();
    } finally {
      this.current = null;
      await vscode.commands.executeCommand('setContext', CTX.busy, false);
    }
  }
}
