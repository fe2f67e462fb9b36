// Our own session log: one line per hook event, safe file names for any session id, the same
// prompt view as a transcript, and a fork that keeps exactly the prefix.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { appendSessionEvent, readSessionLog, sessionLogFile, sessionLogLine, sessionLogName } from '../../src/core/conversation/sessionLog';
import { forkSessionLog } from '../../src/core/conversation/sessionLogFork';
import { loggedPrompts } from '../../src/core/conversation/sessionLogView';
import type { LogRecord } from '../../src/core/storeFiles/records';
import { tempDir } from '../helpers/tmp';

const cp = (id: string): LogRecord => ({ t: 'checkpoint', id, kind: 'prompt', label: 'x', time: 1 });
const call = (tool: string, summary: string, effect: 'none' | 'irreversible' | 'rewindable'): LogRecord => ({
  t: 'call',
  tool,
  summary,
  effect,
  time: 1,
});

/** Writes a session the way the recorder does: one append per event. */
function session(store: string, id: string): void {
  const ev = (e: Record<string, unknown>, records: LogRecord[] = []) =>
    appendSessionEvent(store, { agent: 'copilot', session: id, ...e } as never, records);
  ev({ type: 'session_start', source: 'startup', cwd: '/w' });
  ev({ type: 'prompt', text: 'Add a README', promptId: 'pa' }, [cp('c1')]);
  ev({ type: 'before_tool', tool: 'createFile', callId: 't1' }, [call('createFile', '/w/README.md', 'rewindable')]);
  ev({ type: 'after_tool', tool: 'createFile', callId: 't1', ok: true });
  ev({ type: 'stop' });
  ev({ type: 'prompt', text: 'Publish it' }, [cp('c2')]);
  ev({ type: 'before_tool', tool: 'runInTerminal', callId: 't2' }, [call('runInTerminal', 'npm publish', 'irreversible')]);
  ev({ type: 'after_tool', tool: 'runInTerminal', callId: 't2', ok: false });
  ev({ type: 'prompt', text: 'Add a README' }, [cp('c3')]);
  ev({ type: 'session_end', reason: 'exit' });
}

test('session ids become safe file names: plain ids kept, anything else hashed', () => {
  assert.equal(sessionLogName('0ab3352c-0614-4d2c-942c-0051f270eaf3'), '0ab3352c-0614-4d2c-942c-0051f270eaf3');
  for (const bad of ['../../etc/passwd', '.hidden', 'a/b', 'a\\b', '', 'x'.repeat(201)]) {
    const n = sessionLogName(bad);
    assert.match(n, /^h-[0-9a-f]{40}$/, bad);
    assert.equal(n, `h-${createHash('sha256').update(bad).digest('hex').slice(0, 40)}`);
  }
  assert.equal(path.dirname(sessionLogFile('/s', '../x')), path.join('/s', 'sessions'));
});

test('one line per event, carrying the prompt checkpoint id and the call classification the recorder computed', () => {
  const store = tempDir();
  session(store, 's1');
  const lines = readSessionLog(sessionLogFile(store, 's1'));
  assert.deepEqual(
    lines.map((l) => l.t),
    ['start', 'prompt', 'tool', 'result', 'stop', 'prompt', 'tool', 'result', 'prompt', 'end'],
  );
  assert.deepEqual(lines[1], { t: 'prompt', v: 1, session: 's1', time: lines[1]!.time, id: 'c1', text: 'Add a README', promptId: 'pa' });
  assert.deepEqual(
    { ...lines[6], time: 0 },
    { t: 'tool', v: 1, session: 's1', time: 0, id: 't2', name: 'runInTerminal', summary: 'npm publish', effect: 'irreversible' },
  );
  assert.equal(fs.statSync(sessionLogFile(store, 's1')).mode & 0o777, 0o600);
  assert.equal(sessionLogLine({ type: 'unknown-event', agent: 'a', session: 's' }, [], 1), null);
});

test('appending never throws: a broken store reports through the callback', () => {
  const file = path.join(tempDir(), 'not-a-dir');
  fs.writeFileSync(file, '');
  const errors: string[] = [];
  appendSessionEvent(file, { type: 'stop', agent: 'a', session: 's' }, [], (m) => errors.push(m));
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /^session log: /);
});

test('the view: prompts in order with their tool calls and outcomes', () => {
  const store = tempDir();
  session(store, 's1');
  const prompts = loggedPrompts(readSessionLog(sessionLogFile(store, 's1')));
  assert.deepEqual(
    prompts.map((p) => [p.uuid, p.text, p.tools.map((t) => [t.id, t.name, t.effect, t.ok])]),
    [
      ['c1', 'Add a README', [['t1', 'createFile', 'rewindable', true]]],
      ['c2', 'Publish it', [['t2', 'runInTerminal', 'irreversible', false]]],
      ['c3', 'Add a README', []],
    ],
  );
  for (const p of prompts) assert.match(p.time, /^\d{4}-\d\d-\d\dT.*Z$/);
});

test('forking a session log keeps exactly the lines before the cut, rewrites the session, leaves the parent alone', () => {
  const store = tempDir();
  session(store, 's1');
  const parentFile = sessionLogFile(store, 's1');
  const before = fs.readFileSync(parentFile);
  const f = forkSessionLog(store, 's1', 'c3');
  assert.equal(f.parent, 's1');
  assert.equal(f.transcript, sessionLogFile(store, f.session));
  assert.deepEqual(f.cut, { id: 'c3', checkpoint: 'c3', text: 'Add a README', occurrence: 1 });
  assert.equal(fs.statSync(f.transcript).mode & 0o777, 0o600);
  const parent = readSessionLog(parentFile);
  const forked = readSessionLog(f.transcript);
  assert.deepEqual(
    forked,
    parent.slice(0, 8).map((l) => ({ ...l, session: f.session })),
  );
  assert.deepEqual(
    loggedPrompts(forked).map((p) => p.uuid),
    ['c1', 'c2'],
  );
  assert.ok(fs.readFileSync(parentFile).equals(before));
  // The agent's prompt id works as the cut too.
  assert.equal(forkSessionLog(store, 's1', 'c2').cut.text, 'Publish it');
});

test('a session-log cut before the first prompt, or before no prompt, is refused and writes nothing', () => {
  const store = tempDir();
  session(store, 's1');
  const dir = path.join(store, 'sessions');
  const listing = fs.readdirSync(dir).sort();
  assert.throws(() => forkSessionLog(store, 's1', 'c1'), { code: 'session-cut-refused' });
  assert.throws(() => forkSessionLog(store, 's1', 'pa'), { code: 'session-cut-refused' }, 'the first prompt by its agent id');
  assert.throws(() => forkSessionLog(store, 's1', 't2'), { code: 'session-cut-refused' }, 'a tool call is not a prompt');
  assert.throws(() => forkSessionLog(store, 's1', 'nope'), { code: 'session-cut-refused' });
  assert.deepEqual(fs.readdirSync(dir).sort(), listing);
  assert.throws(() => forkSessionLog(store, 'no-such-session', 'c2'), /No session log for session no-such-session/);
});
