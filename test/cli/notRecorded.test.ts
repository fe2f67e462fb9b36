// What could not be recorded says so, through the real hook path: a name that is not UTF-8, a FIFO, a
// path over the system's limit, a payload over 64 MB, shell capture off past maxScanFiles and a store
// whose disk is full each leave a gap line; `plan` and `rewind` list them as not restorable with their
// reason (never a plain "ok"), `status` says what was lost, and `verify` accepts the store.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox, tempDir } from '../helpers/tmp';

type NotRestorable = { path: string; reason: string; since?: string; tool?: string; call?: string };
type PlanJson = { files: { path: string }[]; notRestorable: NotRestorable[] };

function session(opts: { config?: object; files?: number } = {}) {
  const { ws, store } = sandbox();
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  for (let i = 0; i < (opts.files ?? 0); i++) fs.writeFileSync(path.join(ws, `f${i}.txt`), `${i}\n`);
  if (opts.config) {
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, 'config.json'), JSON.stringify(opts.config));
  }
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('work');
  const prompt = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!.id;
  return { ws, store, s, prompt };
}

function notRestorable(store: string, to: string): NotRestorable[] {
  return cliJson<PlanJson>(['plan', '--to', to], { store }).notRestorable;
}

function assertSound(store: string): void {
  const v = cliJson<{ ok: boolean; errors: string[] }>(['verify'], { store });
  assert.deepEqual(v.errors, []);
  assert.equal(v.ok, true);
}

test('a file whose name is not UTF-8 is listed as not restorable (its bytes shown as \\xNN) by plan and rewind', () => {
  const { ws, store, s, prompt } = session();
  const bad = Buffer.concat([Buffer.from(ws + '/bad'), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]);
  s.bash('make', () => {
    fs.writeFileSync(bad, 'made by the command\n');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'changed\n');
  });
  const shown = path.join(ws, 'bad\\xff\\xfe.txt');
  const gap = notRestorable(store, prompt).find((n) => n.reason === 'name-encoding');
  assert.ok(gap, 'listed');
  assert.equal(gap.path, shown);
  assert.equal(gap.tool, 'Bash');
  assert.match(gap.since!, /^\d{4}-\d\d-\d\dT/);
  const plan = cli(['plan', '--to', prompt], { store });
  assert.match(plan.stdout, /Not recorded after this point \(1\)/);
  assert.ok(plan.stdout.includes(`${shown}: its name is not valid UTF-8`), plan.stdout);
  const r = cli(['rewind', '--to', prompt], { store });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /ok {4} restore {2}.*a\.txt/);
  assert.ok(r.stdout.includes(`${shown}: its name is not valid UTF-8`), `the rewind lists what it could not restore:\n${r.stdout}`);
  const rj = cliJson<{ notRestorable: NotRestorable[] }>(['plan', '--to', prompt], { store });
  assert.ok(rj.notRestorable.some((n) => n.reason === 'name-encoding'));
  assertSound(store);
  // Said once per session, however often its folder is listed again.
  s.bash('touch', () => fs.writeFileSync(path.join(ws, 'b.txt'), 'b\n'));
  const lines = fs.readFileSync(path.join(store, 'files.jsonl'), 'utf8').split('\n');
  assert.equal(lines.filter((l) => l.includes('"name-encoding"')).length, 1);
});

test('a FIFO and a path over 4,096 bytes are listed with their reasons, and errors.log names the long path', () => {
  const { ws, store, s, prompt } = session();
  const seg = 'd'.repeat(200);
  s.bash('mkfifo pipe && deep', () => {
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    execFileSync('sh', ['-c', `cd "$1" && for i in $(seq 22); do mkdir ${seg} && cd ${seg}; done && echo x > leaf.txt`, 'sh', ws]);
  });
  const list = notRestorable(store, prompt);
  assert.deepEqual(
    list.filter((n) => n.reason === 'special-file').map((n) => n.path),
    [path.join(ws, 'pipe')],
  );
  const long = list.filter((n) => n.reason === 'path-length');
  assert.equal(long.length, 1, JSON.stringify(list));
  assert.ok(Buffer.byteLength(long[0]!.path) >= 4096 && long[0]!.path.startsWith(path.join(ws, seg)));
  const log = fs.readFileSync(path.join(store, 'errors.log'), 'utf8');
  assert.match(log, /over the 4096 the system opens/);
  assertSound(store);
});

test("a file tool's FIFO and its path over 4,096 bytes are listed too", () => {
  const { ws, store, s, prompt } = session();
  const fifo = path.join(ws, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const long = path.join(ws, ...Array.from({ length: 22 }, () => 'e'.repeat(200)), 'x.txt');
  s.tool('Write', { file_path: fifo, content: 'x' });
  s.tool('Write', { file_path: long, content: 'x' });
  const list = notRestorable(store, prompt).map((n) => [n.reason, n.path.length > 300 ? n.path.length : n.path, n.tool]);
  assert.deepEqual(list, [
    ['path-length', long.length, 'Write'], // (its snapshot says it could not be read; the gap says why)
    ['special-file', fifo, 'Write'],
  ]);
  assert.match(fs.readFileSync(path.join(store, 'errors.log'), 'utf8'), /Write: a path of \d+ bytes, over the 4096/);
});

test('a payload over 64 MB: the file it named is listed as not recorded by plan, and status counts it', () => {
  const { ws, store, s, prompt } = session();
  const small = path.join(ws, 'small.txt');
  fs.writeFileSync(small, 'small\n');
  const big = 'x'.repeat(65 * 1024 * 1024);
  const payload = JSON.stringify({
    session_id: s.session,
    transcript_path: s.transcript,
    cwd: ws,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: small, content: big },
    tool_use_id: 'toolu_big',
  });
  const r = cli(['hook', 'claude'], { store, input: payload });
  assert.equal(r.status, 0);
  assert.equal(r.stdout, '');
  const gap = notRestorable(store, prompt).find((n) => n.reason === 'payload-dropped');
  // The call id comes after the content: only what the payload's first 64 KB hold is known.
  assert.deepEqual({ path: gap?.path, tool: gap?.tool }, { path: small, tool: 'Write' });
  const plan = cli(['plan', '--to', prompt], { store });
  assert.ok(plan.stdout.includes(`${small}: an agent's hook message over 64 MB was dropped`), plan.stdout);
  const st = cliJson<{ recording: { droppedPayloads: { count: number; paths: string[] } | null } }>(['status'], { store });
  assert.deepEqual(st.recording.droppedPayloads && { ...st.recording.droppedPayloads, first: 0, last: 0 }, {
    count: 1,
    paths: [small],
    first: 0,
    last: 0,
  });
  assert.match(cli(['status'], { store }).stdout, /1 hook payload\(s\) over 64 MB dropped since .*small\.txt/);
  assertSound(store);
});

test('shell capture off past maxScanFiles: the plan lists the folder as not recorded, status says why', () => {
  const { ws, store, s, prompt } = session({ config: { maxScanFiles: 3 }, files: 5 });
  s.bash('./generate.sh', () => fs.writeFileSync(path.join(ws, 'generated.txt'), 'made\n'));
  const list = notRestorable(store, prompt);
  // Capture turned off at the session's start: a span after it says so too.
  assert.deepEqual(
    list.filter((n) => n.reason === 'capture-off').map((n) => n.path),
    [ws],
  );
  // The session started with capture off: the gap precedes the prompt, so a plan to the session start lists it.
  const start = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'session-start')!.id;
  const all = notRestorable(store, start).concat(list);
  assert.ok(
    all.some((n) => n.reason === 'capture-off' && n.path === ws),
    JSON.stringify(all),
  );
  const st = cliJson<{ recording: { captureOff: { root: string; limit: number }[] } }>(['status'], { store });
  assert.deepEqual(
    st.recording.captureOff.map((c) => [c.root, c.limit]),
    [[ws, 3]],
  );
  assert.match(cli(['status'], { store }).stdout, /Shell capture is off for session .* over maxScanFiles \(3\)/);
  assertSound(store);
});

const mounts: string[] = [];
after(() => {
  for (const m of mounts) execFileSync('umount', [m]);
});

test("a store whose disk is full: the agent's writes go unrecorded, and status and the plan say so", () => {
  const { ws } = sandbox();
  const mnt = tempDir('ar-full-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt]);
  mounts.push(mnt);
  const store = path.join(mnt, 'store');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  const s = new ClaudeSession(store, ws);
  s.start();
  s.prompt('work');
  const prompt = cliJson<{ id: string; kind: string }[]>(['checkpoints'], { store }).find((c) => c.kind === 'prompt')!.id;
  // Fill the disk to its last byte.
  const fill = fs.openSync(path.join(mnt, 'filler'), 'w');
  try {
    for (;;) fs.writeSync(fill, Buffer.alloc(4096, 1));
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
  }
  fs.closeSync(fill);
  s.write('a.txt', 'the agent wrote this\n'); // a hook that cannot record: exits 0, prints nothing
  const st = cliJson<{ recording: { writeFailures: { code: string; first: string; last: string }[] } }>(['status'], { store });
  assert.deepEqual(
    st.recording.writeFailures.map((f) => f.code),
    ['ENOSPC'],
  );
  assert.match(cli(['status'], { store }).stdout, /The store could not be written \(ENOSPC: no space left on its disk\) between/);
  fs.rmSync(path.join(mnt, 'filler'));
  const list = notRestorable(store, prompt);
  assert.deepEqual(
    list.filter((n) => n.reason === 'store-write-failed').map((n) => n.path),
    [store],
  );
  assert.match(cli(['plan', '--to', prompt], { store }).stdout, /the store could not be written \(a full disk\?\)/);
});
