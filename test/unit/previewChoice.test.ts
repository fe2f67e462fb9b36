// The preview's choice of files and hunks (src/webview/choice.ts) and how it reaches the Rewind
// button (text.ts decide) and the rewind message: pure, no DOM.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyPreviewModel, isWebviewMessage, type PreviewFile, type PreviewHunk, type PreviewModel } from '../../src/shared/messages';
import { chosenFiles, countChoice, fileChosen, fitUnticked, noneUnticked, setFile, setHunk, touchingMine } from '../../src/webview/choice';
import { choiceWords, decide } from '../../src/webview/text';

const hunk = (id: string, extra: Partial<PreviewHunk> = {}): PreviewHunk => ({
  id,
  from: [1, 1],
  plus: 1,
  minus: 1,
  minusLines: ['a'],
  plusLines: ['b'],
  more: 0,
  ...extra,
});
const file = (name: string, hunks?: PreviewHunk[]): PreviewFile => ({
  path: `/w/${name}`,
  rel: name,
  action: 'restore',
  insertions: 1,
  deletions: 1,
  sessions: [],
  ...(hunks ? { hunks } : {}),
});
const model = (over: Partial<PreviewModel> = {}): PreviewModel => ({
  ...emptyPreviewModel(),
  target: { id: 'cp', label: '', kind: 'prompt', time: '' },
  files: [file('a', [hunk('a1'), hunk('a2')]), file('b', [hunk('b1')]), file('bin')],
  scope: { default: 'files', available: ['files'] },
  ...over,
});

describe('choosing files and hunks', () => {
  it('counts what is chosen in one set of words, and sends only the chosen files and hunks', () => {
    const m = model();
    const u = noneUnticked();
    assert.deepEqual(countChoice(m, u), { files: 3, of: 3, hunks: 3, all: true });
    assert.equal(choiceWords(countChoice(m, u)), '3 files');
    assert.equal(chosenFiles(m, u), undefined, 'everything: the whole rewind, no list');
    setHunk(u, m.files[0]!, 'a2', false);
    assert.equal(choiceWords(countChoice(m, u)), '3 of 3 files, 2 hunks');
    setFile(u, '/w/b', false);
    assert.equal(choiceWords(countChoice(m, u)), '2 of 3 files, 1 hunk');
    assert.deepEqual(chosenFiles(m, u), [{ path: '/w/a', hunks: ['a1'] }, { path: '/w/bin' }]);
    assert.equal(decide(m, 'files', false, 0, false, { unticked: u, keepMine: false }).label, 'Rewind 2 of 3 files, 1 hunk');
    // Unticking the last hunk of a file unticks the file; ticking one hunk of an unticked file ticks that one only.
    setHunk(u, m.files[0]!, 'a1', false);
    assert.equal(fileChosen(u, m.files[0]!), false);
    setHunk(u, m.files[1]!, 'b1', true);
    assert.deepEqual(chosenFiles(m, u), [{ path: '/w/b' }, { path: '/w/bin' }]);
    // Nothing chosen: nothing to rewind, and why.
    setFile(u, '/w/b', false);
    setFile(u, '/w/bin', false);
    const none = decide(m, 'files', false, 0, false, { unticked: u, keepMine: false });
    assert.deepEqual([none.label, none.enabled, none.why], ['Nothing to rewind', false, 'No file is chosen: tick the files to rewind.']);
    assert.deepEqual(chosenFiles(m, u), []);
  });

  it('an unticked file no longer stops the rewind; Keep mine lets a clean merge through, not a chosen hunk over your lines', () => {
    const m = model({
      files: [file('a', [hunk('mine', { touchesMine: true }), hunk('agent')]), file('b')],
      blocked: [{ path: '/w/a', rel: 'a', reason: 'modified-outside', merge: 'clean' }],
    });
    const u = noneUnticked();
    assert.equal(decide(m, 'files', false, 0, false, { unticked: u, keepMine: false }).enabled, false);
    assert.equal(decide(m, 'files', false, 0, false, { unticked: u, keepMine: true }).enabled, true, 'whole file: merged');
    setHunk(u, m.files[0]!, 'agent', false);
    assert.deepEqual(
      touchingMine(m, u).map((t) => t.file.path),
      ['/w/a'],
    );
    const refused = decide(m, 'files', false, 0, false, { unticked: u, keepMine: true });
    assert.equal(refused.enabled, false);
    assert.match(refused.why, /in a, a chosen hunk touches lines you changed/);
    assert.equal(decide(m, 'files', true, 0, false, { unticked: u, keepMine: true }).enabled, true, 'Rewind anyway still overrides');
    setHunk(u, m.files[0]!, 'agent', true);
    setHunk(u, m.files[0]!, 'mine', false);
    assert.equal(decide(m, 'files', false, 0, false, { unticked: u, keepMine: true }).enabled, true, 'the agent hunk alone');
    setFile(u, '/w/a', false);
    assert.equal(decide(m, 'files', false, 0, false, { unticked: u, keepMine: false }).enabled, true, 'left alone: not in the way');
    // A conflicting file stays refused with Keep mine.
    const conflict = model({ blocked: [{ path: '/w/a', rel: 'a', reason: 'modified-outside', merge: 'conflict' }] });
    const c = decide(conflict, 'files', false, 0, false, { unticked: noneUnticked(), keepMine: true });
    assert.equal(c.enabled, false);
    assert.match(c.why, /Keep mine cannot merge a/);
  });

  it('keeps only what the refreshed model still lists', () => {
    const u = { files: ['/w/b', '/w/gone'], hunks: { '/w/a': ['a1', 'old'], '/w/gone': ['x'] } };
    assert.deepEqual(fitUnticked(u, model()), { files: ['/w/b'], hunks: { '/w/a': ['a1'] } });
  });

  it('the host accepts a rewind message with chosen files only in the shape the page sends', () => {
    const base = { type: 'rewind', scope: 'files', compensations: [], force: false };
    assert.equal(isWebviewMessage({ ...base, keepMine: true, files: [{ path: '/w/a', hunks: ['a1'] }, { path: '/w/b' }] }), true);
    assert.equal(isWebviewMessage({ ...base, files: [{ path: '/w/a', hunks: [] }] }), false, 'an empty hunk list means nothing');
    assert.equal(isWebviewMessage({ ...base, files: [{ path: 3 }] }), false);
    assert.equal(isWebviewMessage({ ...base, keepMine: 'yes' }), false);
  });
});
