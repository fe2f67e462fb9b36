// A store and an agent session recorded in-process through the real recorder (no hook processes, so a
// test sets up hundreds of files in milliseconds): a prompt is a checkpoint, a write is Claude's Write
// tool with its before and after hooks around the file effect. The CLI tests drive the same through real
// hook processes (claudeSession.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { claudeToolKind } from '../../src/agents/claude/toolKind';
import { Store } from '../../src/core/store';
import { checkpoints } from '../../src/core/timeline/timeline';
import { record } from '../../src/recording/recorder';
import { sandbox } from './tmp';

export interface RecordingSession {
  ws: string;
  store: Store;
  /** The SessionStart hook. */
  start(source?: string): void;
  /** A prompt; returns its checkpoint id. */
  prompt(text: string): string;
  /** Write `file` (relative to the workspace, or absolute) with `content` (null: delete it) as one tool call. */
  write(file: string, content: string | Buffer | null, mode?: number): void;
}

/** A fresh workspace and store (sandbox()), and a session of Claude Code recording into it. */
export function recordingSession(session = 's1'): RecordingSession {
  const { ws, store: dir } = sandbox();
  const store = Store.open(dir, { create: true });
  const ev = { agent: 'claude', session, cwd: ws };
  let call = 0;
  return {
    ws,
    store,
    start(source = 'startup') {
      record(store, { ...ev, type: 'session_start', source });
    },
    prompt(text) {
      record(store, { ...ev, type: 'prompt', text });
      return checkpoints(store.read().records).at(-1)!.id;
    },
    write(file, content, mode) {
      const p = path.resolve(ws, file);
      const e = {
        ...ev,
        tool: 'Write',
        kind: claudeToolKind('Write', { file_path: p }),
        input: { file_path: p },
        paths: [p],
        shell: false,
        callId: `toolu_w${call++}`,
      };
      record(store, { ...e, type: 'before_tool' });
      if (content === null) fs.rmSync(p);
      else {
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, content);
        if (mode !== undefined) fs.chmodSync(p, mode);
      }
      record(store, { ...e, type: 'after_tool', ok: true });
    },
  };
}
