// The preview webview's state rules (src/webview/state.ts) and the empty model every from-scratch
// model starts from (shared/messages.ts). Pure: no DOM, so plain node runs them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyPreviewModel, isWebviewMessage, type PreviewModel } from '../../src/shared/messages';
import { blockedKey, compKey, createState, fitChoices, isPreviewModel, restoreChoices } from '../../src/webview/state';
import { decide } from '../../src/webview/text';

describe('emptyPreviewModel', () => {
  it('is a model the webview accepts, with every field present, nothing to rewind, and fresh arrays each call', () => {
    const m = emptyPreviewModel();
    assert.deepEqual(Object.keys(m).sort(), [
      'blocked',
      'conversation',
      'dirty',
      'files',
      'leftAlone',
      'notRestorable',
      'notUndone',
      'onlySession',
      'scope',
      'sessions',
      'target',
      'uncommitted',
      'warnings',
    ]);
    assert.equal(isPreviewModel(m), true);
    assert.equal(decide(m, null, false, 0, false).enabled, false);
    m.files.push({ path: '/w/a', rel: 'a', action: 'restore', insertions: 0, deletions: 0, sessions: [] });
    assert.deepEqual(emptyPreviewModel().files, [], 'no array shared between calls');
    assert.equal(isPreviewModel({ ...emptyPreviewModel(), leftAlone: undefined }), false);
  });
});

describe('preview choices', () => {
  const commit = {
    call: 'toolu_commit',
    tool: 'Bash',
    summary: 'git commit',
    effect: 'compensatable' as const,
    severity: 'high' as const,
    compensation: 'git reset --soft x',
    time: 't',
  };
  const model = (over: Partial<PreviewModel> = {}): PreviewModel => ({
    ...emptyPreviewModel(),
    target: { id: 'cp-1', label: '', kind: 'prompt', time: '' },
    notUndone: [commit],
    blocked: [{ path: '/w/a', rel: 'a', reason: 'modified-outside' }],
    scope: { default: 'both', available: ['files', 'both'] },
    ...over,
  });

  it('restores only what it recognises from getState()', () => {
    assert.equal(restoreChoices(undefined), null);
    assert.equal(restoreChoices({ scope: 'files' }), null, 'no target: not ours');
    assert.deepEqual(restoreChoices({ target: 't', scope: 'all', compensations: ['k', 3], force: 'yes', forceFor: 1 }), {
      target: 't',
      scope: null,
      compensations: ['k'],
      force: false,
      forceFor: '',
      keepMine: false,
      unticked: { files: [], hunks: {} },
      expanded: [],
    });
    assert.equal(createState({ target: 't' }).choices?.target, 't');
  });

  it('keeps choices for the same target while the model offers them, and starts afresh for another target', () => {
    const state = createState(undefined);
    const m = model();
    const c = fitChoices(state, m);
    assert.deepEqual(c, {
      target: 'cp-1',
      scope: 'both',
      compensations: [],
      force: false,
      forceFor: '',
      keepMine: false,
      unticked: { files: [], hunks: {} },
      expanded: [],
    });
    state.choices = { ...c, scope: 'files', compensations: [compKey(commit), 'gone'], force: true, forceFor: blockedKey(m) };
    assert.deepEqual(fitChoices(state, m), {
      target: 'cp-1',
      scope: 'files',
      compensations: [compKey(commit)],
      force: true,
      forceFor: blockedKey(m),
      keepMine: false,
      unticked: { files: [], hunks: {} },
      expanded: [],
    });
    const moreBlocked = model({ blocked: [...m.blocked, { path: '/w/b', rel: 'b', reason: 'modified-outside' }] });
    assert.equal(fitChoices(state, moreBlocked).force, false, 'another set of blocked files asks again');
    state.choices = { ...c, scope: 'conversation' };
    assert.equal(fitChoices(state, m).scope, 'both', 'a scope no longer offered falls back to the default');
    state.choices = { ...c, scope: 'files', compensations: [compKey(commit)] };
    assert.deepEqual(fitChoices(state, model({ target: { id: 'cp-2', label: '', kind: 'prompt', time: '' } })), {
      target: 'cp-2',
      scope: 'both',
      compensations: [],
      force: false,
      forceFor: '',
      keepMine: false,
      unticked: { files: [], hunks: {} },
      expanded: [],
    });
  });
});

describe('compensations are chosen by call id', () => {
  it('the rewind message carries call ids, never list positions', () => {
    assert.equal(isWebviewMessage({ type: 'rewind', scope: 'files', compensations: ['toolu_01'], force: false }), true);
    assert.equal(isWebviewMessage({ type: 'rewind', scope: 'files', compensations: [0], force: false }), false);
  });
  it('a choice is keyed by the call, so it survives a re-plan that reorders the list', () => {
    const a = {
      call: 'toolu_a',
      tool: 'Bash',
      summary: 'git commit',
      effect: 'compensatable' as const,
      severity: 'high' as const,
      time: 't',
    };
    assert.equal(compKey(a), 'toolu_a');
    assert.notEqual(compKey(a), compKey({ ...a, call: 'toolu_b' }), 'two identical commands are two choices');
  });
});
