// The compat tier's ledger: every check is run and passes or fails, and all of it is printed with
// counts at the end. A capability that is missing is a failure, never "not applicable".
export type Status = 'pass' | 'fail';

export interface Result {
  scenario: string;
  name: string;
  status: Status;
  detail?: string;
}

export class Report {
  readonly results: Result[] = [];
  readonly notes: string[] = [];
  private scenario = '';

  begin(scenario: string): void {
    this.scenario = scenario;
    console.log(`\n── ${scenario}`);
  }

  /** Runs `fn`: a list of problems (or a thrown error) fails the check; an empty list passes. */
  check(name: string, fn: () => string[] | void): boolean {
    let problems: string[] = [];
    try {
      problems = fn() ?? [];
    } catch (e) {
      problems = [(e as Error).stack?.split('\n').slice(0, 3).join(' | ') ?? String(e)];
    }
    const status: Status = problems.length ? 'fail' : 'pass';
    this.add({ scenario: this.scenario, name, status, ...(problems.length ? { detail: problems.join('\n        ') } : {}) });
    return status === 'pass';
  }

  /** A check whose capability is missing (its probe found nothing): a failure that says why. */
  missing(name: string, why: string): void {
    this.add({ scenario: this.scenario, name, status: 'fail', detail: `missing: ${why}` });
  }

  note(text: string): void {
    this.notes.push(`[${this.scenario}] ${text}`);
    console.log(`   · ${text}`);
  }

  private add(r: Result): void {
    this.results.push(r);
    const mark = r.status === 'pass' ? 'ok  ' : 'FAIL';
    console.log(`   ${mark} ${r.name}${r.detail ? `\n        ${r.detail}` : ''}`);
  }

  count(s: Status): number {
    return this.results.filter((r) => r.status === s).length;
  }

  /** The one line per real client the tier prints: `<agent> <version>: <n> checks, <n> passed, <n> failed`. */
  line(agent: string, version: string): string {
    return `${agent} ${version}: ${this.results.length} checks, ${this.count('pass')} passed, ${this.count('fail')} failed`;
  }

  summary(scenarios: number, seconds: number): string {
    const failed = this.results.filter((r) => r.status === 'fail');
    return [
      '',
      `compat: ${scenarios} scenario(s), ${this.results.length} check(s): ${this.count('pass')} passed, ${failed.length} failed — ${seconds.toFixed(1)} s`,
      ...(failed.length ? ['FAILED:', ...failed.map((r) => `  - [${r.scenario}] ${r.name}`)] : []),
    ].join('\n');
  }
}
