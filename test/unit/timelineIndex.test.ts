// The timeline index beside files.jsonl (core/timeline/timelineIndex.ts) and reading the log in parts
// (core/storeFiles/logTail.ts): whatever the index holds — nothing, garbage, a stale or a lying file — the
// skeleton equals a full read of the log filtered the same way, and `verify` names a lying index.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { appendGaps, type LogContents, readGaps, readLog } from '../../src/core/storeFiles/fileLog';
import { IncrementalLog } from '../../src/core/storeFiles/logTail';
import { computeChanges } from '../../src/core/timeline/changeSet';
import { provenanceOf } from '../../src/core/timeline/provenance';
import { rewindCounts, sumStretches, sumStretchTotals } from '../../src/core/timeline/rewindCounts';
import { buildAttempts } from '../../src/core/timeline/attempts';
import {
  checkpoints,
  filesPerCheckpoint,
  findCheckpoint,
  latestState,
  type RecordedFolders,
  recordedFoldersOf,
  stateAt,
} from '../../src/core/timeline/timeline';
import type { CheckpointRecord, GapRecord, LogRecord, Sequenced, SnapRecord } from '../../src/core/storeFiles/records';
import { encodeSnaps, snapBytes, SnapRows, snapsFromBytes } from '../../src/core/timeline/snapColumns';
import { Store } from '../../src/core/store';
import { inSkeleton, readSkeleton } from '../../src/core/timeline/timelineIndex';
import { IndexRead } from '../../src/core/timeline/indexFile';
import { readCheckpointList, readRecordedFolders } from '../../src/core/timeline/checkpointList';
import { verifyStore } from '../../src/core/upkeep/verify';
import { checkpointLabel } from '../../src/core/timeline/presentation';
import { rewindLookups } from '../../src/core/timeline/rewindLabels';
import { STORE_FILE } from '../../src/core/storeFiles/names';

let dir: string;
let log: string;
let index: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-tlindex-'));
  log = path.join(dir, 'files.jsonl');
  index = path.join(dir, STORE_FILE.timelineIndex);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const hex = (n: number) => n.toString(16).padStart(64, '0');

/** A varied log: checkpoints, every snapshot shape (missing with dirs, skipped, link, odd fields, non-ASCII), calls of each effect. */
function records(from: number, n: number): LogRecord[] {
  const out: LogRecord[] = [];
  for (let i = from; i < from + n; i++) {
    const session = `s${i % 3}`;
    out.push({
      t: 'checkpoint',
      id: `cp${i}`,
      time: 1000 + i,
      kind: i % 5 ? 'prompt' : 'session-start',
      label: `prompt ${i} — ünïcödé ✓`,
      session,
      cwd: '/w',
    });
    out.push({
      t: 'call',
      tool: 'Edit',
      call: `c${i}`,
      summary: 'edit',
      effect: 'rewindable',
      session,
      input: { big: 'x'.repeat(100) },
      time: 1001 + i,
    });
    out.push({
      t: 'call',
      tool: 'Bash',
      call: `b${i}`,
      summary: 'git push',
      effect: i % 2 ? 'irreversible' : 'compensatable',
      session,
      time: 1002 + i,
    });
    const p = `/w/d${i % 4}/fïle${i % 7}.ts`;
    out.push({
      t: 'snap',
      path: p,
      hash: hex(i),
      size: i,
      mtime: 5000 + i,
      mode: 0o644,
      phase: 'before',
      session,
      tool: 'Edit',
      call: `c${i}`,
      time: 1003 + i,
    });
    out.push({
      t: 'snap',
      path: p,
      hash: hex(i + 1),
      size: i + 1,
      mtime: 4000 - i,
      mode: 0o755,
      phase: 'after',
      origin: 'agent',
      session,
      time: 1004 + i,
    });
    if (i % 3 === 0) out.push({ t: 'snap', path: `/w/gone${i}/x`, hash: null, dirs: [`/w/gone${i}`], phase: 'after', time: 1005 + i });
    if (i % 4 === 0)
      out.push({ t: 'snap', path: `/w/big${i}`, hash: null, size: 1e9, mtime: 1, skipped: 'too-large', phase: 'observed', time: 1006 + i });
    if (i % 4 === 1)
      out.push({
        t: 'snap',
        path: `/w/link${i}`,
        hash: hex(7),
        size: 3,
        mtime: 2,
        link: true,
        phase: 'rewind',
        by: `cp${i}`,
        time: 1007 + i,
      });
    if (i % 6 === 2)
      out.push({ t: 'snap', path: '/w/odd', hash: hex(9), phase: 'baseline', time: 1008 + i, future: { x: 1 } } as unknown as LogRecord);
    // A session the string table cannot hold (a NUL in it): kept in the row's `rest`.
    if (i % 6 === 4) out.push({ t: 'snap', path: '/w/nul', hash: null, phase: 'after', session: 's\u0000x', time: 1009 + i });
  }
  return out;
}

const append = (recs: readonly LogRecord[]) => fs.appendFileSync(log, recs.map((r) => JSON.stringify(r) + '\n').join(''));

/** A full read of the log, filtered to the skeleton, as plain JSON (absent and undefined fields read the same). */
function truth(): LogContents {
  const full = readLog(log);
  return plain({ records: full.records.filter(inSkeleton), problems: full.problems });
}
const plain = (c: LogContents): LogContents => JSON.parse(JSON.stringify({ records: c.records, problems: c.problems })) as LogContents;
const skeleton = () => {
  const s = readSkeleton(dir, log);
  return { via: s.via, contents: plain(s) };
};

describe('timeline index', () => {
  it('is written on the first read and then used; both reads equal the full parse', () => {
    append(records(0, 60));
    const first = skeleton();
    assert.equal(first.via, 'full');
    assert.ok(fs.existsSync(index), 'the first read writes the index');
    assert.deepEqual(first.contents, truth());
    const second = skeleton();
    assert.equal(second.via, 'index');
    assert.deepEqual(second.contents, truth());
    assert.ok(
      second.contents.records.some((r) => r.t === 'call'),
      'irreversible calls are in the skeleton',
    );
    assert.ok(!second.contents.records.some((r) => r.t === 'call' && r.effect === 'rewindable'), 'ordinary calls are not');
  });

  it('adds only the lines appended after it, a torn last line included as a full read sees it', () => {
    append(records(0, 40));
    skeleton();
    append(records(40, 5));
    fs.appendFileSync(log, '{"t":"snap","path":"/w/torn","ha');
    const s = skeleton();
    assert.equal(s.via, 'index');
    assert.deepEqual(s.contents, truth());
    assert.equal(s.contents.problems.length, 1, 'the torn line is a problem, with its line number');
    // The writer finishes on a fresh line (jsonLines.ts): the torn fragment stays a problem, the rest reads.
    fs.appendFileSync(log, '\n');
    append(records(45, 2));
    assert.deepEqual(skeleton().contents, truth());
  });

  it('deleted, garbage or from another log: the whole log is read and the index written again', () => {
    append(records(0, 30));
    skeleton();
    fs.rmSync(index);
    assert.deepEqual(skeleton(), { via: 'full', contents: truth() });
    fs.writeFileSync(index, '{"v":2,"size":12, garbage');
    assert.deepEqual(skeleton(), { via: 'full', contents: truth() });
    assert.equal(skeleton().via, 'index', 'written again');
    // gc rewrites the log (a new file, fewer lines): the index names the old one.
    const kept = fs.readFileSync(log, 'utf8').split('\n').slice(40).join('\n');
    fs.writeFileSync(log + '.new', kept);
    fs.renameSync(log + '.new', log);
    assert.deepEqual(skeleton(), { via: 'full', contents: truth() });
    // Same file, shrunk, then grown past the old length with other bytes.
    fs.truncateSync(log, 100);
    append(records(100, 30));
    assert.deepEqual(skeleton(), { via: 'full', contents: truth() });
  });

  it('a log copied to another file (a backup restored) is vouched for by the sum of its bytes, not read whole', () => {
    append(records(0, 30));
    skeleton();
    const copy = () => {
      fs.copyFileSync(log, log + '.copy');
      fs.renameSync(log + '.copy', log);
    };
    copy();
    assert.deepEqual(skeleton(), { via: 'index', contents: truth() });
    assert.equal(JSON.parse(fs.readFileSync(index, 'latin1').split('\n')[0]!).ino, fs.statSync(log).ino, 'the index now names the copy');
    append(records(30, 3));
    copy();
    assert.deepEqual(skeleton(), { via: 'index', contents: truth() }, 'a copy with lines after the index');
    assert.equal(readCheckpointList(dir, log).via, 'index');
    // Another file whose bytes differ inside the prefix the index names (same length): read whole.
    const text = fs.readFileSync(log, 'utf8');
    fs.writeFileSync(log + '.copy', text.replace('prompt 3 ', 'prompt X '));
    fs.renameSync(log + '.copy', log);
    assert.deepEqual(skeleton(), { via: 'full', contents: truth() });
    assert.equal(skeleton().via, 'index', 'written again for it');
  });

  it('verify reports an index that vouches for the log but says something else; a stale one is fine', () => {
    const store = Store.open(dir, { create: true });
    append(records(0, 30));
    skeleton();
    assert.deepEqual(
      verifyStore(store).errors.filter((e) => e.includes(STORE_FILE.timelineIndex)),
      [],
    );
    const text = fs.readFileSync(index, 'latin1');
    fs.writeFileSync(index, Buffer.from(text.replace('"cp3"', '"cpX"'), 'latin1'));
    const errors = verifyStore(store).errors;
    assert.ok(
      errors.some((e) => e.includes(STORE_FILE.timelineIndex) && e.includes('does not match')),
      errors.join('\n'),
    );
    // The keys a plan reads and the list `checkpoints` prints (the last two parts): a checkpoint id there that
    // the checkpoints do not have.
    const places: number[] = [];
    for (let at = text.indexOf('"cp3"'); at >= 0; at = text.indexOf('"cp3"', at + 1)) places.push(at);
    assert.equal(places.length, 3, 'the id is in the checkpoint part, the keys and the list');
    for (const [at, what] of [
      [places[1]!, 'keys'],
      [places[2]!, 'list'],
    ] as const) {
      fs.writeFileSync(index, Buffer.from(text.slice(0, at) + '"cpX"' + text.slice(at + 5), 'latin1'));
      assert.ok(
        verifyStore(store).errors.some((e) => e.includes(STORE_FILE.timelineIndex) && e.includes('does not match')),
        `${what} that disagree`,
      );
    }
    fs.writeFileSync(index, 'garbage');
    assert.ok(verifyStore(store).errors.some((e) => e.includes('cannot be read')));
    fs.rmSync(index);
    assert.deepEqual(
      verifyStore(store).errors.filter((e) => e.includes(STORE_FILE.timelineIndex)),
      [],
      'no index: nothing to say',
    );
  });
});

/** User edits, rewinds and their undo, uncertain states: every provenance and plan case over a few paths. */
function history(from: number, n: number): LogRecord[] {
  const out: LogRecord[] = [];
  for (let i = from; i < from + n; i++) {
    const p = `/w/h${i % 3}.ts`;
    const session = `s${i % 2}`;
    const kind = i % 7 === 6 ? 'rewind' : 'prompt';
    out.push({
      t: 'checkpoint',
      id: `h${i}`,
      time: i,
      kind,
      label: `p${i}`,
      session,
      cwd: '/w',
      ...(kind === 'rewind' ? { target: `h${i % 14 === 13 ? i - 7 : i - 3}` } : {}),
    });
    out.push({ t: 'snap', path: p, hash: hex(i % 5), phase: i % 4 === 0 ? 'observed' : 'before', session, time: i });
    out.push({ t: 'snap', path: p, hash: hex((i + 1) % 5), phase: 'after', session, time: i });
    if (i % 5 === 1) out.push({ t: 'snap', path: p, hash: hex(9), phase: 'pre-rewind', time: i });
    if (kind === 'rewind') out.push({ t: 'snap', path: p, hash: hex((i + 3) % 5), phase: 'rewind', by: `h${i}`, origin: 'agent', time: i });
    if (i % 8 === 3) out.push({ t: 'snap', path: p, hash: hex(7), phase: 'observed', time: i });
    if (i % 8 === 3) out.push({ t: 'snap', path: p, hash: hex(7), phase: 'observed', time: i });
    if (i % 6 === 0) out.push({ t: 'call', tool: 'Bash', summary: 'rm -rf build', effect: 'irreversible', session, time: i });
  }
  // The user's edit last: a rewind over it is refused (your-edit), or said (an undo's).
  out.push({ t: 'snap', path: '/w/h0.ts', hash: hex(8), phase: 'observed', time: from + n });
  return out;
}

describe('what the index gives plans', () => {
  it('provenance, checkpoint file counts and every plan equal the full read, before and after lines are appended', () => {
    append(history(0, 40));
    const check = () => {
      const full = readLog(log).records;
      const s = readSkeleton(dir, log);
      const prov = provenanceOf(full);
      const snaps = full.filter((r) => r.t === 'snap');
      assert.ok(snaps.length > 0, 'snapshots to compare');
      assert.deepEqual(
        snaps.map((r) => plain2(s.provenance(r.seq))),
        snaps.map((r) => plain2(prov.get(r.seq))),
        'provenance of every snapshot line',
      );
      const list = readCheckpointList(dir, log);
      assert.deepEqual(
        list.checkpoints.map((c) => [c.id, list.files.get(c.id)]),
        checkpoints(full).map((c) => [c.id, filesPerCheckpoint(full).get(c.id)!.length]),
      );
      // What `checkpoints` prints of each, as the log has it (the list part keeps only these fields).
      const shown = (c: { id: string; seq: number; time: number; kind: string; label: string; session?: string; agent?: string }) => [
        c.id,
        c.seq,
        c.time,
        c.kind,
        c.label,
        c.session ?? null,
        c.agent ?? null,
      ];
      assert.deepEqual(list.checkpoints.map(shown), checkpoints(full).map(shown));
      for (const c of checkpoints(full)) {
        const input = s.planInput(c.seq);
        const viaIndex = input
          ? computeChanges(input.records, c, { facts: input.facts, provenance: s.provenance })
          : computeChanges(s.touchedAfter(c.seq), c, { provenance: s.provenance });
        assert.deepEqual(plain2(viaIndex), plain2(computeChanges(full, c)), `plan to ${c.id} (${s.via})`);
      }
      // The per-checkpoint counts of one sweep over the index's histories (its columns read in place): each plan's count.
      const cps = checkpoints(full);
      const counts = rewindCounts(
        s.histories(),
        cps.map((c) => c.seq),
      );
      const planned = cps.map((c) => {
        const changes = computeChanges(full, c).changes;
        const by = (a: string) => changes.filter((ch) => ch.action === a).length;
        return { total: changes.length, restore: by('restore'), delete: by('delete'), recreate: by('recreate') };
      });
      assert.deepEqual(counts, planned, `counts (${s.via})`);
      // What diff reads of two points: the snapshots around them say each path's state there, and now, as all of them do.
      for (let i = 0; i + 1 < cps.length; i += 5) {
        const around = s.around([cps[i]!.seq, cps[i + 1]!.seq]);
        // With only the two checkpoints (what diff passes when it found both): the same states, those two checkpoints found.
        const only = s.around([cps[i]!.seq, cps[i + 1]!.seq], [cps[i]!, cps[i + 1]!]);
        for (const c of [cps[i]!, cps[i + 1]!]) {
          assert.deepEqual(stateAt(around, c.seq), stateAt(full, c.seq), `state at ${c.id}`);
          assert.deepEqual(stateAt(only, c.seq), stateAt(full, c.seq), `state at ${c.id}, only the points' checkpoints`);
          assert.deepEqual(plain2(findCheckpoint(only, c.id)), plain2(findCheckpoint(full, c.id)), `${c.id} found`);
        }
        assert.deepEqual(latestState(around), latestState(full));
        assert.deepEqual(latestState(only), latestState(full));
      }
      // The same counts from the stretches the index keeps (only the paths appended since swept again).
      assert.deepEqual(sumStretches(list.stretches(), cps.length), planned, `counts from the kept stretches (${list.via})`);
      assert.deepEqual(
        [...sumStretchTotals(list.stretches(), cps.length)],
        planned.map((p) => p.total),
        `the totals alone (what \`checkpoints\` prints) (${list.via})`,
      );
      // The list's columns (what `checkpoints` reads) hold what its objects hold.
      const c = list.columns;
      assert.deepEqual(
        c.ids.map((id, i) => [id, c.seq[i], c.time[i], c.kind[i], c.label[i], c.session[i], c.agent[i], c.files[i]]),
        list.checkpoints.map((x) => [x.id, x.seq, x.time, x.kind, x.label, x.session ?? null, x.agent ?? null, list.files.get(x.id)]),
      );
      // Attempts from what the index hands them (the list, the calls, each write's path and phase) and from the records.
      const tree = (t: ReturnType<typeof buildAttempts>) =>
        plain2({ ...t, attemptOf: [...t.attemptOf], ends: [...t.ends], switches: [...t.switches] });
      assert.deepEqual(tree(buildAttempts(s.attemptInput())), tree(buildAttempts(full.filter(inSkeleton))), `attempts (${s.via})`);
      assert.ok(
        planned.some((p) => p.total > 0),
        'some checkpoint has something to rewind',
      );
      return s.via;
    };
    assert.equal(check(), 'full');
    assert.equal(check(), 'index');
    append(history(40, 12)); // a tail: the provenance fold goes on from the index
    assert.equal(check(), 'index');
    fs.appendFileSync(log, '{"t":"snap","path":"/w/h1.ts","hash":null,"phase":"after","time":99}'); // no newline yet
    assert.equal(check(), 'index');
  });
});

const plain2 = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

describe('IncrementalLog', () => {
  it('reads only the appended lines, equal to a full read', () => {
    append(records(0, 20));
    const inc = new IncrementalLog(log);
    assert.deepEqual(plain(inc.read()), plain(readLog(log)));
    assert.equal(inc.lastRead, 'full');
    const before = inc.read();
    assert.equal(inc.lastRead, 'tail');
    append(records(20, 3));
    const after = inc.read();
    assert.equal(inc.lastRead, 'tail');
    assert.deepEqual(plain(after), plain(readLog(log)));
    assert.equal(after.records.length - before.records.length, records(20, 3).length);
    assert.deepEqual(
      plain({ records: after.records.slice(0, before.records.length), problems: [] }),
      plain(before),
      'earlier records kept as they were',
    );
  });

  it('a line still being written is read as a full read reads it, and again once complete', () => {
    append(records(0, 5));
    const inc = new IncrementalLog(log);
    inc.read();
    const line = JSON.stringify(records(5, 1)[0]);
    fs.appendFileSync(log, line.slice(0, 20));
    assert.deepEqual(plain(inc.read()), plain(readLog(log)));
    fs.appendFileSync(log, line.slice(20) + '\n');
    assert.deepEqual(plain(inc.read()), plain(readLog(log)));
    assert.equal(inc.lastRead, 'tail');
    assert.equal(readLog(log).problems.length, 0);
  });

  it('a rewritten, shrunk or deleted log is read whole', () => {
    append(records(0, 10));
    const inc = new IncrementalLog(log);
    inc.read();
    fs.writeFileSync(
      log + '.new',
      records(50, 2)
        .map((r) => JSON.stringify(r) + '\n')
        .join(''),
    );
    fs.renameSync(log + '.new', log);
    assert.deepEqual(plain(inc.read()), plain(readLog(log)));
    assert.equal(inc.lastRead, 'full');
    fs.truncateSync(log, 10);
    assert.deepEqual(plain(inc.read()), plain(readLog(log)));
    assert.equal(inc.lastRead, 'full');
    fs.rmSync(log);
    assert.deepEqual(inc.read(), { records: [], problems: [] });
  });
});

describe('a checkpoint read from its place', () => {
  it('a damaged place reads the checkpoint from the log (and writes the index again)', () => {
    append(records(0, 10));
    skeleton();
    const text = fs.readFileSync(index, 'latin1');
    const at = text.indexOf('{"t":"checkpoint","id":"cp3"');
    assert.ok(at > 0);
    fs.writeFileSync(index, Buffer.from(text.slice(0, at) + '#' + text.slice(at + 1), 'latin1'));
    const s = readSkeleton(dir, log);
    assert.equal(s.via, 'index');
    const found = s.findCheckpoint('cp3');
    assert.ok(found.ok);
    assert.deepEqual(plain2(found.checkpoint), plain2(checkpoints(readLog(log).records)[3]));
    assert.equal(fs.readFileSync(index, 'latin1').includes('#"t":"checkpoint"'), false, 'the index is written again');
  });
});

describe('snapshot columns', () => {
  it('read back the same records from bytes at any alignment (a view where 8-aligned, a copy elsewhere)', () => {
    append(records(0, 12));
    const snaps = readLog(log).records.filter((r) => r.t === 'snap') as Sequenced<SnapRecord>[];
    assert.ok(snaps.length > 12);
    const bytes = snapBytes(
      encodeSnaps(snaps, () => undefined),
      (v) => JSON.stringify(v),
    );
    for (const shift of [0, 1, 3, 8]) {
      const room = Buffer.alloc(bytes.length + 16);
      bytes.copy(room, shift);
      const rows = new SnapRows(snapsFromBytes(room.subarray(shift, shift + bytes.length)));
      assert.deepEqual(plain2(rows.all()), plain2(snaps), `shifted by ${shift}`);
    }
    // What a plan reads of a row without building it: the same as its record, absent and `rest` values included.
    const rows = new SnapRows(snapsFromBytes(bytes));
    assert.ok(snaps.some((r) => r.session === undefined) && snaps.some((r) => r.session?.includes('\u0000')));
    snaps.forEach((r, i) =>
      assert.deepEqual([rows.pathOf(i), rows.phaseOf(i), rows.sessionOf(i)], [r.path, r.phase, r.session], `row ${i}`),
    );
  });
});

describe('the folders the checkpoints name (what Store.roots reads)', () => {
  const named = (from: number, n: number): LogRecord[] =>
    records(from, n).map((r, i) =>
      r.t === 'checkpoint' ? { ...r, cwd: `/w/s${i % 4}`, ...(i % 7 === 0 ? { roots: [`/r${i % 3}`] } : {}) } : r,
    );
  const expected = () => recordedFoldersOf(readLog(log).records.filter((r): r is Sequenced<CheckpointRecord> => r.t === 'checkpoint'));
  const sorted = (f: RecordedFolders) => ({ named: f.named, cwds: [...f.cwds].sort(), roots: [...f.roots].sort() });

  it('come from the keys part, with the lines appended after it, and never parse the checkpoint part', () => {
    append(named(0, 40));
    assert.deepEqual(sorted(readRecordedFolders(dir, log)), sorted(expected()), 'a full read');
    append(named(40, 6).map((r) => (r.t === 'checkpoint' ? { ...r, cwd: '/w/appended', roots: ['/r/appended'] } : r)));
    // The checkpoint part made unreadable in place (same length): a reader of it would fall back to a full read and write the index again.
    const bytes = fs.readFileSync(index);
    const head = bytes.indexOf(0x0a);
    bytes[head + 1] = 0x20;
    fs.writeFileSync(index, bytes);
    const before = fs.statSync(index).mtimeMs;
    const folders = sorted(readRecordedFolders(dir, log));
    assert.deepEqual(folders, sorted(expected()));
    assert.ok(folders.cwds.includes('/w/appended') && folders.roots.includes('/r/appended'), 'the appended lines count');
    assert.equal(fs.statSync(index).mtimeMs, before, 'the index was used as it is: its checkpoint part was not read');
  });

  it("Store.roots given the folders a reader already holds (the extension's timeline) says the same, reading nothing of the log", () => {
    append(named(0, 40));
    const store = Store.open(dir, { create: true });
    store.addRoots(['/w/s1', '/w/s2', '/r1', '/elsewhere']);
    const held = recordedFoldersOf(readLog(log).records.filter((r): r is Sequenced<CheckpointRecord> => r.t === 'checkpoint'));
    const given = store.roots(() => held);
    assert.ok(!fs.existsSync(index), 'no index written: the log was not read again (at 10,000 checkpoints, 1.5 s on the extension host)');
    assert.deepEqual([...given].sort(), ['/r1', '/w/s1', '/w/s2']);
    assert.deepEqual([...store.roots()].sort(), [...given].sort(), 'asked without them: the same roots');
    assert.ok(fs.existsSync(index), 'asked without them, the store reads the log (through the index, written now)');
  });

  it('a log whose checkpoints name no folder says so', () => {
    append(records(0, 5).map((r) => (r.t === 'checkpoint' ? { ...r, cwd: undefined } : r)));
    readRecordedFolders(dir, log);
    assert.deepEqual(readRecordedFolders(dir, log), { named: false, cwds: [], roots: [] });
  });
});

describe('the gap lines (what a plan says was not recorded)', () => {
  const gap = (i: number): GapRecord => ({ t: 'gap', path: `/w/gap${i}`, reason: 'path-length', session: 's1', time: 1000 + i });

  it('are kept in the keys part; a plan gets them from there and the lines after it, as a search of the log finds them', () => {
    append(records(0, 20));
    appendGaps(log, [gap(3), gap(15)]);
    append(records(20, 20));
    appendGaps(log, [gap(30)]);
    const store = Store.open(dir, {});
    readSkeleton(dir, log); // writes the index
    assert.deepEqual(
      IndexRead.read(index)!
        .keys()
        .gaps.map((g) => g.path),
      ['/w/gap3', '/w/gap15', '/w/gap30'],
      'the index holds them',
    );
    append(records(40, 5));
    appendGaps(log, [gap(42)]);
    for (const since of [0, 1010, 1016, 1042, 1043])
      assert.deepEqual(
        store.gapsSince(since),
        readGaps(log, { since }).filter((g) => g.time >= since),
        `since ${since}`,
      );
    assert.deepEqual(
      store.gapsSince(1016).map((g) => g.path),
      ['/w/gap30', '/w/gap42'],
    );
  });
});

describe('the labels of rewind checkpoints the index says', () => {
  const rewindTo = (id: string, time: number, to: { target?: string; targetCall?: string }, label: string): LogRecord => ({
    t: 'checkpoint',
    id,
    time,
    kind: 'rewind',
    label,
    cwd: '/w',
    ...to,
  });
  /** What the views say of every checkpoint: checkpointLabel over the whole log. */
  const viewsSay = () => {
    const all = readLog(log).records;
    const look = rewindLookups(all);
    return checkpoints(all).map((c) => checkpointLabel(c, look, () => buildAttempts(all)));
  };
  const listed = () => readCheckpointList(dir, log).labels(() => buildAttempts(readLog(log).records));
  const listPart = () => IndexRead.read(index)!.listPart();

  it('a rewind to a checkpoint or to just before a call the index keeps: said from the index, as the views say it', () => {
    append(records(0, 6));
    // Labels as an older build wrote them (nested), which the views say from the target instead.
    append([
      rewindTo('r1', 2000, { target: 'cp2' }, 'Before rewind to "Before rewind to "stale""'),
      rewindTo('r2', 2001, { targetCall: 'b3' }, 'Rewind to: git push'),
    ]);
    append(records(6, 2));
    assert.deepEqual(listed(), viewsSay(), 'read whole (the index written)');
    const part = listPart();
    assert.deepEqual(part.live, [], 'both are said by the index');
    assert.deepEqual(
      part.relabel.map(([i]) => part.ids[i]),
      ['r1', 'r2'],
    );
    assert.deepEqual(listed(), viewsSay(), 'through the index');
    assert.notDeepEqual(listed(), readCheckpointList(dir, log).columns.label, 'the recorded labels are not what is said');
    append(records(8, 2));
    assert.deepEqual(listed(), viewsSay(), 'through the index and lines appended after it');
  });

  it('a rewind to a rewind, or to just before a call the index leaves out, is said when read', () => {
    append(records(0, 6));
    append([
      rewindTo('r1', 2000, { target: 'cp2' }, 'Before rewind to "prompt 2"'),
      rewindTo('r2', 2001, { target: 'r1' }, 'Before rewind to "Before rewind to "prompt 2""'),
      rewindTo('r3', 2002, { targetCall: 'c4' }, 'Before rewind to an edit'),
    ]);
    assert.deepEqual(listed(), viewsSay(), 'read whole');
    const part = listPart();
    assert.deepEqual(
      part.live.map((i) => part.ids[i]),
      ['r2', 'r3'],
      'an undo asks the attempt tree; a rewindable call is not in the skeleton',
    );
    assert.deepEqual(listed(), viewsSay(), 'through the index');
  });
});
