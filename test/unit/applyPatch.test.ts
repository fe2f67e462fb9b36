import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parsePatchOps, patchPaths } from '../../src/agents/common/applyPatch';

const PATCH = [
  '*** Begin Patch',
  '*** Add File: src/new.ts',
  '+export const x = 1;',
  '*** Update File: src/old.ts',
  '*** Move to: src/moved.ts',
  '@@ function a',
  '-a',
  '+b',
  '*** End of File',
  '*** Delete File: /abs/gone.txt',
  '*** Update File: src/old.ts',
  '@@',
  '-c',
  '+d',
  '*** End Patch',
  '',
].join('\n');

describe('apply_patch paths', () => {
  it('lists add, update (with its move target) and delete, in order', () => {
    assert.deepEqual(parsePatchOps(PATCH), [
      { op: 'add', path: 'src/new.ts' },
      { op: 'update', path: 'src/old.ts', moveTo: 'src/moved.ts' },
      { op: 'delete', path: '/abs/gone.txt' },
      { op: 'update', path: 'src/old.ts' },
    ]);
  });
  it('resolves relative paths against the cwd, keeps absolute ones, de-duplicates', () => {
    assert.deepEqual(patchPaths(PATCH, '/ws', 'posix'), {
      paths: ['/ws/src/new.ts', '/ws/src/old.ts', '/ws/src/moved.ts', '/abs/gone.txt'],
      bad: [],
    });
  });
  it('reports relative paths it cannot place (no cwd) and text that is not a patch', () => {
    assert.deepEqual(patchPaths(PATCH, undefined, 'posix'), {
      paths: ['/abs/gone.txt'],
      bad: ['src/new.ts', 'src/old.ts', 'src/moved.ts'],
    });
    assert.equal(parsePatchOps('echo hi'), null);
    assert.equal(patchPaths('', '/ws', 'posix'), null);
  });
  it('reads CRLF patches and Windows paths on win32', () => {
    const crlf = '*** Begin Patch\r\n*** Add File: a\\b.txt\r\n+x\r\n*** End Patch\r\n';
    assert.deepEqual(patchPaths(crlf, 'C:\\ws', 'win32'), { paths: ['C:\\ws\\a\\b.txt'], bad: [] });
  });
  it('reads the patches the real Codex CLI and the VS Code fixture sent', () => {
    const fx = path.join(__dirname, '../fixtures/agents');
    const vs = JSON.parse(fs.readFileSync(path.join(fx, 'vscode/pre-apply_patch.json'), 'utf8'));
    assert.deepEqual(patchPaths(vs.tool_input.input, vs.cwd, 'posix')!.paths, [
      '/WORKSPACE/test/net.test.ts',
      '/WORKSPACE/test/retry.test.ts',
      '/WORKSPACE/test/fixtures/empty.json',
      '/WORKSPACE/test/old.test.ts',
    ]);
    const codex = fs
      .readFileSync(path.join(fx, 'codex/real-0.171.0/hooks.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).payload)
      .filter((p) => p.hook_event_name === 'PreToolUse' && p.tool_name === 'apply_patch');
    assert.ok(codex.length > 0, 'the capture has apply_patch calls');
    for (const p of codex) {
      const r = patchPaths(p.tool_input.command, p.cwd, 'posix')!;
      assert.ok(r.paths.length > 0 && r.bad.length === 0, JSON.stringify(p.tool_input).slice(0, 200));
    }
  });
});
