// Exit codes and the one way commands print results and errors. Text output escapes every control
// character but its own line ends (shared/text.ts `shownLines`; each value a command prints goes
// through `shown` as well, so a name cannot pass for a line); JSON output is printed as it is.
import { shownLines } from '../shared/text';

export const EXIT = { ok: 0, error: 1, usage: 2, refused: 3, cutRefused: 4 } as const;

export class UsageError extends Error {}

/** An error that carries its own exit code (e.g. a refused conversation cut). */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** Prints text output: a control character in it (a prompt's escape sequence, say) is shown escaped, never sent to the terminal. */
export function out(text: string): void {
  process.stdout.write(shownLines(text) + '\n');
}

/** Prints text on stderr (a message that is not the command's failure), escaped as `out` escapes it. */
export function errOut(text: string): void {
  process.stderr.write(shownLines(text.endsWith('\n') ? text.slice(0, -1) : text) + '\n');
}

/** Prints a value as JSON, unchanged (JSON.stringify escapes the controls that matter to a parser). */
export function outJson(value: unknown, indent: number | undefined = 2): void {
  process.stdout.write(JSON.stringify(value, null, indent) + '\n');
}

/** Prints an error as one plain sentence on stderr and returns its exit code. */
export function fail(e: unknown, code?: number): number {
  const msg = shownLines(e instanceof Error ? e.message : String(e));
  process.stderr.write(msg.endsWith('\n') ? msg : msg + '\n');
  if (e instanceof UsageError) return EXIT.usage;
  if (e instanceof ExitError) return e.code;
  if (code !== undefined) return code;
  if (process.env.AGENT_REWIND_DEBUG && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  return EXIT.error;
}
