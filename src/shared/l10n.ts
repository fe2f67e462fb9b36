// Localization for the code every surface shares. A function whose words the CLI, the views and the
// preview all show takes a `Localizer`: the CLI (English, not localized) passes nothing and gets ENGLISH,
// the extension passes `vscode.l10n`, the preview page the localizer built from the bundle the extension
// hands it. The English message is written once, in an `l10n.t('…')` call, so `npm run l10n` (the VS Code
// exporter) finds it and puts it in l10n/bundle.l10n.json.

export type L10nArg = string | number | boolean;

/** What `vscode.l10n` offers: a message (its English text is its key) with {0}, {1}… filled from args. */
export interface Localizer {
  t(message: string, ...args: L10nArg[]): string;
}

/** `{0}`, `{1}`… replaced by the args; a placeholder without an arg stays as it is (as in VS Code). */
export function formatMessage(message: string, args: readonly L10nArg[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

/** A localizer over a bundle (message → translation, as VS Code loads l10n/bundle.l10n.<locale>.json). */
export function bundleLocalizer(bundle: Readonly<Record<string, string>> | undefined): Localizer {
  return {
    t: (message, ...args) => {
      const own = bundle && Object.prototype.hasOwnProperty.call(bundle, message) ? bundle[message] : undefined;
      return formatMessage(typeof own === 'string' ? own : message, args);
    },
  };
}

/** The source language: the messages as written. */
export const ENGLISH: Localizer = bundleLocalizer(undefined);

/**
 * A count in words, each form its own message so a translation words both: `one` (for 1) and `many`
 * (with {0}), e.g. `countWords(n, l10n.t('1 file'), l10n.t('{0} files', n))`.
 */
export function countWords(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
