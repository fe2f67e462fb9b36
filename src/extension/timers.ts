// The extension's two ways of waiting on a timer, written once: a debounce (a burst of calls runs the
// work once, after the last call has been quiet a while) and "say so if it is slow" (a notice that
// appears only when work outlasts a delay). Both clear their timer themselves, so no view keeps a
// handle to clear, and nothing fires after dispose. No `vscode` here: unit tests run them under node.

/** Runs `fn` once, `ms` after the last `trigger()` of a burst. */
export class Debouncer {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly fn: () => void,
  ) {}

  /** Starts the wait again: `fn` runs `ms` from now unless triggered again. */
  trigger(): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fn();
    }, this.ms);
  }

  /** True while a run is waiting. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.cancel();
  }
}

/** Calls `onSlow` when `work` is still running `ms` after this call; never once it has settled. */
export function whenSlow(work: Promise<unknown>, ms: number, onSlow: () => void): void {
  const timer = setTimeout(onSlow, ms);
  const settled = () => clearTimeout(timer);
  work.then(settled, settled);
}
