// Records a Claude Code session into the test store through the real hook path: one
// `node dist/cli.js hook claude` process per event, JSON on stdin, the file effect in between.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths';

export const CLI = path.join(repoRoot, 'dist', 'cli.js');
let seq = 0;

export class HookSession {
  constructor(
    readonly store: string,
    readonly cwd: string,
    readonly session = `it-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
  ) {}

  hook(payload: Record<string, unknown>): void {
    const r = spawnSync(process.execPath, [CLI, 'hook', 'claude'], {
      input: JSON.stringify({
        session_id: this.session,
        cwd: this.cwd,
        transcript_path: path.join(this.cwd, '..', `${this.session}.jsonl`),
        ...payload,
      }),
      env: { ...process.env, AGENT_REWIND_STORE: this.store, ELECTRON_RUN_AS_NODE: '1' },
      encoding: 'utf8',
    });
    if (r.status !== 0 || r.stdout) throw new Error(`hook exited ${r.status} printing ${JSON.stringify(r.stdout)}: ${r.stderr}`);
  }

  start(): void {
    this.hook({ hook_event_name: 'SessionStart', source: 'startup' });
  }

  prompt(text: string): void {
    this.hook({ hook_event_name: 'UserPromptSubmit', prompt: text, prompt_id: `p${seq++}` });
  }

  tool(tool_name: string, tool_input: Record<string, unknown>, effect?: () => void): void {
    // Unique across suites: each suite file is bundled on its own, with its own `seq`; real call ids never repeat.
    const tool_use_id = `toolu_it_${this.session}_${seq++}`;
    this.hook({ hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id });
    effect?.();
    this.hook({ hook_event_name: 'PostToolUse', tool_name, tool_input, tool_use_id, tool_response: {} });
  }

  write(rel: string, content: string): void {
    const p = path.join(this.cwd, rel);
    this.tool('Write', { file_path: p, content }, () => {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    });
  }
}
