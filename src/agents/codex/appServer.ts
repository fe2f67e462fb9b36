// A minimal client of `codex app-server` (one JSON-RPC message per line on stdio), the API Codex's
// own TUI and IDE extension use. Connect needs it for one thing `codex exec` cannot do: trusting our
// hooks the way the TUI's `/hooks` review does — `hooks/list` gives each hook's `key` and
// `currentHash`, `config/batchWrite` stores `[hooks.state."<key>"] trusted_hash = "<currentHash>"` in
// $CODEX_HOME/config.toml. The hash is Codex's to compute: we only hand it back. (Codex 0.171 skips an
// untrusted or changed hook without a word.) The compat tier also uses it for `thread/fork`.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

export interface HookListEntry {
  key: string;
  eventName: string;
  command?: string;
  matcher: string | null;
  timeoutSec: number;
  sourcePath: string;
  source: string;
  enabled: boolean;
  isManaged: boolean;
  currentHash: string;
  trustStatus: 'trusted' | 'untrusted' | 'modified' | 'managed' | string;
  [k: string]: unknown;
}

export interface HooksList {
  cwd: string;
  hooks: HookListEntry[];
  warnings: string[];
  errors: { message: string; path: string }[];
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  method: string;
}

export class AppServer {
  private child: ChildProcessWithoutNullStreams;
  private buf = '';
  private nextId = 0;
  private pending = new Map<number, Pending>();
  readonly notifications: { method: string; params: unknown }[] = [];
  stderr = '';

  private constructor(bin: string, cwd: string, env: NodeJS.ProcessEnv) {
    // Required here, not imported: every CLI command's bundle holds this file, and loading node:child_process at
    // start is milliseconds of each (only a conversation rewind of Codex starts its app server).
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    this.child = spawn(bin, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (d) => this.onData(String(d)));
    this.child.stderr.on('data', (d) => (this.stderr += String(d)));
    const fail = (why: string) => {
      for (const p of this.pending.values())
        p.reject(new Error(`codex app-server ${why} before answering ${p.method}: ${this.stderr.slice(-500)}`));
      this.pending.clear();
    };
    this.child.on('error', (e) => fail(`could not start (${e.message})`));
    this.child.on('exit', (code, signal) => fail(`exited (${code ?? signal})`));
  }

  static async start(bin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<AppServer> {
    const s = new AppServer(bin, cwd, env);
    try {
      await s.request('initialize', { clientInfo: { name: 'agent-rewind', version: '0' } });
    } catch (e) {
      await s.close();
      throw e;
    }
    s.child.stdin.write(JSON.stringify({ method: 'initialized' }) + '\n');
    return s;
  }

  private onData(d: string): void {
    this.buf += d;
    let i: number;
    while ((i = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, i).trim();
      this.buf = this.buf.slice(i + 1);
      if (!line) continue;
      let msg: { id?: unknown; result?: unknown; error?: unknown; method?: string; params?: unknown };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        continue;
      }
      const p = typeof msg.id === 'number' ? this.pending.get(msg.id) : undefined;
      if (p && typeof msg.id === 'number' && ('result' in msg || 'error' in msg)) {
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new Error(`${p.method}: ${JSON.stringify(msg.error)}`));
        else p.resolve(msg.result);
      } else if (msg.method) this.notifications.push({ method: msg.method, params: msg.params });
    }
  }

  request<T = unknown>(method: string, params: unknown, timeoutMs = 60000): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`codex app-server did not answer ${method} in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.child.stdin.write(JSON.stringify({ id, method, params }) + '\n');
    });
  }

  async hooksList(cwd: string): Promise<HooksList> {
    const r = await this.request<{ data: HooksList[] }>('hooks/list', { cwds: [cwd] });
    return r.data[0] ?? { cwd, hooks: [], warnings: [], errors: [] };
  }

  /** Trusts every enabled, non-managed, not yet trusted hook `which` accepts (default: all); returns their keys. */
  async trust(cwd: string, which: (h: HookListEntry) => boolean = () => true): Promise<string[]> {
    const list = await this.hooksList(cwd);
    const todo = list.hooks.filter((h) => !h.isManaged && h.enabled && h.trustStatus !== 'trusted' && which(h));
    if (!todo.length) return [];
    const state: Record<string, { trusted_hash: string }> = {};
    for (const h of todo) state[h.key] = { trusted_hash: h.currentHash };
    await this.request('config/batchWrite', { edits: [{ keyPath: 'hooks.state', value: state, mergeStrategy: 'upsert' }] });
    return todo.map((h) => h.key);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
      this.child.kill('SIGTERM');
    });
  }
}
