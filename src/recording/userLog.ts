// The hook's log for a store it must not write to (one another user owns or may write, core/storeFiles/trust.ts):
// not that store's errors.log, which is theirs to read and to plant — the running user's own
// `$XDG_STATE_HOME/agent-rewind/errors.log` (default `~/.local/state/agent-rewind/errors.log`), made
// owner-only, used only while it is the user's alone, and kept small (past 1 MB nothing more is added).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendErrorLine } from '../core/storeFiles/errorLog';

const MAX_BYTES = 1 << 20;

/** Where the user's own log is, from the environment the hook runs with. */
export function userLogFile(env: NodeJS.ProcessEnv = process.env): string {
  const state =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(env.HOME || os.homedir(), '.local', 'state');
  return path.join(state, 'agent-rewind', 'errors.log');
}

/** Appends one line to the user's own log, while its folder is the user's alone; never throws. */
export function logToUser(message: string, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const file = userLogFile(env);
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) return;
    appendErrorLine(file, message, undefined, MAX_BYTES);
  } catch {
    /* the agent is never blocked */
  }
}
