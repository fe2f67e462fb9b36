// A rewind while an agent's shell call runs: what the call changed before the rewind is the call's
// (recorded, as at a turn boundary, before the rewind's checkpoint), what the rewind wrote is the
// rewind's, never the call's at its PostToolUse; and the rewind's undo brings back exactly what was
// there before it — a file the call had made stays. With hooks recording themselves and through a
// resident recorder (its own process and its held scan state).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { RESIDENT_ON, startResident, stopAll } from '../helpers/resident';
import { sandbox } from '../helpers/tmp';

after(stopAll);

interface Snap {
  t: string;
  path: string;
  hash: string | null;
  phase: string;
  call?: string;
}

class Session extends ClaudeSession {
  constructor(
    store: string,
    cwd: string,
    public env: NodeJS.ProcessEnv,
  ) {
    super(store, cwd);
  }
  override hook(payload: Record<string, unknown>) {
    const r = cli(['hook', 'claude'], {
      store: this.store,
      env: this.env,
      input: JSON.stringify({ session_id: this.session, transcript_path: this.transcript, cwd: this.cwd, ...payload }),
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    return r;
  }
}

async function rewindDuringCall(env: NodeJS.ProcessEnv) {
  const { ws, store } = sandbox();
  const s = new Session(store, ws, {});
  s.start();
  if (env.AGENT_REWIND_RESIDENT === '1') await startResident(store); // started here, stopped by stopAll
  s.env = env;
  s.prompt('one');
  s.write('a.txt', 'v1\n');
  s.prompt('two');
  s.write('a.txt', 'v2\n');
  s.write('new.txt', 'made in turn two\n');
  const two = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).filter((c) => c.kind === 'prompt')[1]!;

  const input = { command: 'make out.txt && sleep 5', description: 'run' };
  s.hook({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: input, tool_use_id: 'toolu_bash1' });
  fs.writeFileSync(path.join(ws, 'out.txt'), 'made by the command\n'); // the command's work, before the rewind
  const rw = cliJson<{ checkpoint: string }>(['rewind', '--to', two.id], { store, env });
  assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'v1\n');
  assert.equal(fs.existsSync(path.join(ws, 'new.txt')), false);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'v1\nand the command\n'); // the command's work, after the rewind
  s.hook({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: input, tool_use_id: 'toolu_bash1', tool_response: {} });

  const log = fs
    .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Snap);
  const bash = log.filter((r) => r.t === 'snap' && r.call === 'toolu_bash1');
  assert.deepEqual(
    [...new Set(bash.map((r) => path.basename(r.path)))].sort(),
    ['a.txt', 'out.txt'],
    `the call's records are its own changes only: ${JSON.stringify(bash)}`,
  );
  const rewound = log.find((r) => r.t === 'snap' && r.phase === 'rewind' && r.path.endsWith('a.txt'))!;
  const aBefore = bash.find((r) => r.phase === 'before' && r.path.endsWith('a.txt'))!;
  assert.equal(aBefore.hash, rewound.hash, 'the call changed a.txt from what the rewind wrote, not from v2');
  assert.equal(bash.filter((r) => r.path.endsWith('new.txt')).length, 0, 'the rewind deleted new.txt, not the call');
  const at = (id: string) => log.findIndex((r) => (r as unknown as { id?: string }).id === id);
  assert.ok(
    log.findIndex((r) => r.call === 'toolu_bash1' && r.phase === 'after') < at(rw.checkpoint),
    'what the call made before the rewind is recorded before the rewind checkpoint',
  );

  // Undo the rewind: the state just before it, the call's file included.
  const undo = cli(['rewind', '--to', rw.checkpoint], { store, env });
  assert.equal(undo.status, 0, undo.stderr);
  assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'v2\n');
  assert.equal(fs.readFileSync(path.join(ws, 'new.txt'), 'utf8'), 'made in turn two\n');
  assert.equal(fs.readFileSync(path.join(ws, 'out.txt'), 'utf8'), 'made by the command\n', 'a file that existed before the rewind stays');
  // Rewinding to before the call still removes what the call made.
  assert.equal(cli(['verify'], { store }).status, 0);
}

describe('a rewind while a shell call runs', () => {
  it('hooks recording themselves: the rewind is not the call, the undo keeps what the call made', async () => {
    await rewindDuringCall({});
  });

  it('through a resident recorder: the same', async () => {
    await rewindDuringCall(RESIDENT_ON);
  });
});
