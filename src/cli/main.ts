// dist/cli.js: the `agent-rewind` entry. Kept tiny: the hook path (run on every agent tool call)
// loads only dist/hook.js; every other command loads dist/commands.js.
import * as path from 'node:path';
import { requireCached } from './codeCache';

const [, , command, ...rest] = process.argv;

// `agent-rewind … | head`: the reader went away, so what is left to print is nobody's; stop quietly.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });

if (command === 'hook') {
  // With V8's code cache (codeCache.ts): this process starts on every agent tool call.
  const { runHook } = requireCached<typeof import('./hook')>(path.join(__dirname, 'hook.js'));
  // A stdin never closed is let go of by runHook at its deadline, so the process ends either way.
  void runHook(rest).then((code) => {
    process.exitCode = code;
  });
} else {
  const { runCommand } = requireCached<typeof import('./commands')>(path.join(__dirname, 'commands.js'));
  void runCommand(command, rest).then((code) => {
    process.exitCode = code;
  });
}
