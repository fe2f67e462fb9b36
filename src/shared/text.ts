// Plain-text helpers every layer shares (CLI text, labels, tooltips, re-grounding context).
import { ENGLISH, type Localizer } from './l10n';

/** Whitespace `oneLine` would change: any but a single space between two other characters. */
const NOT_ONE_LINE = /[^\S ]| {2}|^ | $/;

/** `s` on one line (whitespace runs become one space) and at most `max` characters, cut with `…`. */
export function oneLine(s: string, max: number): string {
  // Most labels are one line already: tested first, since the replace is slow on a cold start (10,000 rows: ~100 ms).
  const t = NOT_ONE_LINE.test(s) ? s.replace(/\s+/g, ' ').trim() : s;
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

/**
 * Characters that act rather than show, but the tab and the line feed: C0 controls, DEL, C1 controls
 * (a terminal may read U+009B as CSI), and those that change how the text around them reads (bidi
 * overrides and isolates, marks, zero-width joiners, BOM). The preview page shows each as ⟨U+XXXX⟩
 * (webview/text.ts); the CLI escapes them (`shown`).
 */
export const INVISIBLE_RANGES =
  '\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u061C\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB';
const CONTROL = new RegExp(`[\\t\\n${INVISIBLE_RANGES}]`);
const CONTROLS = new RegExp(CONTROL.source, 'g');
/** CONTROL but the line feed: what `shownLines` escapes (a text of many lines has a line feed at once). */
const CONTROL_BUT_LF = new RegExp(`[\\t${INVISIBLE_RANGES}]`);
const NAMED: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f', '\r': '\\r' };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const n = c.charCodeAt(0);
  if (n < 0x80) return '\\' + n.toString(8).padStart(3, '0'); // ESC → \033, DEL → \177 (as git quotes them)
  if (n <= 0x9f) return '\\x' + n.toString(16);
  return '\\u' + n.toString(16);
}

/**
 * A value (a file name, a prompt, a label, a session name) as text output shows it, the way git
 * shows a path with `core.quotePath`: unchanged when it holds no control character; otherwise
 * quoted as a whole, with each control character escaped (`\t`, `\n`, `\033`, `\x9b`, `\u202e`)
 * and `"` and `\` escaped, so a name can neither act on the terminal nor pass for a line of output.
 * JSON output needs none of this (JSON.stringify escapes what it must).
 */
export function shown(s: string): string {
  if (!CONTROL.test(s)) return s;
  return '"' + s.replace(/["\\]/g, '\\$&').replace(CONTROLS, escapeOne) + '"';
}

/**
 * Text output made of lines: every control character but the line ends escaped as `shown` escapes
 * it (no quotes). The last guard of the CLI's text output, behind `shown` on each value.
 */
export function shownLines(text: string): string {
  return CONTROL_BUT_LF.test(text) ? text.replace(CONTROLS, (c) => (c === '\n' ? c : escapeOne(c))) : text;
}
