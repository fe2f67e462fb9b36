// Types of anthropic.mjs (the Anthropic Messages wire of ../model.mjs).

export type Step =
  | { text: string }
  | { tool_use: { name: string; input: Record<string, unknown> } }
  | { tool_uses: { name: string; input: Record<string, unknown> }[]; text?: string };

export interface RequestSummary {
  summary: string;
  messageCount: number;
  /** Text blocks of user messages, system reminders removed, empty ones dropped. */
  userTexts: string[];
  toolUses: { id: string; name: string; input: unknown }[];
  toolResults: { id: string; isError: boolean }[];
  /** Every text of the request: messages (reminders included), tool results, system prompt. */
  text: string;
}

export interface RequestRecord extends RequestSummary {
  n: number;
  label: string;
  time: string;
  status: 200 | 400;
  problems: string[];
  step: string | null;
}

export function toolPairingProblems(body: unknown): string[];
export function summarizeRequest(body: unknown): RequestSummary;
