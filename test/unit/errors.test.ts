// The one error type (src/core/errors.ts): every code has its words in the one table, the English words
// are the ones the CLI always said, the extension's localizer reaches them, and src/ throws no other kind.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { AgentRewindError, ERROR_CODES, errorCode, errorMessage, isError, localizedMessage } from '../../src/core/errors';
import { bundleLocalizer, ENGLISH } from '../../src/shared/l10n';

const root = path.resolve(__dirname, '..', '..');
const source = fs.readFileSync(path.join(root, 'src', 'core', 'errors.ts'), 'utf8');

/** Every .ts file under `d`. */
function sources(d: string): string[] {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

test('every code of ErrorDetails has a message in the table, and every code src/ throws or tests is one of them', () => {
  const body = /export interface ErrorDetails \{([\s\S]*?)\n\}/.exec(source)![1]!;
  const declared = [...body.matchAll(/^ {2}'?([a-z-]+)'?:/gm)].map((m) => m[1]!);
  assert.ok(declared.length >= 20, `read the codes: ${declared.join(', ')}`);
  assert.deepEqual([...ERROR_CODES].sort(), [...declared].sort(), 'a code without words (or words without a code)');
  const used = new Set<string>();
  for (const f of sources(path.join(root, 'src'))) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/(?:new AgentRewindError|isError\([^,]+,)\s*\(?'([a-z-]+)'/g)) used.add(m[1]!);
  }
  assert.deepEqual(
    [...used].filter((c) => !(ERROR_CODES as string[]).includes(c)),
    [],
  );
  for (const code of ERROR_CODES) assert.equal(typeof errorMessage(code, sampleOf(code)), 'string');
});

/** Facts enough for any code's message. */
function sampleOf(code: string): never {
  return {
    dir: '/d',
    found: [],
    offending: '/d',
    why: 'owner',
    file: '/f',
    reason: 'r',
    holder: null,
    hash: 'h',
    actual: null,
    id: 'i',
    ambiguous: [],
    point: 'p',
    n: 1,
    ref: 'attempt:1',
    kind: 'path',
    value: 'v',
    close: [],
    path: 'p',
    paths: [],
    session: 's',
    parent: 'p',
    before: 'b',
    show: 's',
    message: code,
    sub: 'push',
    supported: 1,
  } as never;
}

test('the English words are the ones the CLI has always printed', () => {
  const said = (e: AgentRewindError) => e.message;
  assert.equal(
    said(new AgentRewindError('store-busy', { holder: { pid: 42, op: 'rewind', time: 0 } })),
    'Another rewind is running on this store (process 42); wait for it to finish and try again.',
  );
  assert.equal(
    said(new AgentRewindError('store-busy', { holder: null })),
    'Another rewind or cleanup is running on this store; wait for it to finish and try again.',
  );
  assert.equal(
    said(new AgentRewindError('not-a-store', { dir: '/docs', found: ['a', 'b', 'c', 'd'] })),
    '/docs is not empty and is not an Agent Rewind store (it holds a, b, c, …). Choose an empty folder or an existing store; nothing was changed.',
  );
  assert.equal(
    said(new AgentRewindError('store-not-trusted', { dir: '/s', offending: '/s/lock', why: 'writable' })),
    '/s/lock can be written by other users, who could change what a rewind writes, so nothing was read or changed: run `chmod go-w /s/lock` if it is yours, or use a store folder you own.',
  );
  assert.equal(
    said(new AgentRewindError('store-format', { found: undefined, supported: 1 })),
    "This store's store.json is not one Agent Rewind understands (format undefined). Move the store aside or point --store at another folder; nothing was changed.",
  );
  assert.equal(
    said(new AgentRewindError('point-not-found', { point: 'attempt:9', attempts: 0 })),
    'No point "attempt:9" in this store (no attempts yet): give a checkpoint id (`agent-rewind checkpoints` lists them), `now`, or `attempt:<n>` (`agent-rewind attempts` lists them).',
  );
  assert.equal(
    said(new AgentRewindError('filter-not-found', { kind: 'session', value: 's9', close: ['s1', 's2'] })),
    'Nothing is recorded for the session "s9" in this store; did you mean "s1", "s2"?',
  );
  assert.equal(
    said(new AgentRewindError('hunk-selection', { path: '/a.ts', why: 'unknown-hunk', unknown: ['h9'], known: [] })),
    '/a.ts has no hunk h9 (it has none); the file may have changed since the plan: run `agent-rewind plan --json` again.',
  );
});

test('the config-file, hooks-file and hook-command codes carry facts, not sentences: the same English words, localizable', () => {
  const said = (e: AgentRewindError) => e.message;
  assert.equal(
    said(
      new AgentRewindError('config-file', {
        why: 'not-json',
        what: 'The Cursor hooks file',
        parseError: { code: 'ValueExpected', offset: 3 },
      }),
    ),
    'The Cursor hooks file is not valid JSON (ValueExpected at offset 3); fix it by hand, then connect again.',
  );
  assert.equal(
    said(new AgentRewindError('hooks-file', { why: 'event-not-list', where: 'the hooks file', event: 'Stop' })),
    '"hooks.Stop" in the hooks file is not a list; fix it by hand, then connect again.',
  );
  assert.equal(
    said(new AgentRewindError('hook-command', { why: 'cmd-unquotable', path: 'C:\\a%b' })),
    'The path C:\\a%b contains a character cmd.exe cannot quote safely (" % !); choose a folder without it.',
  );
  const upper = { t: (m: string, ...args: Parameters<typeof ENGLISH.t>[1][]) => ENGLISH.t(m, ...args).toUpperCase() };
  assert.equal(
    localizedMessage(new AgentRewindError('hook-command', { why: 'agent-name', name: 'x!' }), upper),
    'UNKNOWN AGENT NAME "X!".',
  );
});

test('the code is what callers ask; the extension says the words in its language; other errors keep theirs', () => {
  const e = new AgentRewindError('store-missing', { dir: '/nowhere' });
  assert.deepEqual(
    [errorCode(e), isError(e, 'store-missing'), isError(e, 'store-busy'), errorCode(new Error('x'))],
    ['store-missing', true, false, undefined],
  );
  const german = bundleLocalizer({
    'No Agent Rewind store at {0}. Check --store / AGENT_REWIND_STORE, or record a session first.': 'Kein Agent-Rewind-Speicher in {0}.',
  });
  assert.equal(localizedMessage(e, german), 'Kein Agent-Rewind-Speicher in /nowhere.');
  assert.equal(e.message, 'No Agent Rewind store at /nowhere. Check --store / AGENT_REWIND_STORE, or record a session first.');
  assert.equal(localizedMessage(new Error('disk full'), german), 'disk full');
});

test('src/ declares no error class but the one in errors.ts, the agent folders included', () => {
  const found: string[] = [];
  for (const f of sources(path.join(root, 'src'))) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    if (rel === 'src/core/errors.ts') continue;
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/class (\w+) extends \w*Error\b/g)) found.push(`${rel}: ${m[1]}`);
  }
  assert.deepEqual(found, []);
});
