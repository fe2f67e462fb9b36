// Runs the built CLI (dist/cli.js) as a real process, as agents and users run it.
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '../../dist/cli.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], opts: { store?: string; input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliResult {
  const env = { ...process.env, ...opts.env };
  delete env.AGENT_REWIND_STORE;
  if (opts.store) env.AGENT_REWIND_STORE = opts.store;
  const r = spawnSync(process.execPath, [CLI, ...args], { input: opts.input ?? '', env, cwd: opts.cwd, encoding: 'utf8', timeout: 60000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function cliJson<T = any>(args: string[], opts: Parameters<typeof cli>[1] = {}): T {
  const r = cli([...args, '--json'], opts);
  if (r.status !== 0) throw new Error(`agent-rewind ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** The same, without blocking the event loop (for concurrency tests). */
export function cliAsync(args: string[], opts: { store?: string; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    if (opts.store) env.AGENT_REWIND_STORE = opts.store;
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
