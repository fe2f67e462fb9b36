#!/usr/bin/env node
// Writes l10n/bundle.l10n.json, the English messages every translation starts from, with the VS Code
// exporter (@vscode/l10n-dev, the library behind `vscode-l10n-dev export`). `npm run l10n` after changing a
// message; test/unit/l10n.test.ts fails while the file is stale.
//
// The exporter reads `vscode.l10n.t('…')` in a file that imports 'vscode', and `l10n.t('…')` in one that
// imports '@vscode/l10n' as `l10n`. The extension calls vscode.l10n.t; the shared wording (src/shared,
// src/core), the preview page (src/webview) and the preview's shell (previewHtml.ts) call `l10n.t` on a
// Localizer they are handed (src/shared/l10n.ts), so the CLI stays English and imports nothing. The exporter
// is told so: an import of '@vscode/l10n' as `l10n` is put before each file's text (in memory only).
//
//   node scripts/l10n.mjs [--out <folder>]    (default: l10n/)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getL10nJson } from '@vscode/l10n-dev';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCALIZER = "import * as l10n from '@vscode/l10n';\n";

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const files = sources(path.join(root, 'src'))
  .sort()
  .map((file) => ({ extension: '.ts', contents: LOCALIZER + fs.readFileSync(file, 'utf8') }));
const bundle = await getL10nJson(files);
const at = process.argv.indexOf('--out');
const out = at > 0 ? path.resolve(process.argv[at + 1]) : path.join(root, 'l10n');
fs.mkdirSync(out, { recursive: true });
// As `vscode-l10n-dev export` writes it.
fs.writeFileSync(path.join(out, 'bundle.l10n.json'), JSON.stringify(bundle, undefined, 2));
console.log(`${Object.keys(bundle).length} messages in ${path.relative(process.cwd(), out) || '.'}/bundle.l10n.json`);
