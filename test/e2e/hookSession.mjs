// Records a Claude Code session through the real hook path from an e2e test: one
// `node dist/cli.js hook claude` process per event, JSON on stdin, the file effect in between.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../harness/harness.mjs';

const CLI = path.join(repoRoot, 'dist', 'cli.js');
let seq = 0;

export function hookSession(store, cwd, session = `e2e-${Date.now().toString(36)}`) {
  const hook = (payload) => {
    const r = spawnSync(process.execPath, [CLI, 'hook', 'claude'], {
      input: JSON.stringify({ session_id: session, cwd, ...payload }),
      env: { ...process.env, AGENT_REWIND_STORE: store },
      encoding: 'utf8',
    });
    if (r.status !== 0 || r.stdout) throw new Error(`hook exited ${r.status} printing ${JSON.stringify(r.stdout)}: ${r.stderr}`);
  };
  const tool = (tool_name, tool_input, effect) => {
    const tool_use_id = `toolu_e2e${seq++}`;
    hook({ hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id });
    effect?.();
    hook({ hook_event_name: 'PostToolUse', tool_name, tool_input, tool_use_id, tool_response: {} });
  };
  return {
    session,
    start: () => hook({ hook_event_name: 'SessionStart', source: 'startup' }),
    prompt: (text) => hook({ hook_event_name: 'UserPromptSubmit', prompt: text, prompt_id: `p${seq++}` }),
    tool,
    write: (rel, content) => {
      const p = path.join(cwd, rel);
      tool('Write', { file_path: p, content }, () => {
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, content);
      });
    },
    edit: (rel, from, to) => {
      const p = path.join(cwd, rel);
      tool('Edit', { file_path: p, old_string: from, new_string: to }, () =>
        fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(from, to)),
      );
    },
  };
}
