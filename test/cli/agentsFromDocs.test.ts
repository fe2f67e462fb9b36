// The agents added from their vendors' documentation (issue 29) — OpenCode (our plugin's payloads),
// Qwen Code, Factory Droid, Auggie, Windsurf, Kiro CLI and Kiro IDE — each through real
// `agent-rewind hook <agent> [event]` processes: start, prompt, a file created, a file edited, a
// shell command changing a third file, stop, a second prompt; then a rewind to the first prompt must
// give back the bytes, `verify` stay sound and errors.log stay empty. Fixtures:
// test/fixtures/agents/<agent>/ (each README names the doc and the date).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { OPENCODE_PLUGIN_REL } from '../../src/agents/opencode/plugin';
import { CLI, cli, cliJson } from '../helpers/cli';
import { sandbox } from '../helpers/tmp';
import { registry } from '../../src/agents/registry';

const opencodeConnector = registry.connector('opencode')!;

const FIX = path.resolve(__dirname, '../fixtures/agents');
const SRC = { 'src/net/client.ts': 'const MAX = 3\nretryOnce(1)\n', 'src/net/server.ts': 'retryOnce(2)\n', 'notes.txt': 'keep\n' };

interface Ctx {
  ws: string;
  store: string;
  home: string;
}

function setup(): Ctx {
  const { root, ws, store } = sandbox();
  for (const [rel, content] of Object.entries(SRC)) write({ ws, store, home: '' }, rel, content);
  return { ws, store, home: path.join(root, 'home') };
}

function write(c: Ctx, rel: string, s: string): void {
  fs.mkdirSync(path.dirname(path.join(c.ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(c.ws, rel), s);
}

const read = (c: Ctx, rel: string) => (fs.existsSync(path.join(c.ws, rel)) ? fs.readFileSync(path.join(c.ws, rel), 'utf8') : null);

function errors(c: Ctx): string {
  const f = path.join(c.store, 'errors.log');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
}

/** Runs `hook <agent> [event]` in the workspace with `input` on stdin: exit 0, nothing printed. */
function hook(c: Ctx, agent: string, input: string, opts: { event?: string; env?: NodeJS.ProcessEnv } = {}): void {
  const r = cli(['hook', agent, ...(opts.event ? [opts.event] : [])], {
    store: c.store,
    input,
    env: { COPILOT_CLI: '', ...opts.env },
    cwd: c.ws,
  });
  assert.equal(r.status, 0);
  assert.equal(r.stdout, '', 'a hook prints nothing');
}

/** A fixture with its placeholders pointed at the test's folders, then `patch` applied. */
function fixture(c: Ctx, rel: string, patch: (p: any) => void = () => {}): string {
  const p = JSON.parse(fs.readFileSync(path.join(FIX, rel), 'utf8').replaceAll('/WORKSPACE', c.ws).replaceAll('/HOME', c.home));
  patch(p);
  return JSON.stringify(p);
}

/** The scenario's steps, by fixture name; `edit` steps change the workspace as the tool did. */
interface Session {
  agent: string;
  dir: string;
  start?: string;
  prompt: string;
  secondPrompt: (p: any) => void;
  create: [string, string];
  edit: [string, string];
  shell: [string, string];
  stop: string;
}

const rename = (p: any) => (p.prompt = 'second');

const SESSIONS: Session[] = [
  {
    agent: 'opencode',
    dir: 'opencode',
    start: 'session.created.json',
    prompt: 'chat.message.json',
    secondPrompt: rename,
    create: ['tool.execute.before-write.json', 'tool.execute.after-write.json'],
    edit: ['tool.execute.before-edit.json', 'tool.execute.after-edit.json'],
    shell: ['tool.execute.before-bash.json', 'tool.execute.after-bash.json'],
    stop: 'session.idle.json',
  },
  {
    agent: 'qwen',
    dir: 'qwen',
    start: 'session-start.json',
    prompt: 'prompt.json',
    secondPrompt: (p) => ((p.prompt = 'second'), (p.submitted_prompt = 'second'), (p.timestamp = '2026-12-05T10:01:00.000Z')),
    create: ['pre-write_file.json', 'post-write_file.json'],
    edit: ['pre-edit.json', 'post-edit.json'],
    shell: ['pre-run_shell_command.json', 'post-run_shell_command.json'],
    stop: 'stop.json',
  },
  {
    agent: 'droid',
    dir: 'droid',
    start: 'session-start.json',
    prompt: 'prompt.json',
    secondPrompt: rename,
    create: ['pre-Create.json', 'post-Create.json'],
    edit: ['pre-Edit.json', 'post-Edit.json'],
    shell: ['pre-Execute.json', 'post-Execute.json'],
    stop: 'stop.json',
  },
  {
    agent: 'auggie',
    dir: 'auggie',
    start: 'session-start.json',
    prompt: 'prompt.json',
    secondPrompt: rename,
    create: ['pre-save-file.json', 'post-save-file.json'],
    edit: ['pre-str-replace-editor.json', 'post-str-replace-editor.json'],
    shell: ['pre-launch-process.json', 'post-launch-process.json'],
    stop: 'stop.json',
  },
  {
    agent: 'windsurf',
    dir: 'windsurf',
    prompt: 'pre_user_prompt.json',
    secondPrompt: (p) => (p.tool_info.user_prompt = 'second'),
    create: ['pre_write_code-create.json', 'post_write_code-create.json'],
    edit: ['pre_write_code.json', 'post_write_code.json'],
    shell: ['pre_run_command.json', 'post_run_command.json'],
    stop: 'post_cascade_response.json',
  },
  {
    agent: 'kiro',
    dir: 'kiro',
    start: 'cli-agentSpawn.json',
    prompt: 'cli-userPromptSubmit.json',
    secondPrompt: rename,
    create: ['cli-preToolUse-fs_write-create.json', 'cli-postToolUse-fs_write-create.json'],
    edit: ['cli-preToolUse-fs_write-str_replace.json', 'cli-postToolUse-fs_write-str_replace.json'],
    shell: ['cli-preToolUse-execute_bash.json', 'cli-postToolUse-execute_bash.json'],
    stop: 'cli-stop.json',
  },
];

/** Rewinds to the first prompt of `agent`; every checkpoint must be that agent's. */
function rewindToFirstPrompt(c: Ctx, agent: string): void {
  const cps = cliJson<{ id: string; kind: string; agent: string | null }[]>(['checkpoints'], { store: c.store });
  const prompts = cps.filter((x) => x.kind === 'prompt');
  assert.ok(prompts.length >= 2, `two prompts recorded: ${JSON.stringify(cps)} ${errors(c)}`);
  assert.ok(
    cps.every((x) => x.agent === agent),
    `every checkpoint is ${agent}'s: ${JSON.stringify(cps.map((x) => x.agent))}`,
  );
  const r = cli(['rewind', '--to', prompts[0]!.id, '--json'], { store: c.store });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const v = cli(['verify', '--json'], { store: c.store });
  assert.equal(v.status, 0, v.stdout);
}

function assertRewound(c: Ctx): void {
  assert.equal(read(c, 'src/net/retry.ts'), null, 'the created file is gone');
  assert.equal(read(c, 'src/net/client.ts'), SRC['src/net/client.ts'], 'the edited file is back');
  assert.equal(read(c, 'src/net/server.ts'), SRC['src/net/server.ts'], "the shell command's change is undone");
  assert.equal(read(c, 'notes.txt'), 'keep\n');
  assert.equal(errors(c), '');
}

describe('the agents added from their docs, through real hook processes', () => {
  for (const s of SESSIONS) {
    it(`${s.agent}: a write, an edit and a shell command; a rewind to the first prompt restores the bytes`, () => {
      const c = setup();
      const send = (name: string, patch?: (p: any) => void) => hook(c, s.agent, fixture(c, `${s.dir}/${name}`, patch));
      if (s.start) send(s.start);
      send(s.prompt);
      send(s.create[0]);
      write(c, 'src/net/retry.ts', 'export const MAX = 3\n');
      send(s.create[1]);
      send(s.edit[0]);
      write(c, 'src/net/client.ts', 'const MAX = 3\nretry(1)\n');
      send(s.edit[1]);
      send(s.shell[0]);
      write(c, 'src/net/server.ts', 'retry(2)\n');
      send(s.shell[1]);
      send(s.stop);
      send(s.prompt, s.secondPrompt);
      rewindToFirstPrompt(c, s.agent);
      assertRewound(c);
    });
  }

  for (const [alias, agent, dir, prompt] of [
    ['qwen-code', 'qwen', 'qwen', 'prompt.json'],
    ['factory', 'droid', 'droid', 'prompt.json'],
    ['factory-droid', 'droid', 'droid', 'prompt.json'],
    ['augment', 'auggie', 'auggie', 'prompt.json'],
  ] as const) {
    it(`\`hook ${alias}\` records as ${agent}`, () => {
      const c = setup();
      hook(c, alias, fixture(c, `${dir}/${prompt}`));
      const cps = cliJson<{ kind: string; agent: string | null }[]>(['checkpoints'], { store: c.store });
      assert.deepEqual(
        cps.map((x) => [x.kind, x.agent]),
        [['prompt', agent]],
      );
      assert.equal(errors(c), '');
    });
  }

  it('kiro IDE: Run Command hooks get no payload; the event argument, $USER_PROMPT and the working folder are enough', () => {
    const c = setup();
    const ide = (event: string, env: NodeJS.ProcessEnv = {}) => hook(c, 'kiro', '', { event, env });
    ide('promptSubmit', { USER_PROMPT: 'Move the retry constant into its own module' });
    ide('preToolUse');
    write(c, 'src/net/retry.ts', 'export const MAX = 3\n');
    ide('postToolUse');
    ide('preToolUse');
    write(c, 'src/net/client.ts', 'const MAX = 3\nretry(1)\n');
    write(c, 'src/net/server.ts', 'retry(2)\n');
    ide('postToolUse');
    ide('agentStop');
    ide('promptSubmit', { USER_PROMPT: 'second' });
    rewindToFirstPrompt(c, 'kiro');
    assertRewound(c);
  });

  it('opencode: the plugin Connect writes, loaded as OpenCode loads it, drives the real CLI; a dead CLI only logs', async () => {
    const c = setup();
    opencodeConnector.connect(c.ws, { node: process.execPath, cli: CLI, store: c.store });
    // OpenCode (Bun) imports the .js as an ES module; Node needs the .mjs name for that.
    const mjs = path.join(c.ws, 'plugin.mjs');
    fs.copyFileSync(path.join(c.ws, OPENCODE_PLUGIN_REL), mjs);
    const mod = await import(pathToFileURL(mjs).href);
    assert.deepEqual(Object.keys(mod), ['default'], 'one export, for both of OpenCode’s loaders');
    assert.equal(mod.default.id, 'agent-rewind');
    const hooks = await mod.default({ directory: c.ws, worktree: c.ws, project: {}, client: {}, $: null });
    const sessionID = 'ses_plugin_1';
    await hooks.event({ event: { type: 'session.created', properties: { info: { id: sessionID, directory: c.ws } } } });
    const prompt = async (text: string) =>
      hooks['chat.message'](
        { sessionID, messageID: `msg_${text}` },
        {
          message: {},
          parts: [
            { type: 'text', text },
            { type: 'text', text: 'ctx', synthetic: true },
          ],
        },
      );
    await prompt('Move the retry constant');
    const input = { tool: 'write', sessionID, callID: 'call_1' };
    const args = { filePath: path.join(c.ws, 'src/net/retry.ts'), content: 'export const MAX = 3\n' };
    await hooks['tool.execute.before'](input, { args });
    write(c, 'src/net/retry.ts', 'export const MAX = 3\n');
    await hooks['tool.execute.after'](input, { title: 'src/net/retry.ts', output: '', metadata: {} });
    const bash = { tool: 'bash', sessionID, callID: 'call_2' };
    await hooks['tool.execute.before'](bash, { args: { command: "sed -i 's/retryOnce/retry/' src/net/*.ts" } });
    write(c, 'src/net/client.ts', 'const MAX = 3\nretry(1)\n');
    write(c, 'src/net/server.ts', 'retry(2)\n');
    await hooks['tool.execute.after'](
      { ...bash, args: { command: "sed -i 's/retryOnce/retry/' src/net/*.ts" } },
      { title: '', output: '', metadata: { exit: 0 } },
    );
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID } } });
    await prompt('second');
    const cps = cliJson<{ kind: string; label: string }[]>(['checkpoints'], { store: c.store });
    assert.ok(
      cps.some((x) => x.kind === 'prompt' && x.label.includes('Move the retry constant') && !x.label.includes('ctx')),
      JSON.stringify(cps),
    );
    rewindToFirstPrompt(c, 'opencode');
    assertRewound(c);

    // A CLI that cannot start: OpenCode's hook still resolves, and the store's errors.log says why.
    const broken = setup();
    opencodeConnector.connect(broken.ws, { node: path.join(broken.ws, 'no-such-node'), cli: CLI, store: broken.store });
    fs.mkdirSync(broken.store, { recursive: true });
    const brokenMjs = path.join(broken.ws, 'plugin.mjs');
    fs.copyFileSync(path.join(broken.ws, OPENCODE_PLUGIN_REL), brokenMjs);
    const bmod = await import(pathToFileURL(brokenMjs).href);
    const bhooks = await bmod.default.server({ directory: broken.ws, worktree: broken.ws });
    await bhooks['tool.execute.before']({ tool: 'write', sessionID, callID: 'c' }, { args: { filePath: 'a.txt' } });
    assert.match(errors(broken), /opencode plugin: tool\.execute\.before: .*ENOENT/);
  });
});
