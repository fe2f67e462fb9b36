// package.json's words and walkthrough: every %key% has its English text in package.nls.json (and no text there
// is left unused), and the first-run walkthrough's steps name media that ship and commands that exist.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(__dirname, '..', '..');
const raw = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
const manifest = JSON.parse(raw);
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (v: string) => v.replace(/^%(.+)%$/, (_, k: string) => nls[k] ?? `<missing ${k}>`);

test('every %key% of package.json has its text in package.nls.json, and every text there is used', () => {
  const keys = [...raw.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]!);
  assert.ok(keys.length > 40, `${keys.length} keys`);
  assert.deepEqual(
    keys.filter((k) => !(k in nls)),
    [],
  );
  assert.deepEqual(
    Object.keys(nls).filter((k) => !keys.includes(k)),
    [],
  );
  for (const [k, v] of Object.entries(nls)) assert.ok(v.trim(), `${k} is empty`);
});

test("package.json's words are all %key% (only the product's name is written out)", () => {
  const raw: string[] = [];
  const WORDED =
    /^(title|shortTitle|name|description|markdownDescription|contents|label|altText|deprecationMessage|markdownDeprecationMessage|enumDescriptions|markdownEnumDescriptions|category|contextualTitle)$/;
  const walk = (v: unknown, at: string, key: string): void => {
    if (typeof v === 'string') {
      if (WORDED.test(key) && !/^%[^%]+%$/.test(v) && v !== 'Agent Rewind') raw.push(`${at} = ${v}`);
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`, k);
  };
  walk(manifest.contributes, 'contributes', '');
  assert.deepEqual(raw, []);
  assert.match(manifest.description, /^%[^%]+%$/);
});

test('the walkthrough: four steps, each with shipped markdown and links only to commands that exist', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;
  assert.deepEqual(
    walkthrough.steps.map((s: { id: string }) => s.id),
    ['connect', 'checkpoint', 'preview', 'undo'],
  );
  const commands = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));
  const views = Object.values(manifest.contributes.views)
    .flat()
    .map((v) => (v as { id: string }).id);
  for (const v of views) commands.add(`${v}.focus`);
  const ignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
  for (const step of walkthrough.steps) {
    const md = step.media.markdown as string;
    assert.ok(fs.readFileSync(path.join(root, md), 'utf8').startsWith('## '), `${md} is a markdown page`);
    assert.match(ignore, /^!media\/walkthrough\/\*\.md$/m, 'the walkthrough pages ship in the VSIX');
    const links = [...text(step.description).matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]!);
    assert.ok(links.length > 0, `${step.id} offers a button`);
    for (const c of links) assert.ok(commands.has(c), `${step.id} links to ${c}, which is no command`);
    assert.ok(step.completionEvents.length > 0, `${step.id} can be completed`);
  }
});
