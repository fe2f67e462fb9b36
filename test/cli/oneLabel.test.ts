// One label for a rewind checkpoint on every surface, for every store: `checkpoints` (text and --json) and
// `plan` say a rewind, undo, redo, take or switch checkpoint's label as the views compute it from the model
// (core/timeline/presentation.ts checkpointLabel over the whole log) — also on a store whose labels were
// written by older builds (nested "Before rewind to "Before rewind to …"", "Rewind to: …", a take stored as
// an undo), read whole, through the timeline index and through the index plus appended lines. And
// `checkpoints --json --folds` names the row each checkpoint folds into (foldedInto), as the Files view folds it; without
// --folds the rows are exactly DESIGN §5's fields.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { ClaudeSession } from '../helpers/claudeSession';
import { sandbox } from '../helpers/tmp';
import { readLog } from '../../src/core/storeFiles/fileLog';
import { STORE_FILE } from '../../src/core/storeFiles/names';
import { isCheckpoint, type CheckpointRecord, type Sequenced } from '../../src/core/storeFiles/records';
import { buildAttempts } from '../../src/core/timeline/attempts';
import { foldsOf } from '../../src/core/timeline/folding';
import { checkpointLabel } from '../../src/core/timeline/presentation';
import { rewindLookups } from '../../src/core/timeline/rewindLabels';

interface Row {
  id: string;
  kind: string;
  label: string;
  foldedInto?: string;
}

const OFF = { AGENT_REWIND_INDEX: 'off' };
const rows = (store: string, env: NodeJS.ProcessEnv = {}) => cliJson<Row[]>(['checkpoints', '--folds'], { store, env });

/** What the views compute: every checkpoint's label from the whole log (TimelineModel.label), and its fold. */
function viewsSay(store: string): { labels: string[]; into: Map<string, string> } {
  const { records } = readLog(path.join(store, STORE_FILE.log));
  const look = rewindLookups(records);
  const cps = records.filter(isCheckpoint) as Sequenced<CheckpointRecord>[];
  return { labels: cps.map((c) => checkpointLabel(c, look, () => buildAttempts(records))), into: foldsOf(records).into };
}

/** Every way the CLI reads the timeline says what the views say: labels (JSON, text, plan) and folds. */
function assertOneStory(store: string, what: string): string[] {
  const views = viewsSay(store);
  const index = path.join(store, STORE_FILE.timelineIndex);
  fs.rmSync(index, { force: true });
  const full = rows(store, OFF);
  assert.deepEqual(
    full.map((r) => r.label),
    views.labels,
    `${what}: checkpoints --json (log read whole) says the views' labels`,
  );
  assert.deepEqual(
    full.map((r) => [r.id, r.foldedInto ?? null]),
    full.map((r) => [r.id, views.into.get(r.id) ?? null]),
    `${what}: foldedInto is the views' fold`,
  );
  cli(['checkpoints'], { store }); // writes the index
  assert.ok(fs.existsSync(index));
  assert.deepEqual(rows(store), full, `${what}: through the index`);
  const text = cli(['checkpoints'], { store }).stdout.trim().split('\n');
  full.forEach((r, i) =>
    assert.ok(text[i]!.endsWith(r.label.length > 70 ? r.label.slice(0, 69) + '…' : r.label), `${text[i]} ends with ${r.label}`),
  );
  for (const r of full.filter((x) => x.kind === 'rewind'))
    assert.equal(
      cliJson<{ checkpoint: { label: string } }>(['plan', '--to', r.id], { store }).checkpoint.label,
      r.label,
      `${what}: plan --to ${r.id}`,
    );
  return full.map((r) => r.label);
}

/** A hook event after a rewind: it may tell the agent which files were rewound (ClaudeSession.hook wants silence). */
function told(s: ClaudeSession, payload: Record<string, unknown>): void {
  const input = JSON.stringify({ session_id: s.session, transcript_path: s.transcript, cwd: s.cwd, ...payload });
  assert.equal(cli(['hook', 'claude'], { store: s.store, input }).status, 0);
}

/** A session with every kind of rewind checkpoint: a rewind, its undo, its redo, a rewind to before a call, a take, a switch. */
function record(): { ws: string; store: string; s: ClaudeSession } {
  const { ws, store } = sandbox();
  const s = new ClaudeSession(store, ws);
  const id = (label: string) => rows(store).find((c) => c.label === label)!.id;
  const rewind = (...args: string[]) => {
    const r = cliJson<{ status: string; checkpoint: string }>(['rewind', ...args], { store, cwd: ws });
    assert.equal(r.status, 'done', args.join(' '));
    return r.checkpoint;
  };
  s.start();
  s.prompt('Add the notes');
  s.bash('git push origin main'); // nothing written since the prompt: its checkpoint folds into the prompt's row
  s.write('notes.txt', 'n1\n');
  s.prompt('Add the greeting');
  s.write('greet.js', 'g1\n');
  s.write('more.js', 'm1\n');
  const back = rewind('--to', id('Add the greeting'));
  const undo = rewind('--to', back); // an undo
  rewind('--to', undo); // a redo
  // A rewind to just before a call the index does not keep (a Write: reversible).
  const { records } = readLog(path.join(store, STORE_FILE.log));
  const write = records.find((r) => r.t === 'call' && (r as { tool?: string }).tool === 'Write' && JSON.stringify(r).includes('more.js'));
  assert.ok(write, 'the Write of more.js was recorded');
  rewind('--before-call', (write as { call: string }).call);
  told(s, { hook_event_name: 'SessionStart', source: 'resume' });
  told(s, { hook_event_name: 'UserPromptSubmit', prompt: 'Add the greeting differently', prompt_id: 'p-differently' });
  s.write('greet.js', 'g2\n');
  s.write('other.js', 'o2\n');
  rewind('--to', 'attempt:1', '--path', 'greet.js'); // a take
  rewind('--to', 'attempt:1'); // a switch
  return { ws, store, s };
}

describe('one label for a rewind checkpoint, on every surface, old stores too', () => {
  it('a fresh store, then the same store with the labels older builds wrote: the CLI says the views’ labels and folds', () => {
    const { store, s } = record();
    const fresh = assertOneStory(store, 'fresh');
    const kinds = fresh.filter((l) => /^Before (rewind|undo|redo|taking|switching)/.test(l));
    assert.ok(
      [
        'Before rewind to "Add the greeting"',
        'Before undo of rewind to',
        'Before redo of rewind to',
        'Before rewind to just before "Write',
        'Before taking files from Attempt 1',
        'Before switching to Attempt 1',
      ].every((w) => kinds.some((l) => l.startsWith(w))),
      kinds.join(' | '),
    );
    assert.ok(
      rows(store).some((r) => r.foldedInto),
      'the pre-call checkpoint folds into its prompt',
    );

    // The labels as older builds stored them: nested, "Rewind to: …", a take stored as an undo.
    const log = path.join(store, STORE_FILE.log);
    let n = 0;
    const old = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .map((line) => {
        if (!line.includes('"kind":"rewind"')) return line;
        const r = JSON.parse(line) as CheckpointRecord;
        const stale = [
          'Rewind to: Add the greeting',
          'Before rewind to "Before rewind to "Add the greeting""',
          'Before undo of rewind to "Add the greeting"',
        ];
        r.label = stale[n++ % stale.length]!;
        return JSON.stringify(r);
      })
      .join('\n');
    assert.ok(n >= 6, `every rewind checkpoint relabelled (${n})`);
    fs.writeFileSync(log, old);
    assert.deepEqual(assertOneStory(store, 'old labels'), fresh, 'an old store reads as a fresh one');

    // Lines appended after the index: a resumed session (its start folds into its prompt) and a rewind to a rewind.
    cli(['checkpoints'], { store });
    told(s, { hook_event_name: 'SessionStart', source: 'resume' });
    told(s, { hook_event_name: 'UserPromptSubmit', prompt: 'One more', prompt_id: 'p-one-more' });
    const last = rows(store)
      .filter((r) => r.kind === 'rewind')
      .pop()!;
    assert.equal(cliJson<{ status: string }>(['rewind', '--to', last.id], { store }).status, 'done');
    const viaTail = rows(store);
    const views = viewsSay(store);
    assert.deepEqual(
      viaTail.map((r) => [r.label, r.foldedInto ?? null]),
      viaTail.map((r, i) => [views.labels[i], views.into.get(r.id) ?? null]),
      'through the index and the lines after it',
    );
    assert.ok(
      viaTail.some((r) => r.label === 'One more' && viaTail.some((x) => x.foldedInto === r.id)),
      'the appended start folds into its prompt',
    );
    assert.deepEqual(rows(store, OFF), viaTail, 'read whole');
  });
});
