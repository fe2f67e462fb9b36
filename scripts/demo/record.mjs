#!/usr/bin/env node
// Records the demo agent session for `npm start`:
//   node scripts/demo/record.mjs <workspaceDir> <storeDir>
// Creates a small TypeScript project in <workspaceDir> (a git repo with a .gitignore and a local
// origin), connects our Claude Code hooks with the settings writer, and records a three-prompt
// session with the REAL Claude Code CLI against the compat tier's scripted Messages API server —
// or, when the CLI cannot be installed or run, replays the same session through
// `node dist/cli.js hook claude`. Idempotent: running it again recreates the demo (it only ever
// removes folders it made itself). Beside <storeDir> it keeps claude-home/ (the HOME the CLI ran
// with: its transcripts) and origin.git/.
//   AGENT_REWIND_DEMO_REPLAY=1   skip the real CLI
//   AGENT_REWIND_DEMO_HOME=DIR   where the CLI's HOME (and so its transcripts) goes
//   CLAUDE_CODE_VERSION=x        another Claude Code version (default: the compat tier's pin)
import { require as tsxRequire } from 'tsx/cjs/api';

const [ws, store] = process.argv.slice(2);
if (!ws || !store) {
  console.error('usage: node scripts/demo/record.mjs <workspaceDir> <storeDir>');
  process.exit(2);
}
const { recordDemo } = tsxRequire('./session.ts', import.meta.url);
recordDemo(ws, store).catch((e) => {
  console.error(`[demo] ${e.message}`);
  process.exit(1);
});
