// package.json claims the VS Code versions the tests run on: engines.vscode is ^ the oldest release the
// smoke-oldest tier installs (scripts/tools.mjs OLDEST), @types/vscode is that minor (vsce refuses types
// newer than the engine), and the newest release the other tiers run is inside the range.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { NEWEST, OLDEST } from '../../scripts/tools.mjs';

const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const minor = (v: string) => v.split('.').slice(0, 2).join('.');

test('engines.vscode is ^ the oldest VS Code the smoke test runs on, and the code-server pins name their VS Code', () => {
  assert.equal(manifest.engines.vscode, `^${minor(OLDEST.vscode)}.0`);
  // code-server 4.x.y ships VS Code 1.x.z (z may differ: 4.99.4 is VS Code 1.99.3).
  for (const r of [OLDEST, NEWEST]) assert.equal(r.vscode.split('.')[1], r.version.split('.')[1]);
  assert.ok(Number(NEWEST.vscode.split('.')[1]) >= Number(OLDEST.vscode.split('.')[1]));
});

test('@types/vscode is the oldest claimed VS Code, so the compiler refuses API it does not have', () => {
  assert.equal(manifest.devDependencies['@types/vscode'], `~${minor(OLDEST.vscode)}.0`);
});
