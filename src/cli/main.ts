// dist/cli.js: the `agent-rewind` entry. Kept tiny: the hook path (run on every agent tool call)
// first hands its payload to the store's resident recorder (resident/forward.ts: nothing of the recording
// code is loaded for that) and loads dist/hook.js only to record the payload itself; every other
// command loads dist/commands.js.
import * as path from 'node:path';
import { requireCached } from './codeCache';
import { forwardHook, startResident } from '../resident/forward';

const [, , command, ...rest] = process.argv;

// `agent-rewind … | head`: the reader went away, so what is left to print is nobody's; stop quietly.
// Called before anything is printed, not at start: process.stdout and process.stderr are made on first
// touch (streams, milliseconds), and a hook its resident records for prints nothing.
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      throw e;
    });
}

/** The hook bundle, with V8's code cache (codeCache.ts): loaded by hooks that record themselves, and by the resident. */
const hookBundle = () => requireCached<typeof import('./hook')>(path.join(__dirname, 'hook.js'));

if (command === 'hook') {
  void forwardHook(rest, path.join(__dirname, 'hook.js')).then(async (r) => {
    if (r.kind === 'recorded') {
      if (r.context) {
        quietOnClosedPipe();
        process.stdout.write(r.context);
      }
      return;
    }
    quietOnClosedPipe();
    // A stdin never closed is let go of by runHook (or forwardHook) at its deadline, so the process ends either way.
    process.exitCode = await hookBundle().runHook(rest, r.input, r.redelivered);
    if (r.start && r.dir) startResident(__filename, r.dir);
  });
} else if (command === 'resident') {
  quietOnClosedPipe();
  void hookBundle()
    .runResident(rest, path.join(__dirname, 'hook.js'))
    .then((code) => {
      process.exitCode = code;
    });
} else {
  quietOnClosedPipe();
  const { runCommand } = requireCached<typeof import('./commands')>(path.join(__dirname, 'commands.js'));
  void runCommand(command, rest).then((code) => {
    process.exitCode = code;
  });
}
