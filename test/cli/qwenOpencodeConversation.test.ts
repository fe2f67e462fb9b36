// `agent-rewind conversation show|fork` on the real Qwen Code 0.24.4 chat and OpenCode 1.18.33 export
// (test/fixtures/agents/{qwen/real-0.24.4/chats,opencode/real-1.18.33/export}): prompts listed, a fork
// before prompt 2 recorded in the store with its resume command, the parent byte-identical; a cut before
// the first prompt exits 4 having written nothing. OpenCode's fork is loaded with `opencode import`: here a
// stand-in (AGENT_REWIND_OPENCODE_BIN) that answers as 1.18.33 does; the compat tier runs the real one.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const fixtures = path.join(__dirname, '..', 'fixtures', 'agents');
const hash = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');

interface Shown {
  session: string;
  prompts: { uuid: string; text: string }[];
}
interface Forked {
  session: string;
  transcript: string;
  parent: string;
  resume: string;
}

test('conversation show|fork on a Qwen Code chat: a fork before prompt 2 beside the parent, resumed with qwen --resume; before prompt 1 exits 4', () => {
  const root = tempDir('ar-qwen-conv-');
  const store = path.join(root, 'store');
  const chats = path.join(root, 'home', '.qwen', 'projects', '-WORKSPACE', 'chats');
  fs.mkdirSync(chats, { recursive: true });
  const parent = path.join(chats, 'c8a64f10-8823-4004-961d-fb0481c4e5e0.jsonl');
  fs.copyFileSync(path.join(fixtures, 'qwen', 'real-0.24.4', 'chats', path.basename(parent)), parent);
  const before = hash(parent);
  const shown = cliJson<Shown>(['conversation', 'show', '--transcript', parent]);
  assert.equal(shown.session, 'c8a64f10-8823-4004-961d-fb0481c4e5e0');
  assert.equal(shown.prompts.length, 3);
  const refused = cli(['conversation', 'fork', '--transcript', parent, '--before', shown.prompts[0]!.uuid], { store });
  assert.equal(refused.status, 4);
  assert.deepEqual(fs.readdirSync(chats), [path.basename(parent)]);
  const fork = cliJson<Forked>(['conversation', 'fork', '--transcript', parent, '--before', shown.prompts[1]!.uuid], { store });
  assert.equal(fork.parent, shown.session);
  assert.equal(fork.resume, `qwen --resume ${fork.session}`);
  assert.equal(fork.transcript, path.join(chats, `${fork.session}.jsonl`));
  assert.equal(hash(parent), before);
  assert.deepEqual(
    cliJson<Shown>(['conversation', 'show', '--transcript', fork.transcript]).prompts.map((p) => p.uuid),
    [shown.prompts[0]!.uuid],
  );
  assert.match(fs.readFileSync(path.join(store, 'lineage.jsonl'), 'utf8'), new RegExp(`"agent":"qwen".*"session":"${fork.session}"`));
});

test('conversation show|fork on an OpenCode export: the fork is imported with opencode import and resumed with opencode --session; an import that fails leaves nothing', () => {
  const root = tempDir('ar-opencode-conv-');
  const store = path.join(root, 'store');
  const parent = path.join(root, 'exports', 'ses_daff6fc81ffe00KYXYgVpbLifj.json');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.dirname(parent), { recursive: true });
  fs.mkdirSync(ws);
  // The session's folder must exist: `opencode import` runs there (it files the session under that folder's project).
  const exported = fs.readFileSync(path.join(fixtures, 'opencode', 'real-1.18.33', 'export', path.basename(parent)), 'utf8');
  fs.writeFileSync(parent, exported.replaceAll('/WORKSPACE', ws));
  const before = hash(parent);
  // `opencode import <file>` as 1.18.33 answers it; the files it was given are logged.
  const log = path.join(root, 'imports.log');
  const bin = path.join(root, 'opencode');
  const script = (ok: boolean) =>
    `#!${process.execPath}\nconst fs = require('fs');\nfs.appendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + '\\n');\n` +
    (ok
      ? `process.stdout.write('Imported session: ' + JSON.parse(fs.readFileSync(process.argv[3], 'utf8')).info.id + '\\n');\n`
      : 'process.exit(1);\n');
  fs.writeFileSync(bin, script(true), { mode: 0o755 });
  const env = { AGENT_REWIND_OPENCODE_BIN: bin };
  const shown = cliJson<Shown>(['conversation', 'show', '--transcript', parent]);
  assert.equal(shown.session, 'ses_daff6fc81ffe00KYXYgVpbLifj');
  assert.equal(shown.prompts.length, 2);
  assert.equal(cli(['conversation', 'fork', '--transcript', parent, '--before', shown.prompts[0]!.uuid], { store, env }).status, 4);
  const fork = cliJson<Forked>(['conversation', 'fork', '--transcript', parent, '--before', shown.prompts[1]!.uuid], { store, env });
  assert.equal(fork.parent, shown.session);
  assert.equal(fork.resume, `opencode --session ${fork.session}`);
  assert.equal(fork.transcript, path.join(root, 'exports', `${fork.session}.json`));
  assert.equal(fs.readFileSync(log, 'utf8'), `import ${fork.transcript}\n`);
  assert.equal(JSON.parse(fs.readFileSync(fork.transcript, 'utf8')).info.directory, ws);
  assert.equal(hash(parent), before);
  fs.writeFileSync(bin, script(false), { mode: 0o755 });
  const failed = cli(['conversation', 'fork', '--transcript', parent, '--before', shown.prompts[1]!.uuid], { store, env });
  assert.equal(failed.status, 1);
  assert.match(failed.stderr, /opencode import/);
  assert.deepEqual(fs.readdirSync(path.dirname(parent)).sort(), [path.basename(parent), path.basename(fork.transcript)].sort());
});
