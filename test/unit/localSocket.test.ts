// The resident recorder talks to hooks over a local socket only (a Unix socket in a private folder, or a
// named pipe), never TCP: the package tier lets node:net into the CLI's bundles on that promise, and this
// test keeps it. Read from the sources with the TypeScript parser: which files import node:net, and what
// every listen/connect call is given.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { socketPathOf } from '../../src/cli/residentWire';

const SRC = path.resolve(__dirname, '../../src');
const NET_FILES = ['cli/forward.ts', 'cli/resident.ts'];

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const importsNet = (text: string) => /from 'node:net'|require\('node:net'\)|from 'net'/.test(text);

test('only the forwarding hook and the resident import node:net', () => {
  const found = sources(SRC)
    .filter((f) => importsNet(fs.readFileSync(f, 'utf8')))
    .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
    .sort();
  assert.deepEqual(found, NET_FILES);
});

test('every listen and connect there is given the socket path, never a port or host', () => {
  const calls: string[] = [];
  for (const rel of NET_FILES) {
    const file = path.join(SRC, rel);
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
        const name = n.expression.name.text;
        if (['listen', 'connect', 'createConnection'].includes(name)) calls.push(`${rel} ${name}(${n.arguments[0]?.getText(sf) ?? ''})`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  assert.ok(calls.length >= 3, `the resident listens and the hook connects: ${calls.join('; ')}`);
  for (const c of calls) assert.match(c, /\((socketPath)\)$/, `${c}: a local socket path only`);
});

test('the socket path is a file in a private folder, or a named pipe: never host:port', () => {
  const unix = socketPathOf('/home/u/store', { platform: 'linux', runtimeDir: '/run/user/1000', uid: 1000 });
  assert.match(unix, /^\/run\/user\/1000\/agent-rewind-1000\/[0-9a-f]+\.sock$/);
  const pipe = socketPathOf('C:\\Users\\u\\store', { platform: 'win32', runtimeDir: 'C:\\Temp', uid: 0 });
  assert.match(pipe, /^\\\\\.\\pipe\\agent-rewind-[0-9a-f]+$/);
});
