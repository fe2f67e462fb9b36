// Runs the built CLI (dist/cli.js) as a real process, as agents and users run it.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '../../dist/cli.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], opts: { store?: string; input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliResult {
  const env: NodeJS.ProcessEnv = { AGENT_REWIND_RESIDENT: '0', ...process.env, ...opts.env }; // no resident outlives a test (see scripts/test.mjs)
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

/**
 * The same, without blocking the event loop (for concurrency tests). The payload is the child's stdin from a
 * file, whole and closed before it starts, as an agent's write is: written from this process's event loop
 * instead, dozens of spawns on a starved machine can delay it past the hook's stdin deadline — the hook then
 * rightly gives up, and the test would measure its own writer rather than the hooks.
 */
export function cliAsync(args: string[], opts: { store?: string; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { AGENT_REWIND_RESIDENT: '0', ...process.env };
    if (opts.store) env.AGENT_REWIND_STORE = opts.store;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-stdin-'));
    const file = path.join(dir, 'payload');
    fs.writeFileSync(file, opts.input ?? '');
    const fd = fs.openSync(file, 'r');
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: [fd, 'pipe', 'pipe'] });
    fs.closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (status) => {
      fs.rmSync(dir, { recursive: true, force: true });
      resolve({ status: status ?? -1, stdout, stderr });
    });
  });
}
