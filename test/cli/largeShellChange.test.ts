// A shell call that changes thousands of files: its PostToolUse records every change (a `before` and an
// `after` each, all copies sound) well inside the 20 s a hook promises — the copies are made durable by
// one flush of the store's file system, not an fsync each (which took most of 20 s at 45,000 files) —
// and rewinding to before the call brings every file back.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';

/** What we promise the agent: a hook never holds it longer than this. */
const PROMISED_MS = 20000;
const FOLDERS = 50;
const PER_FOLDER = 100;

describe('a shell call that changes 5,000 files', () => {
  it('its PostToolUse records all of them within the hook deadline; the rewind before it restores them', () => {
    const { ws, store } = sandbox();
    const name = (d: number, f: number) => path.join(ws, `d${d}`, `f${f}.txt`);
    for (let d = 0; d < FOLDERS; d++) {
      fs.mkdirSync(path.join(ws, `d${d}`));
      for (let f = 0; f < PER_FOLDER; f++) fs.writeFileSync(name(d, f), `original ${d}/${f}\n`);
    }
    const s = new ClaudeSession(store, ws);
    s.start();
    s.prompt('rewrite everything');
    const input = { command: 'rewrite-all', description: 'run' };
    s.hook({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: input, tool_use_id: 'toolu_many' });
    for (let d = 0; d < FOLDERS; d++) for (let f = 0; f < PER_FOLDER; f++) fs.writeFileSync(name(d, f), `changed ${d}/${f}\n`);
    const began = Date.now();
    s.hook({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: input, tool_use_id: 'toolu_many', tool_response: {} });
    const took = Date.now() - began;
    assert.ok(took < PROMISED_MS, `the PostToolUse took ${took} ms`);

    const snaps = fs
      .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; call?: string; phase?: string })
      .filter((r) => r.t === 'snap' && r.call === 'toolu_many');
    assert.equal(snaps.filter((r) => r.phase === 'before').length, FOLDERS * PER_FOLDER);
    assert.equal(snaps.filter((r) => r.phase === 'after').length, FOLDERS * PER_FOLDER);
    assert.equal(cli(['verify'], { store }).status, 0, 'every copy is sound');

    const undo = cli(['rewind', '--before-call', 'toolu_many'], { store });
    assert.equal(undo.status, 0, undo.stderr);
    for (let d = 0; d < FOLDERS; d++)
      for (let f = 0; f < PER_FOLDER; f++) assert.equal(fs.readFileSync(name(d, f), 'utf8'), `original ${d}/${f}\n`);
  });
});
