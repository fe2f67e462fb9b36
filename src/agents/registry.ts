// Every agent Agent Rewind knows, in one list: adding an agent is its folder (`src/agents/<id>/index.ts`,
// one AgentAdapter) and one line here. The hook, the payload detector, Connect, the capability sentences
// and the conversation readers ask only this registry. Reading it loads no agent's code: each adapter
// loads its parser, connector and conversation when first asked for (adapter.ts).
import type { AgentAdapter, AgentConversation, ConversationAdapter } from './adapter';
import type { AgentConnector, AgentId } from './common/connector';
import { auggieAdapter } from './auggie';
import { claudeAdapter } from './claude';
import { clineAdapter } from './cline';
import { codexAdapter } from './codex';
import { copilotAdapter } from './copilot';
import { cursorAdapter } from './cursor';
import { droidAdapter } from './droid';
import { geminiAdapter } from './gemini';
import { kiroAdapter } from './kiro';
import { opencodeAdapter } from './opencode';
import { qwenAdapter } from './qwen';
import { vscodeAdapter } from './vscode';
import { windsurfAdapter } from './windsurf';

/** In the order Connect's quick pick shows them. */
export const ADAPTERS: readonly AgentAdapter[] = [
  claudeAdapter,
  vscodeAdapter,
  copilotAdapter,
  codexAdapter,
  geminiAdapter,
  cursorAdapter,
  clineAdapter,
  opencodeAdapter,
  qwenAdapter,
  droidAdapter,
  auggieAdapter,
  windsurfAdapter,
  kiroAdapter,
];

/** A transcript no other adapter recognises is read as this agent's (the first format Agent Rewind read). */
const DEFAULT_TRANSCRIPT_AGENT: AgentId = 'claude';

/** The adapters of one list, looked up by id and alias, with their connectors built once. */
export class Registry {
  private readonly byId = new Map<string, AgentAdapter>();
  private readonly aliases = new Map<string, string>();
  private readonly connectors = new Map<AgentId, AgentConnector | null>();

  constructor(readonly adapters: readonly AgentAdapter[]) {
    for (const a of adapters) {
      this.byId.set(a.id, a);
      for (const alias of a.aliases ?? []) this.aliases.set(alias, a.id);
    }
  }

  /** The adapter of `id`, or undefined for an agent we have none for. */
  get(id: string): AgentAdapter | undefined {
    return this.byId.get(id);
  }

  /** The id a name given to `hook <agent>` stands for: an alias's agent, else the name itself. */
  resolve(name: string): string {
    return this.aliases.get(name) ?? name;
  }

  /** Every name `hook <agent>` takes: the ids, then the aliases. */
  names(): string[] {
    return [...this.byId.keys(), ...this.aliases.keys()];
  }

  /** The agents whose hook command may receive another agent's payload: those that run each other's hook files. */
  sharedNames(): Set<AgentId> {
    const shared = new Set<AgentId>();
    for (const a of this.adapters)
      if (a.servedBy?.length) {
        shared.add(a.id);
        for (const s of a.servedBy) shared.add(s);
      }
    return shared;
  }

  /** The connector of `id` (its adapter's, with its id and name), built on first use; undefined when it has none. */
  connector(id: AgentId): AgentConnector | undefined {
    if (!this.connectors.has(id)) {
      const a = this.byId.get(id);
      const parts = a?.connector?.({
        displayName: a.displayName,
        connectorOf: (other) => {
          const c = this.connector(other);
          if (!c) throw new Error(`The ${id} connector needs the ${other} connector, which the registry does not have.`);
          return c;
        },
      });
      this.connectors.set(id, a && parts ? { agent: a.id, displayName: a.connectName ?? a.displayName, ...parts } : null);
    }
    return this.connectors.get(id) ?? undefined;
  }

  /** Every connector, in the list's order. */
  allConnectors(): AgentConnector[] {
    return this.adapters.map((a) => this.connector(a.id)).filter((c): c is AgentConnector => c !== undefined);
  }

  /** The conversation part of whichever agent's transcript `file` is (told apart by content); no file: the default one. */
  transcriptConversation(file?: string): AgentConversation {
    const withConversation = this.adapters.filter((a): a is ConversationAdapter => a.conversation !== undefined);
    const fallback = withConversation.find((a) => a.id === DEFAULT_TRANSCRIPT_AGENT)!;
    const own = file === undefined ? undefined : withConversation.filter((a) => a !== fallback).find((a) => a.conversation().find(file));
    return (own ?? fallback).conversation();
  }
}

/** The registry of the agents above; tests build their own Registry to add a fake one. */
export const registry = new Registry(ADAPTERS);
