// The demo recording behind `npm start` (called through scripts/demo/record.mjs): a small but real
// TypeScript project, our hooks connected with the same settings writer as the "Connect Claude Code"
// command, and a three-prompt session run by the REAL Claude Code CLI against the scripted Messages
// API server of the compat tier — so the Agent Rewind views open on a real recording.
// When the CLI cannot be installed or run, it says so and replays the same session through
// `node dist/cli.js hook claude` (one process per hook event, the tool's effect between Pre and Post).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectClaudeFile } from '../../src/agents/claude/settings';
import { hookCommand } from '../../src/agents/common/hookCommand';
import { claudeEnv, ensureClaude, projectDir, promptArgs, runClaude } from '../../test/compat/claudeCli';
import { startScriptedModel } from '../../test/compat/kit/model.mjs';
import type { Step } from '../../test/compat/kit/wire/anthropic.mjs';

const repoRoot = path.resolve(__dirname, '../..');
const CLI = path.join(repoRoot, 'dist', 'cli.js');
const MARKER = 'agent-rewind-demo.json'; // inside the demo's .git/: proves a folder is ours to recreate

const say = (m: string) => console.log(`[demo] ${m}`);

const FILES: Record<string, string> = {
  'package.json': `{
  "name": "tiny-todo",
  "version": "0.1.0",
  "description": "A tiny todo list for the terminal",
  "bin": { "todo": "dist/cli.js" },
  "scripts": {
    "build": "tsc -p .",
    "test": "node --test dist/test"
  },
  "devDependencies": { "typescript": "^5.6.0" }
}
`,
  'tsconfig.json': `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "commonjs",
    "strict": true,
    "outDir": "dist",
    "rootDir": "."
  },
  "include": ["src", "test"]
}
`,
  'README.md': `# tiny-todo

A tiny todo list for the terminal.

## Usage

    todo add "Buy milk"
    todo list
    todo complete 1
`,
  'src/todo.ts': `export interface Todo {
  id: number;
  title: string;
  completed: boolean;
}

export class TodoList {
  private items: Todo[] = [];
  private nextId = 1;

  add(title: string): Todo {
    const todo: Todo = { id: this.nextId++, title, completed: false };
    this.items.push(todo);
    return todo;
  }

  complete(id: number): boolean {
    const todo = this.items.find((t) => t.id === id);
    if (!todo) return false;
    todo.completed = true;
    return true;
  }

  list(): Todo[] {
    return [...this.items];
  }
}
`,
  'src/format.ts': `import type { Todo } from './todo';

export function formatTodo(todo: Todo): string {
  return \`\${todo.completed ? '[x]' : '[ ]'} \${todo.id}. \${todo.title}\`;
}

export function formatList(todos: Todo[]): string {
  return todos.length ? todos.map(formatTodo).join('\\n') : 'Nothing to do.';
}
`,
  'src/cli.ts': `import { formatList } from './format';
import { TodoList } from './todo';

const list = new TodoList();
const [command, ...args] = process.argv.slice(2);

switch (command) {
  case 'add':
    list.add(args.join(' '));
    break;
  case 'complete':
    list.complete(Number(args[0]));
    break;
  default:
    console.log(formatList(list.list()));
}
`,
  'test/todo.test.ts': `import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { TodoList } from '../src/todo';

test('add and complete', () => {
  const list = new TodoList();
  const t = list.add('Buy milk');
  assert.equal(list.complete(t.id), true);
  assert.equal(list.list()[0]?.completed, true);
});
`,
  '.gitignore': 'node_modules/\ndist/\n*.log\n.claude/settings.local.json\n',
  // Ignored files: never recorded, never touched by a rewind.
  'dist/cli.js': '// build output (ignored by git)\n',
  'debug.log': 'started tiny-todo\n',
};

interface DemoCall {
  name: 'Write' | 'Edit' | 'Bash';
  input: Record<string, unknown>;
}
interface DemoTurn {
  prompt: string;
  steps: (DemoCall | { text: string })[];
}

/** The session: three prompts a user would type, with the tool calls the agent makes. */
function session(ws: string): DemoTurn[] {
  const p = (rel: string) => path.join(ws, rel);
  return [
    {
      prompt: 'Add due dates to todos, and list overdue ones first',
      steps: [
        {
          name: 'Write',
          input: {
            file_path: p('src/dates.ts'),
            content: `/** Parses YYYY-MM-DD; undefined for anything else. */
export function parseDate(text: string | undefined): Date | undefined {
  if (!text || !/^\\d{4}-\\d{2}-\\d{2}$/.test(text)) return undefined;
  const d = new Date(text + 'T00:00:00Z');
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export function isOverdue(due: Date | undefined, now = new Date()): boolean {
  return !!due && due.getTime() < now.getTime();
}
`,
          },
        },
        {
          name: 'Edit',
          input: {
            file_path: p('src/todo.ts'),
            old_string: '  completed: boolean;\n}',
            new_string: '  completed: boolean;\n  due?: Date;\n}',
          },
        },
        {
          name: 'Edit',
          input: {
            file_path: p('src/todo.ts'),
            old_string: '  add(title: string): Todo {\n    const todo: Todo = { id: this.nextId++, title, completed: false };',
            new_string:
              '  add(title: string, due?: Date): Todo {\n    const todo: Todo = { id: this.nextId++, title, completed: false, ...(due ? { due } : {}) };',
          },
        },
        {
          name: 'Edit',
          input: {
            file_path: p('src/format.ts'),
            old_string: "import type { Todo } from './todo';\n",
            new_string: "import { isOverdue } from './dates';\nimport type { Todo } from './todo';\n",
          },
        },
        {
          name: 'Edit',
          input: {
            file_path: p('src/format.ts'),
            old_string: "  return todos.length ? todos.map(formatTodo).join('\\n') : 'Nothing to do.';",
            new_string:
              "  const sorted = [...todos].sort((a, b) => Number(isOverdue(b.due)) - Number(isOverdue(a.due)));\n  return sorted.length ? sorted.map((t) => (isOverdue(t.due) ? '! ' : '  ') + formatTodo(t)).join('\\n') : 'Nothing to do.';",
          },
        },
        {
          name: 'Bash',
          input: {
            command:
              'sed -i \'s/"version": "0.1.0"/"version": "0.2.0"/\' package.json && printf \'# Changelog\\n\\n## 0.2.0\\n\\n- Todos can have a due date; overdue ones are listed first.\\n\' > CHANGELOG.md && echo \'bumped to 0.2.0\' >> debug.log',
            description: 'Bump the version and start a changelog',
          },
        },
        {
          text: 'Todos now take an optional due date (src/dates.ts parses it), overdue ones are listed first and marked with "!", and the version is 0.2.0 with a changelog entry.',
        },
      ],
    },
    {
      prompt: 'Looks good. Commit it and push to origin',
      steps: [
        {
          name: 'Bash',
          input: {
            command:
              'git add -A && git -c user.name="Claude" -c user.email=claude@example.com commit -q -m "Add due dates; list overdue todos first"',
            description: 'Commit the change',
          },
        },
        { name: 'Bash', input: { command: 'git push -q origin main', description: 'Push to origin' } },
        { text: 'Committed and pushed to origin/main.' },
      ],
    },
    {
      prompt: 'Also push it to the mirror remote, then rename complete() to done() everywhere',
      steps: [
        { name: 'Bash', input: { command: 'git push -q mirror main', description: 'Push to the mirror' } },
        {
          name: 'Edit',
          input: {
            file_path: p('src/todo.ts'),
            old_string: '  complete(id: number): boolean {',
            new_string: '  done(id: number): boolean {',
          },
        },
        {
          name: 'Edit',
          input: {
            file_path: p('src/cli.ts'),
            old_string: "  case 'complete':\n    list.complete(Number(args[0]));",
            new_string: "  case 'done':\n    list.done(Number(args[0]));",
          },
        },
        { name: 'Edit', input: { file_path: p('README.md'), old_string: '    todo complete 1', new_string: '    todo done 1' } },
        {
          text: 'The mirror remote is not reachable, so nothing was pushed there. complete() is now done() in the code, the CLI and the README.',
        },
      ],
    },
  ];
}

function git(ws: string, args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync('git', args, { cwd: ws, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
}

/** Removes a folder only if it is empty, missing, or one this script made (its marker says so). */
function clearOwned(dir: string, isOurs: (d: string) => boolean, what: string): void {
  if (!fs.existsSync(dir)) return;
  if (fs.readdirSync(dir).length === 0 || isOurs(dir)) {
    fs.rmSync(dir, { recursive: true, force: true });
    return;
  }
  throw new Error(`${what} ${dir} is not empty and was not made by this script; give an empty or new folder.`);
}

function createProject(ws: string, remote: string, env: NodeJS.ProcessEnv): void {
  fs.mkdirSync(ws, { recursive: true });
  for (const [rel, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  git(ws, ['init', '-q', '-b', 'main'], env);
  git(ws, ['add', '-A'], env);
  git(
    ws,
    ['-c', 'user.name=Ana Developer', '-c', 'user.email=ana@example.com', 'commit', '-q', '-m', 'tiny-todo: add, complete, list'],
    env,
  );
  git(path.dirname(remote), ['init', '-q', '--bare', remote], env);
  git(ws, ['remote', 'add', 'origin', remote], env);
  git(ws, ['remote', 'add', 'mirror', path.join(path.dirname(remote), 'mirror-that-does-not-exist.git')], env);
  git(ws, ['push', '-q', 'origin', 'main'], env);
}

function hook(store: string, payload: Record<string, unknown>): void {
  const r = spawnSync(process.execPath, [CLI, 'hook', 'claude', '--store', store], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 30000,
  });
  if (r.status !== 0 || r.stdout.trim() !== '')
    throw new Error(`hook ${String(payload.hook_event_name)} exited ${r.status} printing ${JSON.stringify(r.stdout.slice(0, 200))}`);
}

/** Without the real CLI: the same session through our hook, one process per event. */
function replay(ws: string, store: string, home: string, turns: DemoTurn[], env: NodeJS.ProcessEnv): void {
  const sessionId = `demo-${Date.now().toString(36)}`;
  const base = {
    session_id: sessionId,
    transcript_path: path.join(projectDir(home, ws), `${sessionId}.jsonl`),
    cwd: ws,
    permission_mode: 'acceptEdits',
  };
  let n = 0;
  turns.forEach((turn, i) => {
    hook(store, { ...base, hook_event_name: 'SessionStart', source: i === 0 ? 'startup' : 'resume' });
    const prompt_id = `prompt-${i}`;
    hook(store, { ...base, prompt_id, hook_event_name: 'UserPromptSubmit', prompt: turn.prompt });
    for (const s of turn.steps) {
      if (!('name' in s)) continue;
      const call = { ...base, prompt_id, tool_name: s.name, tool_input: s.input, tool_use_id: `toolu_demo${String(n++).padStart(4, '0')}` };
      hook(store, { ...call, hook_event_name: 'PreToolUse' });
      let error: string | null = null;
      const file = String(s.input.file_path ?? '');
      if (s.name === 'Write') {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, String(s.input.content));
      } else if (s.name === 'Edit') {
        const text = fs.readFileSync(file, 'utf8');
        if (!text.includes(String(s.input.old_string))) error = 'String to replace not found in file.';
        else fs.writeFileSync(file, text.replace(String(s.input.old_string), String(s.input.new_string)));
      } else {
        const r = spawnSync('bash', ['-c', String(s.input.command)], { cwd: ws, env, encoding: 'utf8' });
        if (r.status !== 0) error = `Exit code ${r.status}\n${r.stderr.trim()}`;
      }
      if (error) hook(store, { ...call, hook_event_name: 'PostToolUseFailure', error, is_interrupt: false, duration_ms: 5 });
      else hook(store, { ...call, hook_event_name: 'PostToolUse', tool_response: {}, duration_ms: 5 });
    }
    hook(store, { ...base, prompt_id, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' });
    hook(store, { ...base, hook_event_name: 'SessionEnd', reason: 'other' });
  });
}

function scriptOf(turn: DemoTurn): Step[] {
  return turn.steps.map((s) => ('name' in s ? { tool_use: { name: s.name, input: s.input } } : { text: s.text }));
}

export async function recordDemo(workspaceArg: string, storeArg: string): Promise<void> {
  const t0 = Date.now();
  const ws = path.resolve(workspaceArg);
  const store = path.resolve(storeArg);
  const parent = path.dirname(store);
  const home = process.env.AGENT_REWIND_DEMO_HOME ? path.resolve(process.env.AGENT_REWIND_DEMO_HOME) : path.join(parent, 'claude-home');
  const remote = path.join(parent, 'origin.git');
  const markerOf = (d: string) => path.join(d, '.git', MARKER);
  const ours = (d: string) => fs.existsSync(markerOf(d));
  const storeOurs = (d: string) =>
    ours(ws) &&
    (() => {
      try {
        return JSON.parse(fs.readFileSync(markerOf(ws), 'utf8')).store === d;
      } catch {
        return false;
      }
    })();

  if (!fs.existsSync(CLI)) {
    say('building dist/ first');
    const b = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')], { cwd: repoRoot, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('the build failed; run `npm run build` and look at the errors.');
  }

  // Idempotent: recreate everything this script made before.
  clearOwned(store, storeOurs, 'The store folder');
  clearOwned(ws, ours, 'The workspace folder');
  for (const d of [home, remote, path.join(parent, 'mirror-that-does-not-exist.git')]) fs.rmSync(d, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const gitEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' };
  createProject(ws, remote, gitEnv);
  fs.writeFileSync(markerOf(ws), JSON.stringify({ store, home, made: new Date().toISOString() }) + '\n');

  const connected = connectClaudeFile(ws, { command: hookCommand({ node: process.execPath, cli: CLI, store, agent: 'claude' }) });
  say(
    `connected Claude Code hooks in ${path.relative(process.cwd(), connected.file) || connected.file} (the settings writer of "Connect Claude Code")`,
  );

  const turns = session(ws);
  let bin: string | null = null;
  if (process.env.AGENT_REWIND_DEMO_REPLAY === '1')
    say('AGENT_REWIND_DEMO_REPLAY=1: replaying hook payloads instead of running the real CLI');
  else {
    try {
      const c = ensureClaude({ log: (m) => say(m), timeoutMs: 10 * 60 * 1000 });
      bin = c.bin;
      say(`recording with the real Claude Code ${c.version} against a scripted model (offline)`);
    } catch (e) {
      say(
        `the real Claude Code CLI is not available (${(e as Error).message}); replaying the same session through \`agent-rewind hook claude\` instead`,
      );
    }
  }

  let how = 'replayed hook payloads';
  if (bin) {
    const model = await startScriptedModel({ wire: 'anthropic', log: path.join(parent, 'demo-requests.jsonl') });
    try {
      let sessionId: string | undefined;
      for (const [i, turn] of turns.entries()) {
        model.setScript(scriptOf(turn), `prompt ${i + 1}`);
        const run = await runClaude(bin, promptArgs(turn.prompt, sessionId), { cwd: ws, env: claudeEnv(home, model.url) });
        if (run.status !== 0 || run.result?.is_error || model.remaining() !== 0) {
          throw new Error(
            `claude run ${i + 1} failed (exit ${run.status}, ${model.remaining()} step(s) left): ${(run.result?.result as string | undefined) ?? run.stderr.slice(0, 500)}`,
          );
        }
        sessionId ??= run.result?.session_id;
        say(`  prompt ${i + 1}: "${turn.prompt}" (${(run.ms / 1000).toFixed(1)} s)`);
      }
      how = 'the real Claude Code CLI';
    } catch (e) {
      say(`${(e as Error).message}\n[demo] falling back to replaying hook payloads`);
      await model.close();
      // Start over so the fallback records onto a clean project.
      return recordAfterFallback(ws, store, home, remote, gitEnv, markerOf, t0);
    }
    await model.close();
  } else replay(ws, store, home, turns, gitEnv);

  summary(store, how, t0);
}

function recordAfterFallback(
  ws: string,
  store: string,
  home: string,
  remote: string,
  gitEnv: NodeJS.ProcessEnv,
  markerOf: (d: string) => string,
  t0: number,
): void {
  fs.rmSync(store, { recursive: true, force: true });
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(remote, { recursive: true, force: true });
  createProject(ws, remote, gitEnv);
  fs.writeFileSync(markerOf(ws), JSON.stringify({ store, home, made: new Date().toISOString() }) + '\n');
  connectClaudeFile(ws, { command: hookCommand({ node: process.execPath, cli: CLI, store, agent: 'claude' }) });
  replay(ws, store, home, session(ws), gitEnv);
  summary(store, 'replayed hook payloads', t0);
}

function summary(store: string, how: string, t0: number): void {
  const r = spawnSync(process.execPath, [CLI, 'checkpoints', '--json', '--store', store], { encoding: 'utf8' });
  const cps = r.status === 0 ? (JSON.parse(r.stdout) as { kind: string }[]) : [];
  const kinds = (k: string) => cps.filter((c) => c.kind === k).length;
  say(
    `recorded with ${how} in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${kinds('prompt')} prompts, ${kinds('before-tool')} before-tool checkpoints, ${cps.length} checkpoints in all → ${store}`,
  );
}
