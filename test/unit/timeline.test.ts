import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLog } from '../../src/core/storeFiles/fileLog';
import { checkpoints, filesPerCheckpoint, findCheckpoint, latestState, stateAt } from '../../src/core/timeline/timeline';
import { h, LogBuilder } from '../helpers/records';

const seqOf = (b: LogBuilder, id: string) => {
  const c = checkpoints(b.records()).find((x) => x.id === id);
  assert.ok(c, `checkpoint ${id}`);
  return c.seq;
};
const hashAt = (b: LogBuilder, id: string, p: string) => stateAt(b.records(), seqOf(b, id)).get(p)?.hash;

describe('stateAt', () => {
  it('takes the last snapshot at or before the checkpoint, not the latest one', () => {
    const b = new LogBuilder()
      .snap('/w/a', h('a0'), 'before')
      .snap('/w/a', h('a1'), 'after')
      .checkpoint('C1')
      .snap('/w/a', h('a1'), 'before')
      .snap('/w/a', h('a2'), 'after')
      .checkpoint('C2')
      .snap('/w/a', h('a2'), 'before')
      .snap('/w/a', h('a3'), 'after');
    assert.equal(hashAt(b, 'C1', '/w/a'), h('a1'));
    assert.equal(hashAt(b, 'C2', '/w/a'), h('a2'));
    assert.equal(latestState(b.records()).get('/w/a')?.hash, h('a3'));
  });

  it('a file created after the checkpoint did not exist at it (its first record is a null before)', () => {
    const b = new LogBuilder().checkpoint('C1').snap('/w/new', null, 'before').snap('/w/new', h('n1'), 'after');
    const st = stateAt(b.records(), seqOf(b, 'C1')).get('/w/new');
    assert.ok(st);
    assert.equal(st.hash, null);
  });

  it('a path whose first record is a before after the checkpoint takes that content', () => {
    const b = new LogBuilder().checkpoint('C1').checkpoint('C2').snap('/w/x', h('x0'), 'before').snap('/w/x', h('x1'), 'after');
    assert.equal(hashAt(b, 'C1', '/w/x'), h('x0'));
    assert.equal(hashAt(b, 'C2', '/w/x'), h('x0'));
  });

  it('baseline and pre-rewind records count as before-content for earlier checkpoints, after/rewind do not', () => {
    const b = new LogBuilder()
      .checkpoint('C1')
      .snap('/w/base', h('b0'), 'baseline')
      .snap('/w/pre', h('p0'), 'pre-rewind')
      .snap('/w/aft', h('f1'), 'after')
      .snap('/w/rw', h('r1'), 'rewind');
    const st = stateAt(b.records(), seqOf(b, 'C1'));
    assert.equal(st.get('/w/base')?.hash, h('b0'));
    assert.equal(st.get('/w/pre')?.hash, h('p0'));
    assert.equal(st.has('/w/aft'), false, 'an after record says nothing about the moment before');
    assert.equal(st.has('/w/rw'), false);
  });

  it('deleted then recreated: each checkpoint sees its own moment', () => {
    const b = new LogBuilder()
      .snap('/w/f', h('v1'), 'after')
      .checkpoint('C1')
      .snap('/w/f', h('v1'), 'before')
      .snap('/w/f', null, 'after')
      .checkpoint('C2')
      .snap('/w/f', null, 'before')
      .snap('/w/f', h('v2'), 'after')
      .checkpoint('C3');
    assert.equal(hashAt(b, 'C1', '/w/f'), h('v1'));
    assert.equal(hashAt(b, 'C2', '/w/f'), null);
    assert.equal(hashAt(b, 'C3', '/w/f'), h('v2'));
  });

  it('the newest checkpoint sees the latest state', () => {
    const b = new LogBuilder().snap('/w/a', h('a0'), 'before').snap('/w/a', h('a1'), 'after').checkpoint('LAST');
    assert.equal(hashAt(b, 'LAST', '/w/a'), h('a1'));
  });

  it('identical content recorded twice shares one hash (dedup is by content)', () => {
    const b = new LogBuilder().snap('/w/a', h('same'), 'before').snap('/w/b', h('same'), 'before').checkpoint('C1');
    const st = stateAt(b.records(), seqOf(b, 'C1'));
    assert.equal(st.get('/w/a')?.hash, st.get('/w/b')?.hash);
  });

  it('a torn last line is skipped and reported, and the records before it still count', () => {
    const b = new LogBuilder().checkpoint('C1').snap('/w/a', null, 'before').snap('/w/a', h('a1'), 'after');
    const torn = b.text() + '{"t":"snap","path":"/w/a","hash":"ab';
    const { records, problems } = parseLog(torn);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.reason, /torn/);
    assert.equal(latestState(records).get('/w/a')?.hash, h('a1'));
    assert.equal(stateAt(records, checkpoints(records)[0]!.seq).get('/w/a')?.hash, null);
  });

  it('is not the identity: rewinding to an early checkpoint differs from the latest state', () => {
    // Guards the silent failure mode: a sequence comparison that always returns "latest".
    const b = new LogBuilder().checkpoint('C1').snap('/w/a', h('a0'), 'before').snap('/w/a', h('a1'), 'after').checkpoint('C2');
    assert.notEqual(hashAt(b, 'C1', '/w/a'), latestState(b.records()).get('/w/a')?.hash);
  });
});

describe('checkpoints and spans', () => {
  it('counts distinct files changed in each span, not baselines or pre-rewind captures', () => {
    const b = new LogBuilder()
      .checkpoint('S', 'session-start')
      .snap('/w/base', h('b'), 'baseline')
      .checkpoint('P1')
      .snap('/w/a', null, 'before')
      .snap('/w/a', h('a'), 'after')
      .snap('/w/b', h('b0'), 'before')
      .snap('/w/b', h('b1'), 'after')
      .snap('/w/a', h('a'), 'before')
      .snap('/w/a', h('a2'), 'after')
      .snap('/w/a', h('a2'), 'pre-rewind')
      .checkpoint('R', 'rewind')
      .snap('/w/a', h('a'), 'rewind');
    const f = filesPerCheckpoint(b.records());
    assert.deepEqual(f.get('S'), []);
    assert.deepEqual(f.get('P1')?.sort(), ['/w/a', '/w/b']);
    assert.deepEqual(f.get('R'), ['/w/a']);
  });

  it('finds checkpoints by id or a unique prefix of at least 4 characters', () => {
    const b = new LogBuilder().checkpoint('abcdef123').checkpoint('abcxyz999');
    const r = b.records();
    assert.equal(findCheckpoint(r, 'abcdef123').ok, true);
    assert.equal(findCheckpoint(r, 'abcd').ok, true);
    const amb = findCheckpoint(r, 'abc');
    assert.equal(amb.ok, false);
    const none = findCheckpoint(r, 'zzzz');
    assert.equal(none.ok, false);
  });
});
