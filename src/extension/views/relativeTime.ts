// "3 min ago" for tree descriptions.
import * as vscode from 'vscode';

export function relativeTime(time: number, now = Date.now()): string {
  const s = Math.round((now - time) / 1000);
  if (s < 45) return vscode.l10n.t('just now');
  const m = Math.round(s / 60);
  if (m < 60) return vscode.l10n.t('{0} min ago', m);
  const h = Math.round(m / 60);
  if (h < 24) return vscode.l10n.t('{0} h ago', h);
  const d = Math.round(h / 24);
  if (d < 7) return vscode.l10n.t('{0} d ago', d);
  return new Date(time).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: d > 300 ? 'numeric' : undefined });
}
