// The apply loop with writers other than the CLI's: whatever a writer leaves is verified like content
// (a mode it did not set is a failed file), and a writer that refuses at the moment of writing
// (VS Code: an editor dirtied after the check) ends the rewind with nothing written, reported as vetoed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { claudeToolKind } from '../../src/agents/claude/toolKind';
import { applyRewind, type FileWriter, WriteRefused } from '../../src/core/rewind/apply';
import { readJournal } from '../../src/core/rewind/journal';
import { applyWriteFs } from '../../src/core/rewind/writes';
import { record } from '../../src/recording/recorder';
import { Store } from '../../src/core/store';
import { checkpoints } from '../../src/core/timeline/timeline';
import { verifyStore } from '../../src/core/upkeep/verify';
import { sandbox } from '../helpers/tmp';

function setup() {
  const { ws, store: dir } = sandbox();
  const store = Store.open(dir, { create: true });
  const ev = { agent: 'claude', session: 's1', cwd: ws };
  const prompt = (text: string) => {
    record(store, { ...ev, type: 'prompt', text });
    return checkpoints(store.read().records).at(-1)!.id;
  };
  const write = (rel: string, content: string, mode?: number) => {
    const p = path.join(ws, rel);
    const e = {
      ...ev,
      tool: 'Write',
      kind: claudeToolKind('Write', { file_path: p }),
      input: { file_path: p },
      paths: [p],
      shell: false,
      callId: `c${rel}${content.length}`,
    };
    record(store, { ...e, type: 'before_tool' });
    fs.writeFileSync(p, content);
    if (mode !== undefined) fs.chmodSync(p, mode);
    record(store, { ...e, type: 'after_tool', ok: true });
  };
  return { ws, store, prompt, write };
}

describe('rewind writers', { skip: process.platform === 'win32' ? 'no permission bits on Windows' : false }, () => {
  it('a file written with other permissions than recorded (its chmod failed) is a failed file, named with both modes', async () => {
    const { ws, store, prompt, write } = setup();
    write('run.sh', '#!/bin/sh\necho one\n', 0o755);
    const target = prompt('change it');
    write('run.sh', '#!/bin/sh\necho two\n', 0o644);
    // A writer that writes the content but leaves the mode as the file has it (as a failed chmod would).
    const noChmod: FileWriter = {
      write(writes) {
        for (const w of writes) applyWriteFs(store, { ...w, mode: 0o644 });
        return new Map();
      },
    };
    const r = await applyRewind(store, target, {}, noChmod);
    assert.equal(r.status, 'partial');
    assert.ok('files' in r);
    assert.deepEqual(
      r.files.map((f) => [path.basename(f.path), f.ok, f.error]),
      [['run.sh', false, 'written, but its permissions are 644, not 755 as recorded']],
    );
    assert.equal(fs.readFileSync(path.join(ws, 'run.sh'), 'utf8'), '#!/bin/sh\necho one\n');
  });

  it('a writer refusing at the moment of writing: nothing written, the journal finished, reported as vetoed with the paths', async () => {
    const { ws, store, prompt, write } = setup();
    write('a.txt', 'one\n');
    const target = prompt('next');
    write('a.txt', 'two\n');
    write('b.txt', 'new\n');
    const refusing: FileWriter = {
      write(writes) {
        throw new WriteRefused([writes[0]!.path]);
      },
    };
    const r = await applyRewind(store, target, {}, refusing);
    assert.equal(r.status, 'vetoed');
    assert.ok('paths' in r);
    assert.deepEqual(r.paths, [path.join(ws, 'a.txt')]);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'two\n');
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'new\n');
    assert.equal(readJournal(store), null, 'no journal left: the transaction is finished');
    assert.deepEqual(verifyStore(store).errors, []);
    // Nothing is lost or half-done: a rewind now (the editor saved or closed) writes both.
    const again = await applyRewind(store, target, {}, { write: (ws2) => (ws2.forEach((w) => applyWriteFs(store, w)), new Map()) });
    assert.equal(again.status, 'done');
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\n');
    assert.equal(fs.existsSync(path.join(ws, 'b.txt')), false);
  });
});
