// Quoting one argument for a POSIX shell, the one quoter every part of the project uses (the
// compensations we suggest, the hook commands we write into an agent's settings). Plain words stay
// bare; anything else is single-quoted, where nothing is special but the quote itself (`'` → `'\''`).

export function quoteArg(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
