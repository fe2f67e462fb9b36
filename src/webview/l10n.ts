// The preview page's localizer. The extension localizes with vscode.l10n and hands the page the same bundle
// (vscode.l10n.bundle, in the shell's data-l10n attribute: previewHtml.ts), so the page's messages have one
// source of truth: their English text in `l10n.t('…')` calls here, exported to l10n/bundle.l10n.json with the
// extension's. Without a bundle (English, or unit tests) the messages are shown as written.
import { bundleLocalizer, type Localizer } from '../shared/l10n';

let current: Localizer = bundleLocalizer(undefined);

export const l10n: Localizer = { t: (message, ...args) => current.t(message, ...args) };

/** Uses the bundle the host put in the page (a JSON object of strings); anything else leaves English. */
export function useBundle(json: string | undefined): void {
  if (!json) return;
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return;
    const bundle: Record<string, string> = {};
    for (const [k, s] of Object.entries(v)) if (typeof s === 'string') bundle[k] = s;
    current = bundleLocalizer(bundle);
  } catch {
    // A bundle the page cannot read: the page stays in English rather than failing.
  }
}
