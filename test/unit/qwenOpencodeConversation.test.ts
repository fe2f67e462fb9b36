// Conversation rewind for Qwen Code and OpenCode on real files: a Qwen Code 0.24.4 chat with three
// prompts (test/fixtures/agents/qwen/real-0.24.4/chats/, written by the real client in the compat
// tier on 2026-12-07: two prompts, then a third after `qwen --resume` of a copy) and an OpenCode 1.18.33
// export with two prompts (test/fixtures/agents/opencode/real-1.18.33/export/, `opencode export`,
// 2026-12-07). Workspace `/WORKSPACE` in both. The real clients resume these forks in test/compat.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { conversationUnavailableText, readAnyTimeline, transcriptForker } from '../../src/agents/capabilities';
import { registry } from '../../src/agents/registry';
import { isError } from '../../src/core/errors';
import { forkConversationAsync } from '../../src/recording/forkConversation';
import { cutExport, forkOpencodeExport, opencodeId } from '../../src/agents/opencode/forkExport';
import { activeChain, isQwenChat, readQwenRecords } from '../../src/agents/qwen/chatFile';
import { forkQwenChat } from '../../src/agents/qwen/forkChat';
import { readOpencodeExport } from '../../src/agents/opencode/exportFile';
import { Store } from '../../src/core/store';
import type { LoggedSession } from '../../src/core/timeline/sessionsFromLog';
import { ConversationSource } from '../../src/extension/model/conversationSource';
import { TranscriptReader } from '../../src/extension/offHost/transcriptReader';
import { tempDir } from '../helpers/tmp';

const fixtures = path.join(__dirname, '..', 'fixtures', 'agents');
const QWEN_CHAT = path.join(fixtures, 'qwen', 'real-0.24.4', 'chats', 'c8a64f10-8823-4004-961d-fb0481c4e5e0.jsonl');
const OPENCODE_EXPORT = path.join(fixtures, 'opencode', 'real-1.18.33', 'export', 'ses_daff6fc81ffe00KYXYgVpbLifj.json');
const CLAUDE_TRANSCRIPT = path.join(fixtures, '..', 'transcripts');

const hash = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');

function copyInto(dir: string, file: string): string {
  const to = path.join(dir, path.basename(file));
  fs.copyFileSync(file, to);
  return to;
}

test('a Qwen Code chat reads as its three prompts with their tool calls, told apart from other transcripts by content', () => {
  const t = readAnyTimeline(QWEN_CHAT);
  assert.equal(t.session, 'c8a64f10-8823-4004-961d-fb0481c4e5e0');
  assert.deepEqual(
    t.prompts.map((p) => p.text),
    [
      'Release 1.1.0: add a changelog, bump the version, drop the old notes and turn debug off.',
      'Also say in the changelog that the release is ready.',
      'What does the changelog say now?',
    ],
  );
  assert.deepEqual(
    t.prompts[0]!.tools.map((x) => [x.name, x.effect]),
    [
      ['write_file', 'rewindable'],
      ['read_file', 'none'],
      ['edit', 'rewindable'],
      ['run_shell_command', 'rewindable'],
      ['read_file', 'none'],
      ['run_shell_command', 'rewindable'],
    ],
  );
  assert.deepEqual(t.prompts[0]!.replies, ['Released 1.1.0.']);
  assert.equal(t.prompts[0]!.cwd, '/WORKSPACE');
  assert.ok(t.prompts[0]!.tools.every((x) => x.result && !x.result.isError));
  assert.equal(isQwenChat(QWEN_CHAT), true);
  assert.equal(isQwenChat(OPENCODE_EXPORT), false);
  // Claude Code's transcripts are a uuid chain too: the real one and the synthetic ones are not taken for Qwen chats.
  const claudeFiles = fs.readdirSync(CLAUDE_TRANSCRIPT).filter((f) => f.endsWith('.jsonl'));
  assert.ok(claudeFiles.includes('real-2.1.332-two-prompts.jsonl'));
  assert.deepEqual(
    claudeFiles.filter((f) => isQwenChat(path.join(CLAUDE_TRANSCRIPT, f))),
    [],
  );
  assert.equal(readAnyTimeline(path.join(CLAUDE_TRANSCRIPT, 'real-2.1.332-two-prompts.jsonl')).prompts.length, 2);
});

test('a Qwen Code fork before prompt 2 of 3 keeps only the chain up to it, under a new id, beside the parent; the parent is byte-identical', () => {
  const dir = tempDir();
  const parent = copyInto(dir, QWEN_CHAT);
  const before = hash(parent);
  const t = readAnyTimeline(parent);
  const f = forkQwenChat(parent, t.prompts[1]!.uuid, '11111111-2222-4333-8444-555555555555');
  assert.equal(hash(parent), before);
  assert.equal(f.transcript, path.join(dir, '11111111-2222-4333-8444-555555555555.jsonl'));
  assert.equal(f.resume, 'qwen --resume 11111111-2222-4333-8444-555555555555');
  assert.equal(f.parent, 'c8a64f10-8823-4004-961d-fb0481c4e5e0');
  assert.equal(f.cwd, '/WORKSPACE');
  assert.equal(fs.statSync(f.transcript).mode & 0o777, 0o600);
  const forked = readAnyTimeline(f.transcript);
  assert.equal(forked.session, f.session);
  assert.deepEqual(
    forked.prompts.map((p) => p.uuid),
    [t.prompts[0]!.uuid],
  );
  assert.deepEqual(forked.prompts[0]!.tools, t.prompts[0]!.tools);
  const records = readQwenRecords(f.transcript);
  assert.ok(records.every((r) => r.sessionId === f.session));
  // One line: each record's parent is the one before it, so the loader's chain walk reaches the root.
  assert.deepEqual(
    records.map((r) => r.parentUuid),
    [null, ...records.slice(0, -1).map((r) => r.uuid)],
  );
  assert.equal(activeChain(records).length, records.length);
  assert.deepEqual(records[0]!.forkedFrom, { sessionId: f.parent, messageUuid: t.prompts[0]!.uuid });
});

test('a Qwen Code cut before the first prompt, or before something that is not a prompt, writes nothing', () => {
  const dir = tempDir();
  const parent = copyInto(dir, QWEN_CHAT);
  const t = readAnyTimeline(parent);
  const notPrompt = readQwenRecords(parent).find((r) => r.type === 'assistant')!.uuid;
  for (const cut of [t.prompts[0]!.uuid, notPrompt, 'no-such-uuid'])
    assert.throws(
      () => registry.transcriptConversation(parent).fork.fork(parent, cut),
      (e: unknown) => registry.transcriptConversation(parent).fork.refused(e),
    );
  assert.deepEqual(fs.readdirSync(dir), [path.basename(parent)]);
});

test('an OpenCode export reads as its prompts (the user messages) with their tool calls', () => {
  const t = readAnyTimeline(OPENCODE_EXPORT);
  assert.equal(t.session, 'ses_daff6fc81ffe00KYXYgVpbLifj');
  assert.deepEqual(
    t.prompts.map((p) => p.text),
    [
      '"Release 1.1.0: add a changelog, bump the version, drop the old notes and turn debug off."',
      '"Also say in the changelog that the release is ready."',
    ],
  );
  assert.deepEqual(
    t.prompts[0]!.tools.map((x) => x.name),
    ['write', 'edit', 'bash', 'bash'],
  );
  assert.deepEqual(t.prompts[0]!.replies, ['Released 1.1.0.']);
  assert.equal(t.prompts[0]!.cwd, '/WORKSPACE');
});

test('an OpenCode fork before prompt 2 is a new export with every id new and every reference followed, handed to `opencode import`; the parent is byte-identical', () => {
  const dir = tempDir();
  const parent = copyInto(dir, OPENCODE_EXPORT);
  const before = hash(parent);
  const t = readAnyTimeline(parent);
  const imported: { file: string; cwd: string | undefined; session: string }[] = [];
  const f = forkOpencodeExport(parent, t.prompts[1]!.uuid, {
    importer: (file, cwd, session) => void imported.push({ file, cwd, session }),
  });
  assert.equal(hash(parent), before);
  assert.deepEqual(imported, [{ file: f.transcript, cwd: '/WORKSPACE', session: f.session }]);
  assert.match(f.session, /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
  assert.equal(f.transcript, path.join(dir, `${f.session}.json`));
  assert.equal(f.resume, `opencode --session ${f.session}`);
  assert.equal(fs.statSync(f.transcript).mode & 0o777, 0o600);
  const p = readOpencodeExport(parent);
  const fork = readOpencodeExport(f.transcript);
  const kept = p.messages.findIndex((m) => m.info.id === t.prompts[1]!.uuid);
  assert.equal(fork.messages.length, kept);
  const parentIds = new Set([p.info.id, ...p.messages.flatMap((m) => [m.info.id, ...m.parts.map((x) => x.id)])]);
  const forkIds = [fork.info.id, ...fork.messages.flatMap((m) => [m.info.id, ...m.parts.map((x) => x.id)])];
  assert.deepEqual(
    forkIds.filter((id) => parentIds.has(id)),
    [],
  );
  // Ids sort in the kept order (OpenCode replays messages and parts by id).
  const msgIds = fork.messages.map((m) => m.info.id);
  assert.deepEqual([...msgIds].sort(), msgIds);
  for (const m of fork.messages) {
    assert.equal(m.info.sessionID, f.session);
    for (const x of m.parts) assert.deepEqual([x.sessionID, x.messageID], [f.session, m.info.id]);
  }
  // Every assistant message answers the kept prompt: its parentID is the prompt's new id.
  assert.deepEqual(
    [...new Set(fork.messages.slice(1).map((m) => [m.info.role, m.info.parentID].join(' ')))],
    [`assistant ${fork.messages[0]!.info.id}`],
  );
  assert.deepEqual(
    readAnyTimeline(f.transcript).prompts.map((x) => [x.text, x.tools.map((y) => y.id)]),
    t.prompts.slice(0, 1).map((x) => [x.text, x.tools.map((y) => y.id)]),
  );
});

test('an OpenCode fork that `opencode import` refuses leaves no file; a cut before the first prompt writes nothing', () => {
  const dir = tempDir();
  const parent = copyInto(dir, OPENCODE_EXPORT);
  const t = readAnyTimeline(parent);
  assert.throws(
    () =>
      forkOpencodeExport(parent, t.prompts[1]!.uuid, {
        importer: () => {
          throw new Error('import failed');
        },
      }),
    /import failed/,
  );
  assert.throws(
    () => registry.transcriptConversation(parent).fork.fork(parent, t.prompts[0]!.uuid),
    (e: unknown) => registry.transcriptConversation(parent).fork.refused(e),
  );
  assert.deepEqual(fs.readdirSync(dir), [path.basename(parent)]);
});

test('OpenCode ids: time-ordered ascending, newest-first descending, as OpenCode makes them', () => {
  const a = opencodeId('msg', 1796639098182, 1);
  const b = opencodeId('msg', 1796639098182, 2);
  const c = opencodeId('msg', 1796639098183, 1);
  assert.ok(a < b && b < c);
  assert.ok(opencodeId('ses', 1796639098183, 1, true) < opencodeId('ses', 1796639098182, 1, true));
  // The parent's own first message id was made at its creation time: its 12 hex digits say so.
  assert.equal(opencodeId('msg', 1796639098182, 1).slice(0, 16), 'msg_250090546001');
  const e = readOpencodeExport(OPENCODE_EXPORT);
  assert.equal(cutExport(e, 1, 'ses_x', 1).messages.length, 1);
});

test('the capability sentences offer conversation rewind for Qwen Code and OpenCode', () => {
  assert.equal(conversationUnavailableText('qwen'), null);
  assert.equal(conversationUnavailableText('opencode'), null);
});

test('the Conversation view makes an OpenCode session its transcript by `opencode export` (the hooks name none): its prompts get their message ids, the later ones forkable', async () => {
  const dir = tempDir();
  // A stand-in for the OpenCode CLI (AGENT_REWIND_OPENCODE_BIN): `export <id>` prints the real 1.18.33 export, as OpenCode does.
  const bin = path.join(dir, 'opencode');
  fs.writeFileSync(
    bin,
    `#!${process.execPath}\nif (process.argv[2] !== 'export') process.exit(2);\nprocess.stderr.write('Exporting session: ' + process.argv[3] + '\\n');\nprocess.stdout.write(require('fs').readFileSync(${JSON.stringify(OPENCODE_EXPORT)}, 'utf8'));\n`,
    { mode: 0o755 },
  );
  const saved = process.env.AGENT_REWIND_OPENCODE_BIN;
  process.env.AGENT_REWIND_OPENCODE_BIN = bin;
  try {
    const store = Store.open(path.join(dir, 'store'), { create: true });
    const source = new ConversationSource(store, new TranscriptReader(undefined));
    const checkpoint = {
      id: 'cp1',
      label: 'Release 1.1.0',
      time: 1796639098182,
      kind: 'prompt',
      session: 'ses_daff6fc81ffe00KYXYgVpbLifj',
    };
    const logged = [
      {
        session: 'ses_daff6fc81ffe00KYXYgVpbLifj',
        agent: 'opencode',
        started: 1796639097727,
        cwd: dir,
        prompts: [{ checkpoint, calls: [] }],
        orphanCalls: [],
      },
    ] as unknown as LoggedSession[];
    await source.prepare(logged);
    // The export is made in the background; the view's 2 s fingerprint poll notices when it lands, and prepares again.
    const printed = source.fingerprint(source.build(logged));
    await source.transcriptsMade();
    assert.notEqual(source.fingerprint(source.build(logged)), printed);
    await source.prepare(logged);
    const [s] = source.build(logged);
    const e = readOpencodeExport(OPENCODE_EXPORT);
    assert.equal(s!.transcript, path.join(store.dir, 'transcripts', 'opencode', 'ses_daff6fc81ffe00KYXYgVpbLifj.json'));
    assert.deepEqual(
      s!.prompts.map((p) => [p.uuid, p.forkable]),
      [
        [e.messages[0]!.info.id, false],
        [e.messages.find((m, i) => i > 0 && m.info.role === 'user')!.info.id, true],
      ],
    );
  } finally {
    if (saved === undefined) delete process.env.AGENT_REWIND_OPENCODE_BIN;
    else process.env.AGENT_REWIND_OPENCODE_BIN = saved;
  }
});

test('an OpenCode fork whose session folder is gone is refused before `opencode import` runs (import files a session under the folder it runs in); nothing is left', () => {
  const dir = tempDir();
  const parent = copyInto(dir, OPENCODE_EXPORT); // its folder, /WORKSPACE, does not exist here
  const t = readAnyTimeline(parent);
  assert.throws(() => forkOpencodeExport(parent, t.prompts[1]!.uuid), /folder \/WORKSPACE does not exist/);
  assert.deepEqual(fs.readdirSync(dir), [path.basename(parent)]);
});

test('the extension forks OpenCode without blocking: the import runs as a child process, then the fork is recorded like any other; a refused cut is a fork-refused error', async () => {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  const parent = path.join(dir, 'ses_daff6fc81ffe00KYXYgVpbLifj.json');
  fs.writeFileSync(parent, fs.readFileSync(OPENCODE_EXPORT, 'utf8').replaceAll('/WORKSPACE', ws));
  const log = path.join(dir, 'imports.log');
  const bin = path.join(dir, 'opencode');
  fs.writeFileSync(
    bin,
    `#!${process.execPath}\nconst fs = require('fs');\nfs.appendFileSync(${JSON.stringify(log)}, process.cwd() + ' ' + process.argv.slice(2).join(' ') + '\\n');\nprocess.stdout.write('Imported session: ' + JSON.parse(fs.readFileSync(process.argv[3], 'utf8')).info.id + '\\n');\n`,
    { mode: 0o755 },
  );
  const saved = process.env.AGENT_REWIND_OPENCODE_BIN;
  process.env.AGENT_REWIND_OPENCODE_BIN = bin;
  try {
    const store = Store.open(path.join(dir, 'store'), { create: true });
    const t = readAnyTimeline(parent);
    const pending = forkConversationAsync(store, { transcript: parent }, t.prompts[1]!.uuid, transcriptForker('opencode')!);
    assert.ok(pending instanceof Promise);
    const f = await pending;
    assert.equal(f.resume, `opencode --session ${f.session}`);
    assert.equal(f.recorded, true);
    assert.equal(fs.readFileSync(log, 'utf8'), `${ws} import ${f.transcript}\n`);
    assert.match(
      fs.readFileSync(path.join(store.dir, 'lineage.jsonl'), 'utf8'),
      new RegExp(`"agent":"opencode".*"session":"${f.session}"`),
    );
    await assert.rejects(
      forkConversationAsync(store, { transcript: parent }, t.prompts[0]!.uuid, transcriptForker('opencode')!),
      (e: unknown) => isError(e, 'fork-refused'),
    );
  } finally {
    if (saved === undefined) delete process.env.AGENT_REWIND_OPENCODE_BIN;
    else process.env.AGENT_REWIND_OPENCODE_BIN = saved;
  }
});
