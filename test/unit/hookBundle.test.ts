// The hook runs on every agent tool call and must cost about node's start: its bundle holds each agent's
// payload parser (loaded when its payload arrives) and none of the connectors or transcript code the same
// adapters also carry (scripts/build.mjs leaves those parts out). Read from the built bundle's source map.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ADAPTERS } from '../../src/agents/registry';

const MAP = path.resolve(__dirname, '../../dist/hook.js.map');

test('the hook bundle holds every payload parser and no connector, hooks-file editor or conversation code', () => {
  assert.ok(fs.existsSync(MAP), 'dist/hook.js.map is missing: run `npm run build` first');
  const sources = (JSON.parse(fs.readFileSync(MAP, 'utf8')) as { sources: string[] }).sources.map((s) => s.split(path.sep).join('/'));
  for (const a of ADAPTERS)
    assert.ok(
      sources.some((s) => s.endsWith(`src/agents/${a.id}/hookPayload.ts`)),
      `${a.id}'s parser`,
    );
  const heavy = sources.filter(
    (s) =>
      /src\/agents\/[^/]+\/(connect|conversation|settings|plugin)\.ts$/.test(s) ||
      /src\/agents\/common\/(hooksFile|jsonEdit|flatHooks|settingsConnector|timeline|fork|lines)\.ts$/.test(s) ||
      s.includes('jsonc-parser'),
  );
  assert.deepEqual(heavy, []);
});
