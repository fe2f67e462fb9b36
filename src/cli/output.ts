// Exit codes and the one way commands print results and errors.

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

export function out(text: string): void {
  process.stdout.write(text + '\n');
}

/** Prints an error as one plain sentence on stderr and returns its exit code. */
export function fail(e: unknown, code?: number): number {
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(msg.endsWith('\n') ? msg : msg + '\n');
  if (e instanceof UsageError) return EXIT.usage;
  if (e instanceof ExitError) return e.code;
  if (code !== undefined) return code;
  if (process.env.AGENT_REWIND_DEBUG && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  return EXIT.error;
}
