// Waits for a condition the extension reaches asynchronously (store watcher, webview messages).
// Generous by default: the machine may be loaded; a condition met returns at once.
export async function until<T>(what: string, fn: () => T | undefined | false, ms = 60000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
