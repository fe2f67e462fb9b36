// Transcripts for the Conversation view, read off the extension host: the worker follows each
// transcript (only appended lines are parsed) and sends the host a change against the outline it
// holds — the prompts from the first one that differs — so a refresh after a few new lines moves a
// few prompts, not the whole conversation. Always equal to a whole read; a real worker thread for
// all three transcript formats; without a worker, the same answers from the host, said once.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readAnyTimeline } from '../../src/agents/capabilities';
import { applyOutline, type OutlineDelta, outlineOf, OutlineSender } from '../../src/extension/offHost/transcriptOutline';
import { TranscriptReader } from '../../src/extension/offHost/transcriptReader';
import { WorkerClient } from '../../src/extension/offHost/workerClient';
import { workerScript } from '../helpers/offHostWorker';
import { tempDir } from '../helpers/tmp';

const root = tempDir('ar-outline-');
const WORKER = workerScript(root);
const FIXTURES = path.resolve(__dirname, '../fixtures');
const CLAUDE = fs.readFileSync(path.join(FIXTURES, 'transcripts/real-2.1.332-two-prompts.jsonl'), 'utf8');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The real Claude Code transcript (two prompts) repeated `copies` times as one conversation: each
 * copy's ids made its own, its first message's parent the previous copy's last message.
 */
function chained(copies: number, from = 0): { text: string; last: string } {
  let text = '';
  let last = '';
  for (let c = from; c < from + copies; c++) {
    const n = c.toString(16).padStart(12, '0');
    const session = 'e1e7006b-3f22-4b47-a20b-3938f3f558ab';
    for (const line of CLAUDE.split('\n').filter(Boolean)) {
      let l = line.replace(UUID, (u) => (u === session ? u : u.slice(0, 24) + n));
      if (l.includes('"parentUuid":null') && last) l = l.replace('"parentUuid":null', `"parentUuid":"${last}"`);
      const uuid = /"uuid":"([^"]+)"/.exec(l)?.[1];
      if (uuid && /"type":"(user|assistant)"/.test(l)) last = uuid;
      text += l + '\n';
    }
  }
  return { text, last };
}

/** Appends `copies` more copies after `last`, chained to it. */
function appendChained(file: string, copies: number, from: number): void {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const prev = [...lines].reverse().find((l) => /"type":"(user|assistant)"/.test(l))!;
  const last = /"uuid":"([^"]+)"/.exec(prev)![1]!;
  fs.appendFileSync(file, chained(copies, from).text.replace('"parentUuid":null', `"parentUuid":"${last}"`));
}

function claudeFile(copies: number): string {
  const file = path.join(fs.mkdtempSync(path.join(root, 'c-')), 'e1e7006b-3f22-4b47-a20b-3938f3f558ab.jsonl');
  fs.writeFileSync(file, chained(copies).text);
  return file;
}

const whole = (file: string) => outlineOf(readAnyTimeline(file));
const sent = (d: OutlineDelta) => (d.missing ? -1 : d.prompts.length);

test('a change after appended lines carries only the prompts from the first that differs, and applies to a whole read', () => {
  const file = claudeFile(5);
  const sender = new OutlineSender(file);
  const first = sender.next(null, []);
  assert.ok(!first.missing && first.keep === 0);
  assert.equal(sent(first), 10, 'the whole outline, once: five copies of two prompts');
  let held = applyOutline(undefined, first);
  assert.deepEqual(held.outline, whole(file));

  appendChained(file, 1, 5);
  const next = sender.next(held.version, []);
  assert.ok(!next.missing);
  assert.equal(next.keep, 10, 'every prompt before holds');
  assert.equal(sent(next), 2, 'the two new prompts only');
  held = applyOutline(held, next);
  assert.deepEqual(held.outline, whole(file));

  // Nothing new: nothing sent.
  const same = sender.next(held.version, []);
  assert.equal(sent(same), 0);
  held = applyOutline(held, same);
  assert.deepEqual(held.outline, whole(file));
});

test('a changed effect override reclassifies: the change starts at the first prompt whose calls it touches', () => {
  const file = claudeFile(3);
  const sender = new OutlineSender(file);
  let held = applyOutline(undefined, sender.next(null, []));
  const tools = held.outline!.prompts.flatMap((p) => p.tools);
  assert.ok(
    tools.some((t) => t.name === 'Bash'),
    'the fixture runs a shell command',
  );
  const d = sender.next(held.version, [{ tool: 'Bash', effect: 'irreversible' }] as never);
  assert.ok(!d.missing && d.keep < 6);
  held = applyOutline(held, d);
  assert.deepEqual(held.outline, outlineOf(readAnyTimeline(file, [{ tool: 'Bash', effect: 'irreversible' }] as never)));
});

test('a host holding another version (an answer it dropped, a new window) gets the whole outline', () => {
  const file = claudeFile(2);
  const sender = new OutlineSender(file);
  const a = sender.next(null, []);
  const b = sender.next(a.version, []);
  assert.equal(sent(b), 0);
  // The host dropped b and still holds a: it says so, and gets everything.
  const c = sender.next(a.version, []);
  assert.ok(!c.missing && c.keep === 0 && c.prompts.length === 4);
  assert.deepEqual(applyOutline(applyOutline(undefined, a), c).outline, whole(file));
  // A change that keeps more than is held is refused, never half-applied.
  assert.throws(() => applyOutline(undefined, { ...b, keep: 3 } as OutlineDelta), /keeps 3 prompts of an outline that has 0/);
});

test('what crosses to the host: prompts and calls as the view shows them, no tool inputs, results or replies', () => {
  const file = claudeFile(1);
  const d = new OutlineSender(file).next(null, []);
  assert.ok(!d.missing);
  const timeline = readAnyTimeline(file);
  assert.ok(
    timeline.prompts.some((p) => p.replies.length && p.tools.some((t) => t.input && t.result)),
    'the whole read has them',
  );
  for (const p of d.prompts) {
    assert.deepEqual(Object.keys(p).sort(), ['promptId', 'text', 'time', 'tools', 'uuid']);
    for (const t of p.tools)
      assert.deepEqual(
        Object.keys(t)
          .filter((k) => k !== 'severity')
          .sort(),
        ['effect', 'id', 'name', 'summary'],
      );
  }
});

test('a transcript that is gone: missing, and the host holds nothing for it', () => {
  const file = path.join(root, 'gone.jsonl');
  const d = new OutlineSender(file).next(null, []);
  assert.equal(d.missing, true);
  assert.equal(applyOutline(undefined, d).outline, null);
});

const FORMATS = [
  { name: 'Claude Code', fixture: 'transcripts/real-2.1.332-two-prompts.jsonl', file: 'e1e7006b-3f22-4b47-a20b-3938f3f558ab.jsonl' },
  {
    name: 'Codex',
    fixture: 'agents/codex/real-0.171.0/rollout.jsonl',
    file: 'rollout-2026-12-01T10-00-00-0199a0b1-0000-7000-8000-000000000001.jsonl',
  },
  { name: 'Gemini CLI', fixture: 'agents/gemini/real-0.61.0/chat-after-prompt-2.jsonl', file: 'session-2026-12-01T10-00-0199a0b1.jsonl' },
];

test('through a real worker thread, each format: every read equals a whole read, and a refresh moves only what changed', async () => {
  const client = new WorkerClient(WORKER, () => {}, { name: 'transcript', fallback: 'read on the host.' });
  const deltas: OutlineDelta[] = [];
  const ask = client.outline.bind(client);
  client.outline = async (...a) => {
    const d = await ask(...a);
    deltas.push(d);
    return d;
  };
  const reader = new TranscriptReader(client);
  try {
    for (const fmt of FORMATS) {
      const all = fs.readFileSync(path.join(FIXTURES, fmt.fixture));
      const file = path.join(fs.mkdtempSync(path.join(root, 'f-')), fmt.file);
      // Written up to the line that starts the last prompt (its id is first named there), then the rest.
      fs.writeFileSync(file, all);
      const lastId = whole(file).prompts.at(-1)!.uuid;
      const at = all.lastIndexOf(0x0a, all.indexOf(lastId)) + 1;
      fs.writeFileSync(file, all.subarray(0, at));
      assert.deepEqual(await reader.read(file, []), whole(file), `${fmt.name}: first read`);
      fs.appendFileSync(file, all.subarray(at));
      const before = deltas.length;
      const full = await reader.read(file, []);
      assert.deepEqual(full, whole(file), `${fmt.name}: after the rest was appended`);
      assert.ok(full!.prompts.length >= 2, `${fmt.name}: both prompts`);
      const d = deltas[before]!;
      assert.ok(!d.missing && d.keep >= 1 && d.prompts.length < full!.prompts.length, `${fmt.name}: the first prompt was not sent again`);
    }
    assert.ok(client.offHost, 'read in the worker');
  } finally {
    client.dispose();
  }
});

test('a transcript worker that cannot start: the same outlines, read on the host, said once', async () => {
  const lines: string[] = [];
  const client = new WorkerClient(path.join(root, 'no-such-worker.js'), (l) => lines.push(l), {
    name: 'transcript',
    fallback: 'transcripts are read on the extension host.',
  });
  const reader = new TranscriptReader(client);
  const file = claudeFile(2);
  assert.deepEqual(await reader.read(file, []), whole(file));
  appendChained(file, 1, 2);
  assert.deepEqual(await reader.read(file, []), whole(file));
  assert.equal(client.offHost, false);
  assert.equal(lines.length, 1, 'said once');
  assert.match(lines[0]!, /^The transcript worker is not available .*transcripts are read on the extension host/);
  client.dispose();
});
