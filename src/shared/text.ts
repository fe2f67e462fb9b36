// Plain-text helpers every layer shares (CLI text, labels, tooltips, re-grounding context).
import { ENGLISH, type Localizer } from './l10n';

/** `s` on one line (whitespace runs become one space) and at most `max` characters, cut with `…`. */
export function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/**
 * Our own sentences for a markdown tooltip, their markdown characters escaped. Unlike VS Code's
 * `appendText` (which turns every space into `&nbsp;`, so a long sentence wraps mid-word), they
 * still wrap between words. Agent-provided strings keep going through `appendText`.
 */
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&');
}

/**
 * A checkpoint's one count, as every surface words it: "3 files to rewind", "1 file to rewind", "nothing to
 * rewind" (the CLI in English; the extension passes vscode.l10n).
 */
export function rewindCountWords(n: number, l10n: Localizer = ENGLISH): string {
  if (!n) return l10n.t('nothing to rewind');
  return n === 1 ? l10n.t('1 file to rewind') : l10n.t('{0} files to rewind', n);
}

/**
 * A tree row's label: one line, cut only past what any sidebar shows. The tree cuts the row where
 * the sidebar ends, with its own ellipsis; a label we cut as well ends in "……" whenever the
 * sidebar ends just after it. So the tree's is the one ellipsis (the whole text is in the tooltip).
 */
export function treeLabel(s: string): string {
  return oneLine(s, 200);
}
