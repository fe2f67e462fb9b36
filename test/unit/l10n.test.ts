// Localization: the bundle the VS Code exporter makes from the sources (l10n/bundle.l10n.json) is current, the
// shared wording speaks English to the CLI and a bundle's language when given a localizer, and the preview
// page says its words from the bundle the extension puts in the page.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as ts from 'typescript';
import { previewHtml } from '../../src/extension/preview/previewHtml';
import { describeSummary } from '../../src/core/timeline/turns';
import { bundleLocalizer, ENGLISH, formatMessage } from '../../src/shared/l10n';
import { emptyPreviewModel } from '../../src/shared/messages';
import { REASONS, reasonTable, yourEditWords } from '../../src/shared/reasons';
import { rewindCountWords } from '../../src/shared/text';
import { useBundle } from '../../src/webview/l10n';
import { decide, notRestorableReason } from '../../src/webview/text';
import { tempDir } from '../helpers/tmp';

const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

const kept = JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;

/** Every `….l10n.t('…')` / `l10n.t('…')` message in src/, read with the TypeScript parser (not the exporter). */
function messagesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(path.join(root, 'src')).filter((f) => f.endsWith('.ts'))) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 't') {
        const on = n.expression.expression;
        const isL10n = (ts.isIdentifier(on) && on.text === 'l10n') || (ts.isPropertyAccessExpression(on) && on.name.text === 'l10n');
        const first = n.arguments[0];
        if (isL10n && first && ts.isStringLiteralLike(first)) found.set(first.text, path.relative(root, file));
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

test('l10n/bundle.l10n.json is what the exporter makes of the sources now (run npm run l10n after changing a message)', () => {
  const out = tempDir('ar-l10n-');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'l10n.mjs'), '--out', out], { cwd: root, stdio: 'ignore' });
  const fresh = JSON.parse(fs.readFileSync(path.join(out, 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
  assert.deepEqual(kept, fresh);
});

test('every l10n.t message of the extension, the preview page and the shared wording is in the bundle, and nothing else', () => {
  const inSource = messagesInSource();
  assert.ok(inSource.size > 300, `${inSource.size} messages`);
  assert.deepEqual(
    [...inSource].filter(([m]) => kept[m] !== m).map(([m, file]) => `${file}: ${m}`),
    [],
  );
  assert.deepEqual(
    Object.keys(kept).filter((m) => !inSource.has(m)),
    [],
  );
  // Each surface is in it: a tree row, the status bar, the preview page, the preview's shell, the shared count.
  for (const m of [
    'Load {0} more',
    'Agent Rewind: recording {0}, {1}',
    'Nothing to rewind',
    'Preparing the preview…',
    '{0} files to rewind',
  ])
    assert.equal(inSource.has(m), true, m);
  assert.equal(manifest.l10n, './l10n', 'package.json points VS Code at the bundles');
  assert.match(fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8'), /^!l10n\/bundle\.l10n\*\.json$/m, 'the bundles ship in the VSIX');
});

test('formatMessage fills {0}, {1}… as VS Code does; a bundle translates by the English message', () => {
  assert.equal(formatMessage('{0} of {1}, {0} again, {2} stays', [3, 'x']), '3 of x, 3 again, {2} stays');
  const de = bundleLocalizer({ '{0} files to rewind': '{0} Dateien zurückzuspulen', toString: 'no' });
  assert.equal(de.t('{0} files to rewind', 4), '4 Dateien zurückzuspulen');
  assert.equal(de.t('nothing to rewind'), 'nothing to rewind', 'a message the bundle lacks stays English');
  assert.equal(ENGLISH.t('{0} files to rewind', 4), '4 files to rewind');
});

test('shared wording: English for the CLI by default, the localizer’s words when one is given — one function either way', () => {
  assert.deepEqual(
    [0, 1, 5].map((n) => rewindCountWords(n)),
    ['nothing to rewind', '1 file to rewind', '5 files to rewind'],
  );
  const de = bundleLocalizer({ '1 file to rewind': '1 Datei zurückzuspulen', 'nothing to rewind': 'nichts zurückzuspulen' });
  assert.deepEqual(
    [0, 1].map((n) => rewindCountWords(n, de)),
    ['nichts zurückzuspulen', '1 Datei zurückzuspulen'],
  );
  assert.equal(describeSummary({ total: 3, restore: 2, delete: 1, recreate: 0 }), '3 files will change: 2 restored, 1 deleted');
  assert.equal(REASONS.special.short, 'not a regular file or symlink');
  assert.equal(reasonTable(bundleLocalizer({ 'not a regular file or symlink': 'keine Datei' })).special.short, 'keine Datei');
  assert.equal(
    yourEditWords({ how: 'observed', since: '14:02', restored: { time: '14:05', undo: true } }),
    'your own edit, seen at 14:02 and restored by Undo at 14:05',
  );
});

test('the preview page takes its bundle from the shell the extension writes, and falls back to English', () => {
  const bundle = { Rewind: 'Zurückspulen' };
  const html = previewHtml({ cspSource: 'https://*.vscode-cdn.net', scriptUri: 's.js', styleUri: 's.css', bundle, language: 'de' });
  assert.match(html, /<html lang="de">/);
  const attr = /<body data-l10n="([^"]*)">/.exec(html);
  assert.ok(attr, 'the bundle is in the page');
  const json = attr[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  assert.match(
    previewHtml({ cspSource: 'https://*.vscode-cdn.net', scriptUri: 's.js', styleUri: 's.css' }),
    /<html lang="en">\n[^]*<body>/,
  );
  try {
    useBundle(json);
    assert.equal(decide(emptyPreviewModel(), null, false, 0, false).label, 'Zurückspulen');
    assert.equal(notRestorableReason('special'), REASONS.special.long, 'a message the bundle lacks stays English');
    useBundle('not json');
    assert.equal(decide(emptyPreviewModel(), null, false, 0, false).label, 'Zurückspulen', 'an unreadable bundle changes nothing');
  } finally {
    useBundle('{}');
  }
  assert.equal(decide(emptyPreviewModel(), null, false, 0, false).label, 'Rewind');
});
