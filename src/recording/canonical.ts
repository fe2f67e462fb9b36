// One form for every folder and path an event names: the real path (core/workspace/realPath.ts). An agent
// whose working folder is a symlink to the workspace, or a file tool given a path through that link,
// records exactly what the same session in the real folder records — shell capture's scan, the file
// tools' snapshots and the boundary's look all name a file the same way.
import { realDir, realFilePath } from '../core/workspace/realPath';
import type { AgentEvent } from './events';

/** `e` with its working folder and its tool's paths in canonical form (changed in place, returned). */
export function canonicalEvent<T extends AgentEvent>(e: T): T {
  if (e.cwd) e.cwd = realDir(e.cwd);
  if (e.type === 'before_tool' || e.type === 'after_tool') e.paths = [...new Set(e.paths.map(realFilePath))];
  return e;
}
