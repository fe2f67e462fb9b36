// Read-only documents for recorded snapshots, so the native diff editor can compare any two
// states: `agent-rewind-snapshot:/abs/path/file.ts?h=<sha256>` (no `h` = the file did not exist).
import * as vscode from 'vscode';
import { isSha256 } from '../../core/storeFiles/blobs';
import type { Store } from '../../core/store';

export const SNAPSHOT_SCHEME = 'agent-rewind-snapshot';

export function snapshotUri(filePath: string, hash: string | null, label: string): vscode.Uri {
  const q = new URLSearchParams();
  if (hash) q.set('h', hash);
  q.set('at', label);
  return vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: vscode.Uri.file(filePath).path, query: q.toString() });
}

export class SnapshotContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: () => Store | undefined) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const hash = new URLSearchParams(uri.query).get('h');
    if (!hash) return '';
    // Only a content hash names a snapshot: `?h=../../dev/zero` reads nothing.
    if (!isSha256(hash)) throw new Error(vscode.l10n.t('Not a snapshot: "{0}" is not a content hash.', hash.slice(0, 80)));
    const store = this.store();
    if (!store) return '';
    const data = store.content(hash); // verified read: a damaged blob throws and VS Code shows the error
    for (let i = 0; i < Math.min(data.length, 8000); i++)
      if (data[i] === 0) return vscode.l10n.t('(binary content, {0} bytes — not shown)', data.length);
    return data.toString('utf8');
  }
}
