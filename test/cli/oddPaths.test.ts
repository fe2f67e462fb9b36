// Paths a user or a payload gives that are not what they claim, through the real CLI: a transcript that is a
// FIFO (or a folder) is refused at once with exit 1 — never waited on — by `conversation show` and `fork`;
// a session whose working folder is a system folder (/proc, /sys, /dev or below), a missing folder or a
// regular file gets no root and no scan: the hook exits 0, says why once in errors.log, copies nothing.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CLI, cli } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

describe('a transcript that is not a regular file', () => {
  it('conversation show and fork refuse a FIFO and a folder with exit 1 and one sentence, without waiting', () => {
    const dir = tempDir();
    const fifo = path.join(dir, 'session.jsonl');
    execFileSync('mkfifo', [fifo]);
    const store = path.join(dir, 'store');
    for (const transcript of [fifo, dir]) {
      for (const args of [['show'], ['fork', '--before', 'u1']]) {
        // A hang is the failure: the child is killed at the deadline and the status is null.
        const r = spawnSync(process.execPath, [CLI, 'conversation', ...args, '--transcript', transcript, '--json'], {
          env: { ...process.env, AGENT_REWIND_STORE: store, AGENT_REWIND_RESIDENT: '0' },
          encoding: 'utf8',
          timeout: 30000,
        });
        assert.equal(r.status, 1, `${args[0]} ${transcript}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        assert.equal(
          r.stderr,
          `${transcript} is not a regular file (a pipe, a device or a folder), so it was not read: pass the path of a file.\n`,
        );
      }
    }
  });
});

describe('a working folder that cannot be a workspace', () => {
  it('/proc, /sys, /dev (and below), a missing folder, a regular file: no root, nothing copied, said once', () => {
    const parent = tempDir();
    const plainFile = path.join(parent, 'plain.txt');
    fs.writeFileSync(plainFile, 'x\n');
    const cwds = ['/proc', '/sys', '/dev', '/dev/shm', '/proc/self', path.join(parent, 'missing'), plainFile];
    for (const cwd of cwds) {
      const store = path.join(tempDir(), 'store');
      const send = (payload: Record<string, unknown>) => {
        const r = cli(['hook', 'claude'], { store, input: JSON.stringify({ session_id: 's', transcript_path: '', cwd, ...payload }) });
        assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', ''], cwd);
      };
      send({ hook_event_name: 'SessionStart', source: 'startup' });
      send({ hook_event_name: 'UserPromptSubmit', prompt: 'p' });
      const bash = { command: 'ls', description: 'list' };
      send({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: bash, tool_use_id: 'b1' });
      send({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: bash, tool_use_id: 'b1', tool_response: {} });
      send({ hook_event_name: 'Stop' });
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(store, 'store.json'), 'utf8')).roots, [], `${cwd} is no root`);
      assert.equal(fs.existsSync(path.join(store, 'scan', 's.scan')), false, `${cwd}: no baseline`);
      const snaps = fs
        .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .filter((l) => JSON.parse(l).t === 'snap');
      assert.deepEqual(snaps, [], `${cwd}: nothing copied`);
      const said = fs
        .readFileSync(path.join(store, 'errors.log'), 'utf8')
        .trim()
        .split('\n')
        .filter((l) => /cannot be a workspace/.test(l));
      assert.equal(said.length, 1, `${cwd}: said once`);
      assert.match(said[0]!, /does not exist|is not a folder|is a system folder/);
    }
  });
});
