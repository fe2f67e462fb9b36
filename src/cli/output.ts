// Exit codes and the one way commands print results and errors. Text output escapes every control
// character but its own line ends (shared/text.ts `shownLines`; each value a command prints goes
// through `shown` as well, so a name cannot pass for a line); JSON output is printed as it is.
import { shownLines } from '../shared/text';
import { AgentRewindError, type ErrorCode, errorCode, INTERNAL_ERRORS } from '../core/errors';

export const EXIT = { ok: 0, error: 1, usage: 2, refused: 3, cutRefused: 4 } as const;

/** A command line the CLI cannot run: its sentence, and exit code 2. */
export function usageError(message: string): AgentRewindError<'usage'> {
  return new AgentRewindError('usage', { message });
}

/** Codes with an exit code of their own; every other Agent Rewind error exits 1. */
const EXIT_OF: Partial<Record<ErrorCode, number>> = { usage: EXIT.usage, 'fork-refused': EXIT.cutRefused };

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

/**
 * Prints `n` rows, made by `row(i)`, as `outJson` prints the array of them — the same bytes — a few hundred
 * rows at a time: each row is garbage once written into the text, none lives to the end.
 */
export function outJsonRows(n: number, row: (i: number) => unknown): void {
  if (n === 0) return outJson([]);
  const parts: string[] = [];
  for (let from = 0; from < n; from += ROWS_AT_ONCE) {
    const chunk = new Array<unknown>(Math.min(ROWS_AT_ONCE, n - from));
    for (let k = 0; k < chunk.length; k++) chunk[k] = row(from + k);
    // `[\n  {…},\n  {…}\n]`: its rows, between the brackets' lines.
    const text = JSON.stringify(chunk, null, 2);
    parts.push(text.slice(2, -2));
  }
  process.stdout.write(`[\n${parts.join(',\n')}\n]\n`);
}
const ROWS_AT_ONCE = 500;

/** Prints an error as one plain sentence on stderr and returns its exit code. */
export function fail(e: unknown, code?: number): number {
  const msg = shownLines(e instanceof Error ? e.message : String(e));
  process.stderr.write(msg.endsWith('\n') ? msg : msg + '\n');
  const known = errorCode(e);
  if (known && EXIT_OF[known] !== undefined) return EXIT_OF[known];
  if (code !== undefined) return code;
  // Said on purpose, in a sentence that says what to do: no stack, unless a guard inside us was reached.
  if (known && !INTERNAL_ERRORS.has(known)) return EXIT.error;
  if (process.env.AGENT_REWIND_DEBUG && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  return EXIT.error;
}
