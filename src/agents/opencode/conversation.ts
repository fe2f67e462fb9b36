// What the rest of Agent Rewind needs to offer conversation rewind for OpenCode sessions. OpenCode
// keeps a session in its SQLite store, so its "transcript" is the session's export file
// (`opencode export <id>`; `find` writes one), read and forked like any other transcript; the fork is
// loaded back with `opencode import` and resumed with `opencode --session <fork id>` (proven by
// test/compat/opencode against the version below).
import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../core/storeFiles/fsx';
import type { AgentConversation } from '../adapter';
import { isOpencodeExport, OpencodeExportFollower, parseOpencodeExport, readOpencodeTimeline } from './exportFile';
import { opencodeBin, opencodeForker, opencodeResumeCommand } from './forkExport';

/** The OpenCode version the export format, the import of a fork and its resume were checked against. */
export const CHECKED_OPENCODE_VERSION = '1.18.33';

/**
 * Exports `session` (run in its folder `cwd`, OpenCode's environment `env`) to `<intoDir>/<session>.json`, mode 0600, and returns
 * that path; throws with OpenCode's own words when it cannot.
 */
export function exportOpencodeSession(
  session: string,
  cwd: string | undefined,
  intoDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const r = spawnSync(opencodeBin(env), ['export', session], { cwd, env, encoding: 'utf8', timeout: 180000, maxBuffer: 256 << 20 });
  const e = r.status === 0 ? parseOpencodeExport(String(r.stdout)) : null;
  if (!e || e.info.id !== session)
    throw new Error(
      `\`opencode export ${session}\` gave no export (${
        r.error?.message ??
        `exit ${r.status}: ${String(r.stderr ?? '')
          .trim()
          .slice(-300)}`
      }); check that OpenCode runs here (or set AGENT_REWIND_OPENCODE_BIN).`,
    );
  fs.mkdirSync(intoDir, { recursive: true });
  const file = path.join(intoDir, `${session}.json`);
  writeFileAtomic(file, JSON.stringify(e, null, 2) + '\n');
  return file;
}

/** The same, without blocking (the extension host): the export runs as a child process, the file is written when it ends. */
export function exportOpencodeSessionAsync(session: string, cwd: string | undefined, intoDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      opencodeBin(),
      ['export', session],
      { cwd, encoding: 'utf8', timeout: 180000, maxBuffer: 256 << 20 },
      (err, stdout, stderr) => {
        const e = err ? null : parseOpencodeExport(stdout);
        if (!e || e.info.id !== session)
          return reject(new Error(`\`opencode export ${session}\` gave no export (${err?.message ?? String(stderr).trim().slice(-300)}).`));
        try {
          fs.mkdirSync(intoDir, { recursive: true });
          const file = path.join(intoDir, `${session}.json`);
          // Written whole then renamed into place (mode 0600): a reader never sees half an export.
          writeFileAtomic(file, JSON.stringify(e, null, 2) + '\n');
          resolve(file);
        } catch (x) {
          reject(x as Error);
        }
      },
    );
  });
}

export const opencodeConversation: AgentConversation = {
  /** By content: `info.id` is a `ses_…` id, with `messages`. */
  find: isOpencodeExport,
  /** Prompts (id = the user message's id), replies and tool calls. */
  read: readOpencodeTimeline,
  /** Read again when the export is rewritten. */
  follow: (file) => new OpencodeExportFollower(file),
  fork: opencodeForker,
  resume: opencodeResumeCommand,
  /** OpenCode has no transcript file of its own: the session's export, written now into `intoDir`. */
  exportTranscript: exportOpencodeSessionAsync,
};
