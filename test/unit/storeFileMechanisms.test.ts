// The one copy of each small store-file mechanism (src/core/storeFiles/): reading a JSON file, reading
// JSONL, and the table of store file names; on real files in a temp folder, and a look over src/ that
// no second copy has grown beside them.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { readJson, readJsonFile } from '../../src/core/storeFiles/jsonFile';
import { eachLine, readJsonLines } from '../../src/core/storeFiles/jsonLines';
import { parseLog } from '../../src/core/storeFiles/fileLog';
import { STORE_ENTRY_NAMES, STORE_FILE } from '../../src/core/storeFiles/names';
import { appendErrorLine } from '../../src/core/storeFiles/errorLog';

const root = path.resolve(__dirname, '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-mech-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('readJsonFile: a valid file gives its value, a missing or garbled one undefined; readJson says which', () => {
  const valid = path.join(tmp, 'valid.json');
  const garbled = path.join(tmp, 'garbled.json');
  const missing = path.join(tmp, 'missing.json');
  fs.writeFileSync(valid, '{"format":1,"roots":["/a"]}\n');
  fs.writeFileSync(garbled, '{"format":1,"ro'); // cut short by a kill
  assert.deepEqual(readJsonFile(valid), { format: 1, roots: ['/a'] });
  assert.equal(readJsonFile(garbled), undefined);
  assert.equal(readJsonFile(missing), undefined);
  assert.deepEqual(readJson(garbled), { ok: false, why: 'garbled', text: '{"format":1,"ro' });
  assert.deepEqual(readJson(missing), { ok: false, why: 'missing' });
  // A folder where a file should be cannot be read: said apart from missing, with the error.
  const r = readJson(tmp);
  assert.deepEqual([r.ok, !r.ok && r.why], [false, 'unreadable']);
});

test('JSONL: a torn last line is skipped, CRLF lines read as LF ones, blank lines skipped but counted', () => {
  const file = path.join(tmp, 'lines.jsonl');
  fs.writeFileSync(file, '{"a":1}\r\n\n{"b":2}\n   \n{"c":3}\n{"d":');
  assert.deepEqual(readJsonLines(file), [{ a: 1 }, { b: 2 }, { c: 3 }]);
  assert.deepEqual(readJsonLines(path.join(tmp, 'none.jsonl')), []);
  const seen: [string, number][] = [];
  eachLine('x\r\n\r\ny\n\nz', (line, i) => seen.push([line, i]));
  assert.deepEqual(seen, [
    ['x', 0],
    ['y', 2],
    ['z', 4],
  ]);
  // The timeline's reader splits with it: a problem names the line an editor shows, without the CR.
  const log = parseLog('\r\n{"t":"checkpoint","id":"c1","kind":"prompt","time":1}\r\ngarbage\r\n{"t":"snap"');
  assert.deepEqual(
    [log.records.map((r) => r.seq), log.problems.map((p) => [p.line, p.text])],
    [
      [0],
      [
        [3, 'garbage'],
        [4, '{"t":"snap"'],
      ],
    ],
  );
});

/** Every .ts file under `d`. */
function sources(d: string): string[] {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

test('every store file name is spelled once, in names.ts: nowhere else in src/ is one a string of its own', () => {
  assert.equal(new Set(STORE_ENTRY_NAMES).size, STORE_ENTRY_NAMES.length, 'no name twice');
  assert.equal(STORE_FILE.log, 'files.jsonl');
  // A name with a dot or a dash is ours wherever it stands; a plain word (scan, lock…) only as a path part.
  const distinct = STORE_ENTRY_NAMES.filter((n) => /[.-]/.test(n)).map((n) => n.replace(/\./g, '\\.'));
  const plain = STORE_ENTRY_NAMES.filter((n) => !/[.-]/.test(n));
  const spelled = new RegExp(`(['"])(${distinct.join('|')})\\1|path\\.join\\([^)]*['"](${plain.join('|')})['"]`, 'g');
  // Not a store's: the user's own log of what could not go into any store.
  const elsewhere = new Set(['src/recording/userLog.ts']);
  const found: string[] = [];
  for (const f of sources(path.join(root, 'src'))) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    if (rel === 'src/core/storeFiles/names.ts' || elsewhere.has(rel)) continue;
    for (const m of fs.readFileSync(f, 'utf8').matchAll(spelled)) found.push(`${rel}: ${m[0]}`);
  }
  assert.deepEqual(found, [], 'import STORE_FILE from src/core/storeFiles/names.ts');
});

test('src/ reads a JSON file only through readJsonFile (jsonFile.ts)', () => {
  const found: string[] = [];
  for (const f of sources(path.join(root, 'src'))) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    const n = (fs.readFileSync(f, 'utf8').match(/JSON\.parse\(\s*(fs\.)?readFileSync\(/g) ?? []).length;
    if (n) found.push(`${rel}: ${n}`);
  }
  assert.deepEqual(found, []);
});

test('appendErrorLine: one JSON line each, a torn last line mended, no write through a planted link, none past the cap', () => {
  const log = path.join(tmp, 'errors.log');
  fs.writeFileSync(log, '{"time":"x","mess'); // a killed writer's half line
  appendErrorLine(log, 'first', { n: 1 });
  appendErrorLine(log, 'second');
  const lines = fs.readFileSync(log, 'utf8').split('\n');
  assert.deepEqual(
    lines.slice(1, 3).map((l) => {
      const { message, detail } = JSON.parse(l) as { message: string; detail?: unknown };
      return { message, detail };
    }),
    [
      { message: 'first', detail: { n: 1 } },
      { message: 'second', detail: undefined },
    ],
  );
  const victim = path.join(tmp, 'victim.txt');
  fs.writeFileSync(victim, 'mine');
  const planted = path.join(tmp, 'planted.log');
  fs.symlinkSync(victim, planted);
  appendErrorLine(planted, 'through the link');
  assert.equal(fs.readFileSync(victim, 'utf8'), 'mine');
  const size = fs.statSync(log).size;
  appendErrorLine(log, 'over the cap', undefined, size);
  assert.equal(fs.statSync(log).size, size);
});

test('every errors.log line is written by appendErrorLine (errorLog.ts): no second append beside it in src/', () => {
  const found: string[] = [];
  for (const f of sources(path.join(root, 'src'))) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    // The OpenCode plugin is source text written into the user's OpenCode config, run by OpenCode, not by us.
    if (rel === 'src/agents/opencode/plugin.ts') continue;
    const n = (fs.readFileSync(f, 'utf8').match(/appendFileSync\(|O_APPEND \|/g) ?? []).length;
    if (n) found.push(`${rel}: ${n}`);
  }
  assert.deepEqual(found, ['src/core/storeFiles/jsonLines.ts: 1']);
});
