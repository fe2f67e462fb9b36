// Cursor and Cline sessions in the real VS Code: recorded through real `hook cursor` / `hook cline`
// processes with the fixture payloads (test/fixtures/agents/), shown with their agent and "files only"
// (neither conversation can be forked), rewound to their first prompt (bytes on disk) and undone.
// Cursor's afterFileEdit arrives after the write: its `before` comes from what the store already knows
// (here the baseline its sessionStart took). Each session works in its own folder inside the workspace.
// Every wait is a condition with a generous limit; every assertion says what it expected.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentFixtureHooks } from '../../harness/agentFixtureHooks.mjs';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { repoRoot, EXTENSION_ID } from './paths';
import { until } from './until';

const CLIENT = 'const MAX = 3\nretryOnce(1)\n';
const EDITED = "import { MAX } from './retry'\nretryOnce(1)\n";
const RETRY = 'export const MAX = 3\n';

suite('Files-only agents: Cursor and Cline', function () {
  this.timeout(240000);
  let api: AgentRewindApi;
  let ws: string;
  const run = Date.now().toString(36);

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });

  suiteTeardown(() => {
    for (const d of ['cursor-project', 'cline-project']) fs.rmSync(path.join(ws, d), { recursive: true, force: true });
  });

  /** A project folder with src/net/client.ts, and the functions to read and write in it. */
  function project(name: string) {
    const dir = path.join(ws, name);
    const abs = (rel: string) => path.join(dir, rel);
    fs.mkdirSync(abs('src/net'), { recursive: true });
    fs.writeFileSync(abs('src/net/client.ts'), CLIENT);
    return {
      dir,
      read: (rel: string) => (fs.existsSync(abs(rel)) ? fs.readFileSync(abs(rel), 'utf8') : null),
      write: (rel: string, s: string) => fs.writeFileSync(abs(rel), s),
    };
  }

  /** The session's row in the Conversation view says its agent and "files only", and why in the tooltip. */
  async function checkShown(session: string, name: string, icon: string, why: RegExp): Promise<void> {
    const el = await until(
      `${name}'s session in the Conversation view`,
      () => api.conversation!.getChildren().find((e) => e.kind === 'session' && e.session.id === session),
      90000,
    );
    const item = api.conversation!.getTreeItem(el);
    assert.match(String(item.label), new RegExp(`^${name} · `), `the row's label starts with ${name}`);
    assert.match(String(item.description), /^files only · /, 'the row says files only');
    assert.equal((item.iconPath as vscode.ThemeIcon | undefined)?.id, icon, `the row shows ${name}'s icon`);
    assert.match(String(item.contextValue), /\.filesOnly$/, 'no conversation or both actions are offered');
    const tip = (item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ');
    assert.match(
      tip,
      new RegExp(`Conversation rewind is not available for ${name}: `),
      'the tooltip says conversation rewind is unavailable',
    );
    assert.match(tip, why, 'the tooltip says why');
  }

  /** Rewinds to the session's first prompt, checks the disk with `rewound`, undoes it and checks with `back`. */
  async function rewindAndUndo(session: string, agent: string, firstPrompt: string, rewound: () => void, back: () => void): Promise<void> {
    const first = await until(
      `${agent}'s first prompt checkpoint`,
      () => api.model!.checkpoints.find((n) => n.checkpoint.session === session && n.checkpoint.label === firstPrompt),
      90000,
    );
    assert.equal(first.checkpoint.agent, agent, `the checkpoint is recorded as ${agent}'s`);
    const errors = path.join(api.storeDir!, 'errors.log');
    const logged = fs.existsSync(errors) ? fs.readFileSync(errors, 'utf8') : '';
    assert.ok(!logged.includes(session), `well-formed ${agent} payloads log nothing, errors.log has: ${logged}`);
    const result = await api.service!.apply(first.checkpoint.id);
    assert.equal(result.status, 'done', `the rewind to the first prompt is done: ${JSON.stringify(result)}`);
    rewound();
    const last = await until(
      'the rewind checkpoint in the model',
      () => {
        const l = api.model!.lastRewind();
        return l && l.checkpoint.target === first.checkpoint.id ? l : undefined;
      },
      90000,
    );
    const undo = await api.service!.apply(last.checkpoint.id);
    assert.equal(undo.status, 'done', `the undo is done: ${JSON.stringify(undo)}`);
    back();
  }

  test('a Cursor session: afterFileEdit after the write, before from the baseline; files only; rewound to the first prompt and undone', async () => {
    const p = project('cursor-project');
    const session = `cursor-it-${run}`;
    const send = agentFixtureHooks({ repoRoot, store: api.storeDir!, workspace: p.dir, agent: 'cursor', session });
    const firstPrompt = `Move the retry constant (${run})`;
    send('cursor/session-start.json'); // the baseline: every file's content before the agent edits
    send('cursor/prompt.json', (x) => (x.prompt = firstPrompt));
    p.write('src/net/client.ts', EDITED); // Cursor writes first, then tells us
    send('cursor/after-file-edit.json');
    p.write('src/net/retry.ts', RETRY);
    send('cursor/after-file-edit-create.json');
    send('cursor/stop.json');
    send('cursor/prompt.json', (x) => (x.prompt = `Now test it (${run})`));

    await checkShown(session, 'Cursor', 'inspect', /Cursor keeps its chats in its own database/);
    await rewindAndUndo(
      session,
      'cursor',
      firstPrompt,
      () => {
        assert.equal(p.read('src/net/client.ts'), CLIENT, 'the pre-edit bytes are back (from the store: Cursor never sent them)');
        assert.equal(p.read('src/net/retry.ts'), null, 'the file Cursor created is gone');
      },
      () => {
        assert.equal(p.read('src/net/client.ts'), EDITED, "the undo brings Cursor's edit back");
        assert.equal(p.read('src/net/retry.ts'), RETRY, 'the undo brings the created file back');
      },
    );
  });

  test('a Cline session: editor create and edit; files only; rewound to the first prompt and undone', async () => {
    const p = project('cline-project');
    const session = `cline-it-${run}`;
    const send = agentFixtureHooks({ repoRoot, store: api.storeDir!, workspace: p.dir, agent: 'cline', session });
    const firstPrompt = `Move the retry logic (${run})`;
    send('cline/vscode-4.1/task-start.json');
    send('cline/vscode-4.1/prompt.json', (x) => (x.userPromptSubmit.prompt = firstPrompt));
    send('cline/vscode-4.1/pre-editor-create.json');
    p.write('src/net/retry.ts', RETRY);
    send('cline/vscode-4.1/post-editor-create.json');
    send('cline/vscode-4.1/pre-editor-edit.json');
    p.write('src/net/client.ts', EDITED);
    send('cline/vscode-4.1/post-editor-edit.json');
    send('cline/vscode-4.1/task-complete.json');
    send('cline/vscode-4.1/prompt.json', (x) => (x.userPromptSubmit.prompt = `Now test it (${run})`));

    await checkShown(session, 'Cline', 'robot', /Cline keeps its task history in its own storage/);
    await rewindAndUndo(
      session,
      'cline',
      firstPrompt,
      () => {
        assert.equal(p.read('src/net/client.ts'), CLIENT, 'the edited file has its bytes from before the first prompt');
        assert.equal(p.read('src/net/retry.ts'), null, 'the file Cline created is gone');
      },
      () => {
        assert.equal(p.read('src/net/client.ts'), EDITED, "the undo brings Cline's edit back");
        assert.equal(p.read('src/net/retry.ts'), RETRY, 'the undo brings the created file back');
      },
    );
  });
});
