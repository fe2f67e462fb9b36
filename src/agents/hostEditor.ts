// Which agent's editor the extension is running in. Windsurf, Kiro and Cursor are VS Code forks that
// install extensions from Open VSX (their product.json points the gallery there) and name themselves
// in `vscode.env.appName` ("Windsurf", "Windsurf - Next", "Kiro", "Cursor") and `vscode.env.uriScheme`
// ("windsurf", "kiro", "cursor"): their adapters' `hostEditor`. Connect Agents… offers that editor's own
// agent first, pre-selected.
import type { AgentId } from './common/connector';
import { registry } from './registry';

/** The agent built into the editor named `appName` (or with URI scheme `uriScheme`), or null in VS Code itself. */
export function hostEditorAgent(appName: string, uriScheme = ''): AgentId | null {
  return registry.adapters.find((a) => a.hostEditor && (a.hostEditor.test(appName) || a.hostEditor.test(uriScheme)))?.id ?? null;
}

/** `agents` with the host editor's own agent moved first (the rest keep their order). */
export function hostFirst<T extends { agent: AgentId }>(items: readonly T[], host: AgentId | null): T[] {
  if (!host) return [...items];
  return [...items.filter((i) => i.agent === host), ...items.filter((i) => i.agent !== host)];
}
