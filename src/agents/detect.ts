// Which agent sent a hook payload (not which agents are installed: common/evidence.ts). The payload's shape wins over the name in `hook <agent>`: VS Code
// and Copilot CLI run the hooks of `.claude/settings*.json`, and both load `.github/hooks/*.json`,
// so one configured command serves several agents (FINDINGS.md §6 "Detection"). Only agents whose
// payloads can arrive at another agent's command are re-assigned; Codex and Gemini keep their name.
// Windsurf's envelope (`agent_action_name`, `trajectory_id`) and Auggie's (Cursor's envelope with
// Claude's PascalCase event names) are told apart too, should one reach a shared command.
import { obj, parsePayload } from './common/payload';
import { type Registry, registry } from './registry';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** The agent whose adapter should read `text`, given the name it was sent to. */
export function detectAgent(name: string, text: string, env: NodeJS.ProcessEnv = process.env, agents: Registry = registry): string {
  // Names a shape may override: the agents that run each other's hook files (their adapters' `servedBy`).
  if (!agents.sharedNames().has(name)) return name;
  // Cheap first: most payloads (Claude Code's) carry none of the tell-tale fields; skip the parse.
  const copilotEnv = env.COPILOT_CLI === '1';
  if (!copilotEnv && !/"(clineVersion|conversation_id|timestamp|hookEventName|agent_action_name)"/.test(text)) return name;
  const p = parsePayload(text);
  if (typeof p === 'string') return name; // the named adapter reports it
  if (typeof p.clineVersion === 'string' && typeof p.hookName === 'string') return 'cline';
  if (typeof p.agent_action_name === 'string' && typeof p.trajectory_id === 'string') return 'windsurf';
  if (typeof p.conversation_id === 'string' && Array.isArray(p.workspace_roots))
    // Cursor spells its events in camelCase (`beforeSubmitPrompt`); Auggie's envelope is Cursor's with Claude's names.
    return /^[A-Z]/.test(typeof p.hook_event_name === 'string' ? p.hook_event_name : '') ? 'auggie' : 'cursor';
  if (copilotEnv && p.permission_mode === undefined) return 'copilot';
  // The VS Code shape (snake_case, ISO timestamp, no permission_mode) is also Copilot CLI's
  // PascalCase one: only `hook claude` is re-assigned by it; `hook copilot` stays Copilot.
  if (name === 'claude') {
    if (
      typeof p.hook_event_name === 'string' &&
      typeof p.session_id === 'string' &&
      typeof p.timestamp === 'string' &&
      ISO.test(p.timestamp) &&
      p.permission_mode === undefined
    )
      return 'vscode';
    if (typeof p.hookEventName === 'string' && typeof p.sessionId === 'string') return 'vscode';
  }
  if (name === 'vscode' && obj(p) && typeof p.sessionId === 'string' && typeof p.hookEventName !== 'string') return 'copilot';
  return name;
}
