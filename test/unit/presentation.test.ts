// The presentation model (core/timeline/presentation.ts): the rows, words and counts every surface
// renders — `checkpoints --json` field for field, the attempt row's words, the timeline's counts (a
// rewind is never a session), one label for a take, and one way to write a time of day.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAttempts, ownWorkOfAll } from '../../src/core/timeline/attempts';
import { checkpoints } from '../../src/core/timeline/timeline';
import {
  attemptDescription,
  attemptRow,
  checkpointLabel,
  checkpointRow,
  checkpointWords,
  fileWords,
  pathWords,
  promptWords,
  rowLine,
  rowTitle,
  sessionGroupDescription,
  sessionGroups,
  sessionWords,
  timelineCounts,
} from '../../src/core/timeline/presentation';
import { rewindLookups } from '../../src/core/timeline/rewindLabels';
import { bundleLocalizer } from '../../src/shared/l10n';
import { clockTime } from '../../src/shared/time';
import { h, LogBuilder } from '../helpers/records';

/** Prompt, work, rewind, new work in a second session, then files taken back from the first attempt. */
function takeLog(): LogBuilder {
  return new LogBuilder()
    .checkpoint('S', 'session-start', { session: 's1', agent: 'claude' })
    .checkpoint('P1', 'prompt', { session: 's1', agent: 'claude' })
    .snap('/w/a', h('a0'), 'before')
    .snap('/w/a', h('a1'), 'after')
    .checkpoint('R1', 'rewind', { target: 'P1', label: 'Before rewind to "P1"' })
    .snap('/w/a', h('a0'), 'rewind')
    .checkpoint('P2', 'prompt', { agent: 'claude', session: 's2' })
    .snap('/w/a', h('a0'), 'before', { session: 's2' })
    .snap('/w/a', h('a2'), 'after', { session: 's2' })
    .checkpoint('T', 'rewind', { target: 'R1', partial: true, label: 'Before undo of rewind to "P1"' })
    .snap('/w/a', h('a1'), 'rewind');
}

describe('presentation model', () => {
  it('a checkpoint row has the fields of `checkpoints --json`, in its order', () => {
    const c = checkpoints(takeLog().records())[1]!;
    const row = checkpointRow(c, { toRewind: 2, edited: 1 });
    assert.deepEqual(Object.keys(row), ['id', 'time', 'kind', 'label', 'session', 'agent', 'toRewind', 'edited']);
    assert.equal(row.session, 's1');
    assert.equal(row.toRewind, 2);
  });

  it('a take is labelled by its attempt, whatever the store recorded; a rewind to a prompt quotes it once', () => {
    const records = takeLog().records();
    const look = rewindLookups(records);
    const tree = () => buildAttempts(records);
    const byId = new Map(checkpoints(records).map((c) => [c.id, c]));
    assert.equal(checkpointLabel(byId.get('T')!, look, tree), 'Before taking files from Attempt 1');
    assert.equal(checkpointLabel(byId.get('P2')!, look, tree), byId.get('P2')!.label);
    // Localized at rendering: the words come from the localizer handed in.
    const fr = bundleLocalizer({ 'Before taking files from Attempt {0}': 'Avant de reprendre des fichiers de la tentative {0}' });
    assert.equal(checkpointLabel(byId.get('T')!, look, tree, fr), 'Avant de reprendre des fichiers de la tentative 1');
  });

  it('a row’s title: the checkpoint before a call says so; a row without a label is named by its kind', () => {
    assert.equal(rowTitle({ kind: 'before-tool', label: 'Bash: git push' }), 'Before Bash: git push');
    assert.equal(rowTitle({ kind: 'prompt', label: 'Add dates' }), 'Add dates');
    assert.equal(rowTitle({ kind: 'session-start', label: '' }), 'Session start');
  });

  it('a Files row leads with its count, a rewind’s row with its action (the count after it)', () => {
    assert.deepEqual(rowLine({ kind: 'prompt', label: 'Add dates', toRewind: 3 }), { lead: '3 files to rewind · Add dates' });
    assert.deepEqual(rowLine({ kind: 'before-tool', label: 'Bash: git push', toRewind: 1 }), {
      lead: '1 file to rewind · Before Bash: git push',
    });
    assert.deepEqual(rowLine({ kind: 'rewind', label: 'Before undo of rewind to "Add dates"', toRewind: 0 }), {
      lead: 'Before undo of rewind to "Add dates"',
      after: 'nothing to rewind',
    });
  });

  it('one count function per noun, singular and plural (the CLI’s storage, status and conversation show, and the views)', () => {
    const words = [promptWords, fileWords, sessionWords, checkpointWords, pathWords];
    assert.deepEqual(
      words.map((w) => [w(1), w(2), w(0)]),
      [
        ['1 prompt', '2 prompts', '0 prompts'],
        ['1 file', '2 files', '0 files'],
        ['1 session', '2 sessions', '0 sessions'],
        ['1 checkpoint', '2 checkpoints', '0 checkpoints'],
        ['1 path', '2 paths', '0 paths'],
      ],
    );
  });

  it('session groups: named by the newest prompt, counted, spanned; the rows of no session apart; a group without a prompt has no count', () => {
    const rows = [
      { id: 'p3', kind: 'prompt' as const, session: 's1', agent: 'claude', time: 3_000 },
      { id: 'r', kind: 'rewind' as const, time: 2_500 },
      { id: 'b', kind: 'before-tool' as const, session: 's1', agent: 'claude', time: 2_000 },
      { id: 'p1', kind: 'prompt' as const, session: 's1', agent: 'claude', time: 1_000 },
      { id: 'st', kind: 'session-start' as const, session: 's0', agent: 'codex', time: 500 },
    ];
    const groups = sessionGroups(rows, (r) => r);
    assert.deepEqual(
      groups.map((g) => [g.session, g.agent, g.title.id, g.prompts, g.rows.map((r) => r.id), g.oldest, g.newest]),
      [
        ['s1', 'claude', 'p3', 2, ['p3', 'b', 'p1'], 1_000, 3_000],
        ['', '', 'r', 0, ['r'], 2_500, 2_500],
        ['s0', 'codex', 'st', 0, ['st'], 500, 500],
      ],
    );
    const t = (ms: number) => `t${ms}`;
    assert.equal(sessionGroupDescription(groups[0]!, t), '2 prompts · t1000–t3000');
    assert.equal(sessionGroupDescription({ prompts: 1, oldest: 5, newest: 5 }, t), '1 prompt · t5');
    assert.equal(sessionGroupDescription(groups[2]!, t), 't500', 'a session start alone says no "0 prompts"');
  });

  it('an attempt row counts its own work, worded alike for the view and the CLI', () => {
    const tree = buildAttempts(takeLog().records());
    const own = ownWorkOfAll(tree);
    const row = attemptRow(tree.attempts[0]!, own.get(1)!);
    assert.deepEqual(
      { prompts: row.prompts, files: row.files, firstPrompt: row.firstPrompt, current: row.current },
      {
        prompts: 1,
        files: 1,
        firstPrompt: 'P1',
        current: false,
      },
    );
    assert.equal(
      attemptDescription(row, () => '5:30 AM'),
      '1 prompt · 1 file · left 5:30 AM',
    );
    const current = attemptRow(tree.attempts[1]!, own.get(2)!);
    assert.equal(
      attemptDescription({ ...current, prompts: 3, files: 7 }, () => ''),
      '3 prompts · 7 files · in progress',
    );
  });

  it('counts: prompts, calls, starts, rewinds apart; sessions are agent sessions only', () => {
    const cps = checkpoints(takeLog().records());
    const withOwn = [...cps, { kind: 'manual' as const, session: undefined }, { kind: 'rewind' as const, session: 'x' }];
    assert.deepEqual(timelineCounts(withOwn), {
      checkpoints: 7,
      prompts: 2,
      beforeCalls: 0,
      sessionStarts: 1,
      rewinds: 3,
      manual: 1,
      sessions: 2,
    });
  });

  it('one time format: the time of day today (no leading zero forced), the date as well on another day', () => {
    const at = new Date(2026, 11, 7, 5, 24).getTime();
    assert.equal(clockTime(at, at + 60_000, 'en-US'), '5:24 AM');
    assert.equal(clockTime(at, at + 3 * 86400_000, 'en-US'), 'Dec 7, 2026, 5:24 AM');
    assert.equal(clockTime(Number.NaN), '');
    // The formats are made once per locale: each locale still writes its own forms, the default one included.
    assert.equal(clockTime(at, at + 60_000, 'de-DE'), '5:24');
    assert.equal(clockTime(at, at + 3 * 86400_000, 'de-DE'), '07.12.2026, 05:24');
    assert.equal(clockTime(at, at + 60_000, 'en-US'), '5:24 AM');
    assert.equal(clockTime(at, at + 60_000), new Date(at).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }));
  });
});
