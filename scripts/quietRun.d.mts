// Types of quietRun.mjs, for the TypeScript that imports it (test/compat/claudeCli.ts).

export function elapsed(ms: number): string;
export function tailLines(file: string, n?: number): string;
export function runQuiet(
  cmd: string,
  args: string[],
  opts: { log: string; label: string; prefix: string; cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): boolean;
