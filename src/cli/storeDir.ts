// Where a command's store is (DESIGN §5): `--store`, else AGENT_REWIND_STORE, else the store a
// connected agent's hook configuration names in the current folder or the nearest one above it,
// said in one line on stderr (stdout stays the command's, `--json` included). Not for hooks: Connect
// always writes `--store`, and the hook path loads none of the connectors.
import * as path from 'node:path';
import { findHookStore } from '../agents/hookStore';
import { usageError } from './output';
import { storeFromArgs } from '../recording/storeArg';

export function storeDir(args: readonly string[], cwd: string = process.cwd()): string {
  const given = storeFromArgs(args);
  if (given) return given;
  const found = findHookStore(cwd);
  if (!found)
    throw usageError(
      'No store given: pass --store <dir>, set AGENT_REWIND_STORE, or run this inside a workspace where an agent is connected.',
    );
  // Connect names a store outside the workspace (the editor's storage); one inside it came with the
  // folder's files — a cloned repository can commit an agent config — and is used only when named.
  const inside = path.relative(found.folder, found.store);
  if (!inside.startsWith('..') && !path.isAbsolute(inside))
    throw new Error(
      `The store named in ${found.file} lies inside this workspace (${found.store}), where it may have come with the files rather than from Connect, so it is not used by itself: pass --store ${found.store} if you trust it.`,
    );
  const rel = path.relative(cwd, found.file);
  process.stderr.write(`agent-rewind: using the store named in ${rel.startsWith('..') ? found.file : rel}: ${found.store}\n`);
  return found.store;
}
