// Where the store is: `--store DIR` (or `--store=DIR`), else AGENT_REWIND_STORE.

export function storeFromArgs(args: readonly string[], env: NodeJS.ProcessEnv = process.env): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--store') return args[i + 1] ?? null;
    if (a.startsWith('--store=')) return a.slice('--store='.length) || null;
  }
  const e = env.AGENT_REWIND_STORE;
  return e && e.length > 0 ? e : null;
}
