// Replays a realistic Claude Code session through the real hook path: one `agent-rewind hook
// claude` process per hook event, JSON on stdin, and the tool's file effect performed between
// PreToolUse and PostToolUse — the way Claude Code itself runs our hooks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, type CliResult } from './cli';

let callSeq = 0;

export class ClaudeSession {
  readonly transcript: string;
  constructor(
    readonly store: string,
    readonly cwd: string,
    readonly session = `sess-${Math.random().toString(36).slice(2, 10)}`,
    /** The hook processes' environment (a HOME of the test's own) and extra arguments (`--root <dir>`). */
    readonly opts: { env?: NodeJS.ProcessEnv; args?: string[] } = {},
  ) {
    this.transcript = path.join(path.dirname(store), `${this.session}.jsonl`);
  }

  hook(payload: Record<string, unknown>): CliResult {
    const r = cli(['hook', 'claude', ...(this.opts.args ?? [])], {
      store: this.store,
      ...(this.opts.env ? { env: this.opts.env } : {}),
      input: JSON.stringify({
        session_id: this.session,
        transcript_path: this.transcript,
        cwd: this.cwd,
        permission_mode: 'default',
        ...payload,
      }),
    });
    if (r.status !== 0 || r.stdout !== '')
      throw new Error(`hook must exit 0 and print nothing; got ${r.status} ${JSON.stringify(r.stdout)} ${r.stderr}`);
    return r;
  }

  start(source = 'startup'): void {
    this.hook({ hook_event_name: 'SessionStart', source });
  }

  prompt(text: string): void {
    this.hook({ hook_event_name: 'UserPromptSubmit', prompt: text, prompt_id: `p-${callSeq++}` });
  }

  /** A tool call: PreToolUse, the effect, PostToolUse (or PostToolUseFailure when `effect` throws). */
  tool(tool_name: string, tool_input: Record<string, unknown>, effect?: () => void): void {
    const tool_use_id = `toolu_${(callSeq++).toString().padStart(6, '0')}`;
    this.hook({ hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id });
    let ok = true;
    try {
      effect?.();
    } catch {
      ok = false;
    }
    this.hook(
      ok
        ? { hook_event_name: 'PostToolUse', tool_name, tool_input, tool_use_id, tool_response: {}, duration_ms: 3 }
        : { hook_event_name: 'PostToolUseFailure', tool_name, tool_input, tool_use_id, error: 'failed' },
    );
  }

  write(file: string, content: string | Buffer): void {
    const abs = path.resolve(this.cwd, file);
    this.tool('Write', { file_path: abs, content: content.toString() }, () => {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
    });
  }

  edit(file: string, oldString: string, newString: string): void {
    const abs = path.resolve(this.cwd, file);
    this.tool('Edit', { file_path: abs, old_string: oldString, new_string: newString, replace_all: false }, () => {
      const text = fs.readFileSync(abs, 'utf8');
      if (!text.includes(oldString)) throw new Error('old_string not found');
      fs.writeFileSync(abs, text.replace(oldString, newString));
    });
  }

  bash(command: string, effect?: () => void): void {
    this.tool('Bash', { command, description: 'run' }, effect);
  }
}
