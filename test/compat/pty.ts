// A client's INTERACTIVE UI (Codex's TUI, Gemini CLI's) in a pseudo-terminal from util-linux `script`,
// for the compat tier: what a user runs, e.g. `codex resume <id> <prompt>`. Nothing emulates a screen
// here, so the one terminal query a UI must have answered — where the cursor is (`ESC[6n`) — is
// answered "row 1, column 1"; other queries time out in the client, as on a dumb terminal. Once
// `done()` holds (the scripted turn was served and its end hook ran), Ctrl-C is sent every second
// until the UI quits (both ask for a second one). Bounded by `timeoutMs`: the whole group is killed then.
import { spawn } from 'node:child_process';
import { shellQuote } from './codex/codexHome';

export interface PtyRun {
  status: number | null;
  /** Everything the UI drew, escape sequences included. */
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export function runInPty(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; done: () => boolean; timeoutMs?: number },
): Promise<PtyRun> {
  const t0 = Date.now();
  // `script` gives the terminal the size of its stdin, 0×0 for a pipe: Codex's TUI then draws nothing and never
  // submits its prompt. A plain 50×160 terminal instead.
  const line = `stty rows 50 cols 160; exec ${[command, ...args].map(shellQuote).join(' ')}`;
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', line, '/dev/null'], {
      cwd: opts.cwd,
      env: { ...opts.env, TERM: 'xterm-256color', SHELL: '/bin/sh' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let answered = 0;
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      const asked = stdout.split('\x1b[6n').length - 1;
      for (; answered < asked; answered++) child.stdin.write('\x1b[1;1R');
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => undefined); // the UI may be gone when the last Ctrl-C goes out
    const poll = setInterval(() => {
      if (opts.done()) child.stdin.write('\x03');
    }, 1000);
    const kill = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.timeoutMs ?? 120000);
    child.on('error', (e) => (stderr += `\n${e.message}`));
    child.on('close', (status) => {
      clearInterval(poll);
      clearTimeout(kill);
      resolve({ status, stdout, stderr, ms: Date.now() - t0, timedOut });
    });
  });
}
