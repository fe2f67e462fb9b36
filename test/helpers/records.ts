// Builds sequenced records for pure tests of the timeline and the plan.
import { parseLog } from '../../src/core/storeFiles/fileLog';
import type { LogRecord, Sequenced, SnapPhase } from '../../src/core/storeFiles/records';

export class LogBuilder {
  readonly lines: LogRecord[] = [];
  private t = 1_000_000;

  checkpoint(
    id: string,
    kind: 'prompt' | 'session-start' | 'rewind' | 'before-tool' | 'manual' = 'prompt',
    extra: Record<string, unknown> = {},
  ): this {
    this.lines.push({ t: 'checkpoint', id, kind, label: id, time: this.t++, session: 's1', ...extra } as LogRecord);
    return this;
  }

  snap(path: string, hash: string | null, phase: SnapPhase = 'after', extra: Record<string, unknown> = {}): this {
    this.lines.push({
      t: 'snap',
      path,
      hash,
      phase,
      time: this.t++,
      session: 's1',
      ...(hash ? { mtime: 1, size: 1 } : {}),
      ...extra,
    } as LogRecord);
    return this;
  }

  call(
    tool: string,
    summary: string,
    effect: 'irreversible' | 'compensatable' | 'none' | 'rewindable',
    extra: Record<string, unknown> = {},
  ): this {
    this.lines.push({ t: 'call', tool, summary, effect, time: this.t++, session: 's1', ...extra } as LogRecord);
    return this;
  }

  /** Through the real parser, as a store reader sees it. */
  records(): Sequenced[] {
    return parseLog(this.lines.map((l) => JSON.stringify(l)).join('\n') + '\n').records;
  }

  text(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  }
}

/** A fake but well-formed sha256 made from a short name, for readable tests. */
export function h(name: string): string {
  return Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64);
}
