import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { contentSecurityPolicy, escapeAttr, makeNonce, previewHtml } from '../../src/extension/preview/previewHtml';
import { emptyPreviewModel, type PreviewModel } from '../../src/shared/messages';
import { decide, initialScope, oneLine, splitPath, visible } from '../../src/webview/text';

const repo = join(import.meta.dirname, '../..');

const CSP_SOURCE = 'https://*.vscode-cdn.net';
const base = {
  cspSource: CSP_SOURCE,
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/preview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/preview.css',
};

function cspOf(html: string): string {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m, 'a CSP meta tag');
  return m[1]!.replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

function directives(csp: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values.join(' '));
  }
  return out;
}

describe('previewHtml', () => {
  it('has a strict CSP with a nonce, the webview source for styles, fonts and images, and nothing else', () => {
    const html = previewHtml({ ...base, nonce: 'abcdefghijklmnopqrstuvwx' });
    const d = directives(cspOf(html));
    assert.equal(d.get('default-src'), "'none'");
    assert.equal(d.get('script-src'), "'nonce-abcdefghijklmnopqrstuvwx'");
    assert.equal(d.get('style-src'), CSP_SOURCE);
    assert.equal(d.get('font-src'), CSP_SOURCE);
    assert.equal(d.get('img-src'), CSP_SOURCE);
    assert.equal(d.get('base-uri'), "'none'");
    for (const [name, value] of d) {
      assert.doesNotMatch(value, /unsafe-inline|unsafe-eval|\*(?!\.)|data:|blob:/, `${name} stays strict`);
    }
    // The CSP comes before anything that loads.
    assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<link'));
    assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<script'));
  });

  it('loads its only script by src with the CSP nonce: no inline script, no script without the nonce', () => {
    const html = previewHtml(base);
    const nonce = /'nonce-([^']+)'/.exec(cspOf(html))![1]!;
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    assert.equal(scripts.length, 1);
    assert.equal((html.match(/<script\b/gi) ?? []).length, 1, 'no other script tag');
    const [, attrs, body] = scripts[0]!;
    assert.match(attrs!, new RegExp(`\\bnonce="${nonce.replace(/[+/=]/g, (c) => `\\${c}`)}"`));
    assert.match(attrs!, new RegExp(`\\bsrc="${base.scriptUri.replace(/[.+/]/g, (c) => `\\${c}`)}"`));
    assert.equal(body!.trim(), '', 'the script tag has no inline code');
  });

  it('has no inline styles or handlers, and styles only by link', () => {
    const html = previewHtml({ ...base, codiconUri: 'https://x.vscode-cdn.net/dist/webview/codicon.css' });
    assert.doesNotMatch(html, /<style\b/i);
    assert.doesNotMatch(html, /\sstyle\s*=/i);
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i);
    assert.doesNotMatch(html, /javascript:/i);
    const links = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(links, ['https://x.vscode-cdn.net/dist/webview/codicon.css', base.styleUri]);
  });

  it('uses a fresh random nonce each time', () => {
    const a = cspOf(previewHtml(base));
    const b = cspOf(previewHtml(base));
    assert.notEqual(a, b);
    const n = makeNonce();
    assert.match(n, /^[A-Za-z0-9+/]{24}$/);
    assert.notEqual(n, makeNonce());
  });

  it('accepts vscode.Uri-like values and escapes them into attributes', () => {
    const uri = { toString: () => 'https://h.vscode-cdn.net/a"><img src=x onerror=alert(1)>.js' };
    const html = previewHtml({ ...base, scriptUri: uri as unknown as string });
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /src="https:\/\/h\.vscode-cdn\.net\/a&quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;\.js"/);
    assert.equal(escapeAttr(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('refuses a cspSource or nonce that would break out of the policy', () => {
    assert.throws(() => contentSecurityPolicy("https://a; script-src 'unsafe-inline'", 'abcdefghijklmnopqrstuvwx'));
    assert.throws(() => contentSecurityPolicy('https://a" onload="x', 'abcdefghijklmnopqrstuvwx'));
    assert.throws(() => contentSecurityPolicy('', 'abcdefghijklmnopqrstuvwx'));
    assert.throws(() => contentSecurityPolicy("'self' 'unsafe-inline'", 'abcdefghijklmnopqrstuvwx'));
    // What code-server actually sends (seen in the e2e tier): a quoted keyword and a host.
    assert.match(
      contentSecurityPolicy("'self' https://*.vscode-cdn.net", 'abcdefghijklmnopqrstuvwx'),
      /style-src 'self' https:\/\/\*\.vscode-cdn\.net;/,
    );
    assert.throws(() => contentSecurityPolicy(CSP_SOURCE, "x' 'unsafe-inline"));
    assert.throws(() => contentSecurityPolicy(CSP_SOURCE, 'short'));
  });

  it('has a noscript fallback, the live regions, and the app container', () => {
    const html = previewHtml(base);
    assert.match(html, /<noscript>[\s\S]*Nothing has been changed[\s\S]*<\/noscript>/);
    assert.match(html, /id="status"[^>]*role="status"[^>]*aria-live="polite"/);
    assert.match(html, /id="alert"[^>]*role="alert"/);
    assert.match(html, /<main id="app"/);
    assert.match(html, /<html lang="en">/);
    assert.doesNotMatch(html, /data-codicons/, 'no codicon link unless given');
  });
});

describe('preview webview assets', () => {
  it('media/preview.css uses theme variables only: no colour literal', () => {
    const css = readFileSync(join(repo, 'media/preview.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    assert.doesNotMatch(css, /#[0-9a-f]{3,8}\b/i);
    assert.doesNotMatch(css, /\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/i);
    assert.doesNotMatch(css, /:\s*(white|black|red|green|blue|yellow|orange|gray|grey)\b/i);
    assert.doesNotMatch(css, /url\(/i, 'no image or font loaded from the stylesheet');
    assert.match(css, /var\(--vscode-focusBorder\)/);
  });

  it('the webview script never turns strings into markup', () => {
    const dir = join(repo, 'src/webview');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const src = readFileSync(join(dir, f), 'utf8').replace(/^\s*\/\/.*$/gm, '');
      assert.doesNotMatch(
        src,
        /\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|\beval\(|new Function\b|createContextualFragment|DOMParser/,
        f,
      );
      assert.doesNotMatch(src, /\.style\.|setAttribute\(\s*['"]style['"]/, `${f}: no inline style`);
    }
  });
});

describe('preview webview text', () => {
  it('shows direction overrides and invisible characters instead of obeying them', () => {
    assert.equal(visible('invoice\u202Egnp.exe'), 'invoice\u27E8U+202E\u27E9gnp.exe');
    assert.equal(visible('a\u2066b\u200Bc\u0000'), 'a\u27E8U+2066\u27E9b\u27E8U+200B\u27E9c\u27E8U+0000\u27E9');
    assert.equal(visible('<img src=x onerror=alert(1)>'), '<img src=x onerror=alert(1)>', 'markup is left as text for textContent');
    assert.equal(oneLine('a\nb\tc'), 'a \u23CE b c');
  });

  it('splits display paths into name and folder', () => {
    assert.deepEqual(splitPath('src/a/b.ts'), { name: 'b.ts', folder: 'src/a' });
    assert.deepEqual(splitPath('b.ts'), { name: 'b.ts', folder: '' });
    assert.deepEqual(splitPath('src\\win\\c.ts'), { name: 'c.ts', folder: 'src\\win' });
    assert.deepEqual(splitPath('dir/'), { name: 'dir', folder: '' });
  });

  const m = (over: Partial<PreviewModel> = {}): PreviewModel => ({
    ...emptyPreviewModel(),
    target: { id: 'c', label: 'l', kind: 'prompt', time: '2025-01-01T00:00:00Z' },
    files: [1, 2, 3].map((i) => ({
      path: `/w/${i}`,
      rel: `${i}`,
      action: 'restore' as const,
      insertions: 1,
      deletions: 1,
      sessions: ['s'],
    })),
    sessions: ['s'],
    scope: { default: 'files', available: ['files', 'conversation', 'both'] },
    conversation: { promptText: 'p', promptTime: '', kept: 1, dropped: 1, session: 's', filesKeepingEdits: [] },
    ...over,
  });
  const problem = (reason: string) => ({ path: '/w/1', rel: '1', reason });

  it('labels the Rewind button with what it will do', () => {
    assert.equal(decide(m(), 'files', false, 0, false).label, 'Rewind 3 files');
    assert.equal(decide(m(), 'conversation', false, 0, false).label, 'Rewind conversation');
    assert.equal(decide(m(), 'both', false, 0, false).label, 'Rewind 3 files and conversation');
    assert.equal(decide(m({ files: m().files.slice(0, 1) }), 'files', false, 0, false).label, 'Rewind 1 file');
    const none = decide(m({ files: [] }), 'files', false, 0, false);
    assert.equal(none.enabled, false);
  });

  it('stops on blocked files unless forced, on dirty editors always, and never for a conversation-only rewind', () => {
    const blocked = m({ blocked: [problem('modified-outside')] });
    assert.equal(decide(blocked, 'files', false, 0, false).enabled, false);
    assert.deepEqual([decide(blocked, 'files', true, 0, false).enabled, decide(blocked, 'files', true, 0, false).force], [true, true]);
    assert.deepEqual(
      [decide(blocked, 'conversation', true, 0, false).enabled, decide(blocked, 'conversation', true, 0, false).force],
      [true, false],
    );
    const dirty = m({ dirty: [problem('unsaved')], blocked: [problem('modified-outside')] });
    assert.equal(decide(dirty, 'both', true, 0, false).enabled, false);
    assert.equal(decide(dirty, 'conversation', false, 0, false).enabled, true);
    assert.equal(decide(m(), 'files', false, 0, true).enabled, false, 'busy');
    assert.equal(decide(m({ conversation: null }), 'conversation', false, 0, false).enabled, false);
  });

  it('starts from the offered default scope, or the first offered one', () => {
    assert.equal(initialScope(m()), 'files');
    assert.equal(initialScope(m(), 'both'), 'both');
    assert.equal(initialScope(m({ scope: { default: 'both', available: ['conversation'] } })), 'conversation');
    assert.equal(initialScope(m({ scope: { default: 'files', available: [] } })), null);
  });
});
