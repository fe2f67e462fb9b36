// Every agent's documented (or captured) hook payloads through real `agent-rewind hook <agent> [event]`
// processes: a whole session — start, prompt, file tool edits, a shell command changing a file, stop,
// a second prompt — then a rewind to the first prompt checks the bytes on disk, `verify` is sound and
// errors.log stays empty. Fixtures: test/fixtures/agents/<agent>/ (placeholders rewritten to temp dirs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliJson } from '../helpers/cli';
import { sandbox } from '../helpers/tmp';

const FIX = path.resolve(__dirname, '../fixtures/agents');

interface Ctx {
  ws: string;
  store: string;
  home: string;
}

function setup(files: Record<string, string>, withGit = false): Ctx {
  const { root, ws, store } = sandbox();
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), content);
  }
  if (withGit) {
    const git = (...a: string[]) => execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...a]);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'init');
  }
  return { ws, store, home: path.join(root, 'home') };
}

/** A fixture payload with its placeholders pointed at the test's folders, then `patch` applied. */
function fixture(c: Ctx, rel: string, patch: (p: any) => void = () => {}): any {
  const text = fs.readFileSync(path.join(FIX, rel), 'utf8').replaceAll('/WORKSPACE', c.ws).replaceAll('/HOME', c.home);
  const p = JSON.parse(text);
  patch(p);
  return p;
}

let clock = Date.parse('2026-12-03T10:00:00.000Z');
/** A fresh timestamp in the payload's own format (two events never share one unless a test wants it). */
function restamp(p: any): void {
  clock += 1000;
  if (typeof p.timestamp === 'number') p.timestamp = clock;
  else if (typeof p.timestamp === 'string') p.timestamp = /^\d+$/.test(p.timestamp) ? String(clock) : new Date(clock).toISOString();
}

function hook(c: Ctx, agent: string, payload: unknown, opts: { event?: string; env?: NodeJS.ProcessEnv } = {}): void {
  const r = cli(['hook', agent, ...(opts.event ? [opts.event] : [])], {
    store: c.store,
    input: JSON.stringify(payload),
    env: { COPILOT_CLI: '', ...opts.env },
    cwd: c.ws,
  });
  assert.equal(r.status, 0);
  assert.equal(r.stdout, '', 'a hook prints nothing');
}

const read = (c: Ctx, rel: string) => (fs.existsSync(path.join(c.ws, rel)) ? fs.readFileSync(path.join(c.ws, rel), 'utf8') : null);
const write = (c: Ctx, rel: string, s: string) => {
  fs.mkdirSync(path.dirname(path.join(c.ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(c.ws, rel), s);
};

type Checkpoint = { id: string; kind: string; label: string; agent: string | null; session: string | null };
const records = (c: Ctx): any[] =>
  fs
    .readFileSync(path.join(c.store, 'files.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const checkpoints = (c: Ctx) => cliJson<Checkpoint[]>(['checkpoints'], { store: c.store });

function errors(c: Ctx): string {
  const f = path.join(c.store, 'errors.log');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
}

/** Rewinds to the first prompt checkpoint of `agent` and checks the store afterwards. */
function rewindToFirstPrompt(c: Ctx, agent: string): void {
  const cps = checkpoints(c);
  const prompts = cps.filter((x) => x.kind === 'prompt');
  assert.ok(prompts.length >= 2, `two prompts recorded: ${JSON.stringify(cps)}`);
  assert.ok(
    cps.every((x) => x.agent === agent),
    `every checkpoint is ${agent}'s: ${JSON.stringify(cps.map((x) => x.agent))}`,
  );
  const plan = cli(['plan', '--to', prompts[0]!.id, '--json'], { store: c.store });
  assert.equal(plan.status, 0, plan.stderr);
  const r = cli(['rewind', '--to', prompts[0]!.id, '--json'], { store: c.store });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const v = cli(['verify', '--json'], { store: c.store });
  assert.equal(v.status, 0, v.stdout);
}

/** Sends fixtures of one folder to `hook <agent>`, each with a fresh timestamp, then `patch` applied. */
const sender = (c: Ctx, agent: string, dir: string) => (rel: string, patch?: (p: any) => void) =>
  hook(
    c,
    agent,
    fixture(c, `${dir}/${rel}`, (p) => (restamp(p), patch?.(p))),
  );

const SRC = { 'src/net/client.ts': 'const MAX = 3\nretryOnce(1)\n', 'src/net/server.ts': 'retryOnce(2)\n', 'notes.txt': 'keep\n' };

describe('every agent on one timeline, through real hook processes', () => {
  it('vscode: create_file, multi_replace, apply_patch, a terminal command; a rewind to the first prompt restores the bytes', () => {
    const c = setup({ ...SRC, 'test/net.test.ts': 'import { MAX } from "../src/net/client"\n', 'test/old.test.ts': 'old\n' });
    const send = sender(c, 'vscode', 'vscode');
    send('session-start.json');
    send('prompt.json');
    send('pre-create_file.json');
    write(c, 'src/net/retry.ts', 'export const MAX = 3\n');
    send('post-create_file.json');
    send('pre-multi_replace_string_in_file.json');
    write(c, 'src/net/client.ts', 'const MAX = 3\nretry(1)\n');
    write(c, 'src/net/server.ts', 'retry(2)\n');
    send('post-multi_replace_string_in_file.json');
    send('pre-apply_patch.json');
    fs.renameSync(path.join(c.ws, 'test/net.test.ts'), path.join(c.ws, 'test/retry.test.ts'));
    write(c, 'test/fixtures/empty.json', '{}\n');
    fs.rmSync(path.join(c.ws, 'test/old.test.ts'));
    send('post-apply_patch.json');
    const shell = (p: any) => (p.tool_input.command = 'echo built > build.txt');
    send('pre-run_in_terminal.json', shell);
    write(c, 'build.txt', 'built\n');
    send('post-run_in_terminal.json', shell);
    send('stop.json');
    send('prompt.json', (p) => (p.prompt = 'second'));
    rewindToFirstPrompt(c, 'vscode');
    assert.equal(read(c, 'src/net/retry.ts'), null);
    assert.equal(read(c, 'src/net/client.ts'), SRC['src/net/client.ts']);
    assert.equal(read(c, 'src/net/server.ts'), SRC['src/net/server.ts']);
    assert.equal(read(c, 'test/net.test.ts'), 'import { MAX } from "../src/net/client"\n');
    assert.equal(read(c, 'test/retry.test.ts'), null);
    assert.equal(read(c, 'test/old.test.ts'), 'old\n');
    assert.equal(read(c, 'test/fixtures/empty.json'), null);
    assert.equal(read(c, 'build.txt'), null, 'the terminal command’s file is rewound');
    assert.equal(read(c, 'notes.txt'), 'keep\n');
    assert.equal(errors(c), '');
  });

  it('vscode: a failed call (no PostToolUse) gets its after at the next boundary', () => {
    const c = setup(SRC);
    const send = sender(c, 'vscode', 'vscode');
    send('session-start.json');
    send('prompt.json');
    send('pre-replace_string_in_file.json');
    write(c, 'src/net/client.ts', 'half-written\n'); // the call failed midway: no PostToolUse
    send('stop.json');
    send('prompt.json', (p) => (p.prompt = 'second'));
    const snaps = records(c).filter((r) => r.t === 'snap' && r.path.endsWith('client.ts'));
    assert.deepEqual(
      snaps.map((s) => s.phase),
      ['before', 'after'],
    );
    rewindToFirstPrompt(c, 'vscode');
    assert.equal(read(c, 'src/net/client.ts'), SRC['src/net/client.ts']);
    assert.equal(errors(c), '');
  });

  it('a VS Code payload sent to `hook claude` is recorded as vscode; a doubled delivery is recorded once', () => {
    const c = setup(SRC);
    const start = fixture(c, 'vscode/session-start.json', restamp);
    const prompt = fixture(c, 'vscode/prompt.json', restamp);
    const pre = fixture(c, 'vscode/pre-create_file.json', restamp);
    const post = fixture(c, 'vscode/post-create_file.json', restamp);
    for (const p of [start, prompt, pre]) {
      hook(c, 'claude', p); // .claude/settings.local.json
      hook(c, 'vscode', p); // .github/hooks/agent-rewind.json: the same event again
    }
    write(c, 'src/net/retry.ts', 'export const MAX = 3\n');
    hook(c, 'claude', post);
    hook(c, 'vscode', post);
    hook(
      c,
      'claude',
      fixture(c, 'vscode/prompt.json', (p) => (restamp(p), (p.prompt = 'second'))),
    );
    const all = records(c);
    assert.equal(all.filter((r) => r.t === 'call').length, 1, 'one call line');
    assert.equal(all.filter((r) => r.t === 'checkpoint' && r.kind === 'prompt').length, 2);
    assert.equal(all.filter((r) => r.t === 'snap' && r.path.endsWith('retry.ts')).length, 2, 'one before, one after');
    rewindToFirstPrompt(c, 'vscode');
    assert.equal(read(c, 'src/net/retry.ts'), null);
    assert.equal(errors(c), '');
  });

  for (const format of ['camel', 'pascal'] as const) {
    it(`copilot (${format}): real 1.0.102 payloads, paired without call ids; a rewind to the first prompt restores the bytes`, () => {
      const c = setup({ 'hello.txt': 'original\n' });
      const env = { COPILOT_CLI: '1' };
      const dir = path.join(FIX, 'copilot', format);
      const files = fs.readdirSync(dir).sort();
      const byNumber = (n: string) => files.find((f) => f.startsWith(`${n}-`))!;
      const send = (n: string, patch?: (p: any) => void) => {
        const f = byNumber(n);
        const event = format === 'camel' ? f.replace(/^\d+-/, '').replace(/-.*|\.json$/g, '') : undefined;
        // Pascal payloads reach `hook vscode` (the .github/hooks file both agents load): COPILOT_CLI=1 names the agent.
        hook(c, format === 'camel' ? 'copilot' : 'vscode', fixture(c, `copilot/${format}/${f}`, patch), {
          ...(event ? { event } : {}),
          env,
        });
      };
      // The captured session: 01 start, 02 prompt, 03/04 two parallel creates (04 fails: no parent), 05 its failure,
      // 07 the success, 08/10 edit, 11/13 bash `echo done > done.txt`, 14/15 a failed edit, 16/18 MCP, 19 stop, 20 end.
      fs.rmSync(path.join(c.ws, 'hello.txt'));
      send('01');
      send('02');
      send('03');
      send('04');
      send(format === 'camel' ? '05' : '06'); // the failed create (the captures ordered it and its permission request differently)
      write(c, 'hello.txt', 'hello\n');
      send('07');
      send('08');
      write(c, 'hello.txt', 'hello world\n');
      send('10');
      send('11');
      write(c, 'done.txt', 'done\n');
      send('13');
      send('14');
      send('15');
      send('16');
      send('18');
      send('19');
      send('21');
      send('22');
      rewindToFirstPrompt(c, 'copilot');
      assert.equal(read(c, 'hello.txt'), null, 'created in the first turn: gone');
      assert.equal(read(c, 'done.txt'), null, 'made by the shell command: gone');
      const calls = records(c).filter((r) => r.t === 'call');
      assert.deepEqual(
        calls.map((r) => r.tool),
        ['create', 'create', 'edit', 'bash', 'edit', 'notes-add_note'],
      );
      const mcp = calls.find((r) => r.tool === 'notes-add_note');
      assert.equal(mcp.effect, 'irreversible', 'an MCP tool is listed as not undone');
      assert.equal(errors(c), '');
    });
  }

  it('copilot: the same event through the camelCase and the PascalCase file is recorded once', () => {
    const c = setup({});
    const env = { COPILOT_CLI: '1' };
    hook(c, 'copilot', fixture(c, 'copilot/camel/01-sessionStart.json'), { event: 'sessionStart', env });
    hook(c, 'vscode', fixture(c, 'copilot/pascal/01-SessionStart.json'), { env });
    hook(c, 'copilot', fixture(c, 'copilot/camel/02-userPromptSubmitted.json'), { event: 'userPromptSubmitted', env });
    hook(c, 'claude', fixture(c, 'copilot/pascal/02-UserPromptSubmit.json'), { env });
    const cps = checkpoints(c);
    assert.deepEqual(
      cps.map((x) => [x.kind, x.agent]),
      [
        ['session-start', 'copilot'],
        ['prompt', 'copilot'],
      ],
    );
    assert.equal(errors(c), '');
  });

  for (const family of ['vscode-4.1', 'vscode-3.x', 'cli-3.0'] as const) {
    it(`cline (${family}): edits with relative or absolute paths and a command; a rewind to the first prompt restores the bytes`, () => {
      const c = setup(SRC);
      const send = sender(c, 'cline', 'cline');
      const ext = family !== 'cli-3.0';
      send(ext ? 'vscode-4.1/task-start.json' : 'cli-3.0/agent-start.json');
      send(`${ext ? 'vscode-4.1' : 'cli-3.0'}/prompt.json`);
      if (family === 'vscode-4.1') {
        send('vscode-4.1/pre-editor-create.json');
        write(c, 'src/net/retry.ts', 'export const MAX = 3\n');
        send('vscode-4.1/post-editor-create.json');
        send('vscode-4.1/pre-apply_patch.json');
        write(c, 'src/net/server.ts', 'retry(2)\n');
        send('vscode-4.1/post-apply_patch.json');
      } else if (family === 'vscode-3.x') {
        send('vscode-3.x/pre-write_to_file.json');
        write(c, 'src/net/retry.ts', 'export const MAX = 3\n');
        send('vscode-3.x/post-write_to_file.json');
        send('vscode-3.x/pre-replace_in_file.json');
        write(c, 'src/net/client.ts', "import { MAX } from './retry'\n");
        send('vscode-3.x/post-replace_in_file.json');
      } else {
        send('cli-3.0/pre-editor.json');
        write(c, 'src/net/client.ts', "import { MAX } from './retry'\n");
        send('cli-3.0/post-editor.json');
      }
      const cmd = family === 'vscode-3.x' ? 'execute_command' : 'run_commands';
      const shell = (p: any) => {
        const o = p.preToolUse ?? p.postToolUse;
        if (o?.parameters?.command) o.parameters.command = 'echo built > build.txt';
        if (o?.parameters?.commands) o.parameters.commands = '["echo built > build.txt"]';
        for (const k of ['tool_call', 'tool_result']) if (p[k]) p[k].input = { commands: ['echo built > build.txt'] };
      };
      send(`${family}/pre-${cmd}.json`, shell);
      write(c, 'build.txt', 'built\n');
      send(`${family}/post-${cmd}.json`, shell);
      send(ext ? 'vscode-4.1/task-complete.json' : 'cli-3.0/agent-end.json');
      send(`${ext ? 'vscode-4.1' : 'cli-3.0'}/prompt.json`, (p) => (p.userPromptSubmit.prompt = 'second'));
      rewindToFirstPrompt(c, 'cline');
      assert.equal(read(c, 'src/net/retry.ts'), null);
      assert.equal(read(c, 'src/net/client.ts'), SRC['src/net/client.ts']);
      assert.equal(read(c, 'src/net/server.ts'), SRC['src/net/server.ts']);
      assert.equal(read(c, 'build.txt'), null);
      assert.equal(errors(c), '');
    });
  }

  for (const known of ['git', 'baseline', 'prompt'] as const) {
    const from = {
      git: "git's blob of a clean tracked file",
      baseline: 'the baseline of sessionStart',
      prompt: 'the baseline taken at the first prompt',
    };
    const title = `cursor: afterFileEdit arrives after the write; its before comes from ${from[known]}`;
    if (known === 'git') {
      it(title, () => {
        const c = setup(SRC, true);
        const send = (rel: string, patch?: (p: any) => void) => hook(c, 'cursor', fixture(c, `cursor/${rel}`, patch));
        // No baseline: the edit comes before any prompt of ours (hooks connected mid-turn).
        write(c, 'src/net/client.ts', "import { MAX } from './retry'\n");
        send('after-file-edit.json');
        send('prompt.json', (p) => (p.prompt = 'first'));
        send('stop.json');
        send('prompt.json', (p) => (p.prompt = 'second'));
        const call = records(c).find((x) => x.t === 'call' && x.tool === 'afterFileEdit');
        const r = cli(['rewind', '--before-call', call.call, '--json'], { store: c.store });
        assert.equal(r.status, 0, r.stderr + r.stdout);
        assert.equal(read(c, 'src/net/client.ts'), SRC['src/net/client.ts'], "git's blob: the pre-edit bytes are back");
        assert.equal(cli(['verify'], { store: c.store }).status, 0);
        assert.equal(errors(c), '');
      });
      continue;
    }
    it(title, () => {
      const c = setup(SRC, false);
      const send = (rel: string, patch?: (p: any) => void) => hook(c, 'cursor', fixture(c, `cursor/${rel}`, patch));
      if (known === 'baseline') send('session-start.json'); // the baseline scan holds every file's content
      send('prompt.json');
      write(c, 'src/net/client.ts', "import { MAX } from './retry'\n");
      send('after-file-edit.json');
      write(c, 'src/net/retry.ts', 'export const MAX = 3\n');
      send('after-file-edit-create.json');
      const shell = (p: any) => (p.command = 'echo built > build.txt');
      send('before-shell.json', shell);
      write(c, 'build.txt', 'built\n');
      send('after-shell.json', shell);
      send('before-mcp.json');
      send('after-mcp.json');
      send('stop.json');
      send('prompt.json', (p) => (p.prompt = 'second'));
      rewindToFirstPrompt(c, 'cursor');
      assert.equal(read(c, 'src/net/client.ts'), SRC['src/net/client.ts'], 'the pre-edit bytes are back');
      assert.equal(read(c, 'src/net/retry.ts'), null);
      assert.equal(read(c, 'build.txt'), null, 'the shell command’s file is rewound');
      assert.equal(errors(c), '');
    });
  }

  it('cursor: an edit whose before nobody knows records its after and says so in errors.log', () => {
    const c = setup(SRC); // no prompt, no baseline, no git: hooks connected mid-turn
    write(c, 'src/net/client.ts', 'changed\n');
    hook(c, 'cursor', fixture(c, 'cursor/after-file-edit.json'));
    assert.match(errors(c), /before the edit is unknown/);
    const snaps = records(c).filter((r) => r.t === 'snap');
    assert.deepEqual(
      snaps.map((s) => s.phase),
      ['after'],
    );
  });
});
