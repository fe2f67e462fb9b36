// Adding an agent is one folder and one registry line: a made-up agent (test/fixtures/fakeAgent/, shaped
// like a folder of src/agents/) added to the registry's list in one line is recorded by the hook, connected
// by Connect, and listed wherever agents are listed — with no other file knowing it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { agentStates, connectAgents, connectorFor } from '../../src/agents/connectors';
import { ADAPTERS, Registry, registry } from '../../src/agents/registry';
import { parseHookPayload, parserFor } from '../../src/cli/hook';
import { recordPayload } from '../../src/recording/payload';
import { Store } from '../../src/core/store';
import { fakeAdapter } from '../fixtures/fakeAgent';
import { tempDir } from '../helpers/tmp';

/** The one line: the registry's own list and the fake agent. */
const withFake = new Registry([...ADAPTERS, fakeAdapter]);

test('a fake agent added in one registry line is recorded, connected and listed', () => {
  const root = tempDir('ar-fake-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  const storeDir = path.join(root, 'store');
  const target = { node: process.execPath, cli: path.join(root, 'cli.js'), store: storeDir };

  // Listed: its name for `hook <agent>` (and its alias), its connector among Connect's.
  assert.ok(withFake.names().includes('fake') && withFake.names().includes('fake-agent'));
  assert.deepEqual(
    withFake.allConnectors().map((c) => c.agent),
    [...registry.allConnectors().map((c) => c.agent), 'fake'],
  );
  assert.equal(connectorFor('fake', withFake)?.displayName, 'Fake Agent');

  // Connected: its own file holds our hook for every standard event, and its state says so.
  const [outcome] = connectAgents(['fake'], ws, target, undefined, withFake);
  assert.equal(outcome?.error, undefined);
  const written = JSON.parse(fs.readFileSync(path.join(ws, '.fake', 'settings.json'), 'utf8')) as { hooks: Record<string, unknown[]> };
  assert.ok(JSON.stringify(written.hooks.PreToolUse).includes('hook fake --store'));
  assert.equal(agentStates(ws, target, withFake).get('fake'), 'connected');

  // Recorded: a payload sent to its alias becomes a checkpoint of the fake agent's session.
  const file = path.join(ws, 'notes.txt');
  fs.writeFileSync(file, 'before\n');
  const payload = {
    hook_event_name: 'PreToolUse',
    session_id: 'fake-session-1',
    cwd: ws,
    tool_name: 'Save',
    tool_input: { file_path: file },
  };
  recordPayload('fake-agent', ['fake-agent', '--store', storeDir], storeDir, JSON.stringify(payload), {
    env: {},
    parse: parserFor(withFake),
  });
  const records = Store.open(storeDir).read().records;
  const mine = records.filter((r) => 'agent' in r && r.agent === 'fake');
  assert.ok(mine.length > 0, JSON.stringify(records).slice(0, 500));
  assert.ok(mine.every((r) => 'session' in r && r.session === 'fake-session-1'));
});

test('the registry without that line knows no fake agent: its hook logs the name as unknown', () => {
  const storeDir = path.join(tempDir('ar-nofake-'), 'store');
  recordPayload('fake', ['fake', '--store', storeDir], storeDir, '{}', { env: {}, parse: parseHookPayload });
  const [line] = fs.readFileSync(path.join(storeDir, 'errors.log'), 'utf8').trim().split('\n');
  assert.match((JSON.parse(line!) as { message: string }).message, /^hook: unknown agent "fake"; known: claude, .*, kiro, qwen-code, /);
  assert.equal(registry.get('fake'), undefined);
});
