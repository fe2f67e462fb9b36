// The Preview webview's HTML: a static shell (live regions, a loading line, a <noscript> note) that
// loads dist/webview/preview.js and media/preview.css. Pure: no vscode runtime, testable under
// plain node. The page never receives model data as markup; the script renders it with DOM APIs.
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import { ENGLISH, type Localizer } from '../../shared/l10n';

type UriLike = vscode.Uri | string;

export interface PreviewHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** `webview.asWebviewUri(<extension>/dist/webview/preview.js)`. */
  scriptUri: UriLike;
  /** `webview.asWebviewUri(<extension>/media/preview.css)`. */
  styleUri: UriLike;
  /**
   * `webview.asWebviewUri(<extension>/dist/webview/codicon.css)`. Optional, and harmless when the file
   * is missing: the script then draws its own icons.
   */
  codiconUri?: UriLike;
  /** For tests only; by default a fresh nonce from crypto.randomBytes. */
  nonce?: string;
  /** The shell's own words (`vscode.l10n`; English by default). */
  l10n?: Localizer;
  /**
   * `vscode.l10n.bundle`, handed to the page (data-l10n) so it says its words in the same language;
   * undefined in English.
   */
  bundle?: Readonly<Record<string, string>>;
  /** The page's language (`vscode.env.language`) when there is a bundle. */
  language?: string;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64');
}

const ATTR: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeAttr = (s: string): string => s.replace(/[&<>"']/g, (c) => ATTR[c]!);

// A CSP source list holds schemes, hosts and wildcards separated by spaces, never what would end
// the directive (;), the policy (,) or the attribute around it.
function checkSource(s: string): string {
  const v = String(s ?? '').trim();
  // Tokens are hosts/schemes or quoted keywords such as 'self' (code-server sends "'self' https://*.vscode-cdn.net").
  const ok = v.split(/ +/).every((t) => /^'(self|none)'$/.test(t) || /^[A-Za-z0-9*+.:/_-]+$/.test(t));
  if (!v || !ok) throw new Error(`previewHtml: unexpected cspSource ${JSON.stringify(s)}`);
  return v;
}

function checkNonce(n: string): string {
  if (!/^[A-Za-z0-9+/_-]{16,}={0,2}$/.test(n)) throw new Error('previewHtml: the nonce must be base64, at least 16 characters');
  return n;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  const src = checkSource(cspSource);
  return [
    `default-src 'none'`,
    `style-src ${src}`,
    `font-src ${src}`,
    `script-src 'nonce-${checkNonce(nonce)}'`,
    `img-src ${src}`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
}

export function previewHtml(opts: PreviewHtmlOptions): string {
  const nonce = opts.nonce ?? makeNonce();
  const csp = contentSecurityPolicy(opts.cspSource, nonce);
  const url = (u: UriLike) => escapeAttr(String(u));
  const codicons = opts.codiconUri !== undefined;
  const l10n = opts.l10n ?? ENGLISH;
  const lang = opts.bundle && opts.language ? opts.language : 'en';
  const bundle = opts.bundle ? ` data-l10n="${escapeAttr(JSON.stringify(opts.bundle))}"` : '';
  return `<!DOCTYPE html>
<html lang="${escapeAttr(lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${codicons ? `<link rel="stylesheet" href="${url(opts.codiconUri!)}" data-codicons>\n` : ''}<link rel="stylesheet" href="${url(opts.styleUri)}">
<title>${escapeAttr(l10n.t('Rewind preview'))}</title>
</head>
<body${bundle}>
<noscript><div class="noscript">${escapeAttr(l10n.t('The rewind preview needs scripts, which are turned off in this view. Nothing has been changed. Close this tab and use the Agent Rewind commands instead.'))}</div></noscript>
<div class="banners">
<div id="status" class="status" role="status" aria-live="polite" aria-atomic="true"></div>
<div id="alert-banner" class="alert-banner"><div id="alert" class="alert" role="alert" aria-atomic="true"></div><div id="alert-actions" class="alert-actions"></div></div>
</div>
<main id="app" class="app" aria-busy="true"><p class="loading">${escapeAttr(l10n.t('Preparing the preview…'))}</p></main>
<script nonce="${escapeAttr(nonce)}" src="${url(opts.scriptUri)}"></script>
</body>
</html>
`;
}
