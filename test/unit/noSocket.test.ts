// The resident recorder and its hooks talk through files in the store's private folder
// (src/resident/residentWire.ts): nothing of ours listens anywhere, on a socket, a pipe or a port. The
// package tier refuses every network module in the shipped bundles on that promise, and this test
// keeps it at the source: no file under src/ imports a module that opens one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const SRC = path.resolve(__dirname, '../../src');

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const NETWORK = /(?:from |require\()'(?:node:)?(?:net|http|https|http2|tls|dgram|dns)'/;

test('no source imports node:net or another network module: no socket, no pipe, no port', () => {
  const files = sources(SRC);
  assert.ok(files.length > 100, `the sources were found (${files.length})`);
  const found = files.filter((f) => NETWORK.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(SRC, f));
  assert.deepEqual(found, []);
});

test('the pattern finds such an import where there is one', () => {
  for (const line of ["import * as net from 'node:net';", "const h = require('https');", "import { createServer } from 'net';"])
    assert.ok(NETWORK.test(line), line);
  assert.ok(!NETWORK.test("import * as fs from 'node:fs';"));
});
