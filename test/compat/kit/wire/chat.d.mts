// Types of chat.mjs (the OpenAI chat-completions wire of ../model.mjs).

export interface CallSpec {
  name: string;
  args?: Record<string, unknown>;
}

export type Step = { text: string } | { call: CallSpec; text?: string } | { calls: CallSpec[]; text?: string };

export interface RequestSummary {
  summary: string;
  messageCount: number;
  userTexts: string[];
  toolCalls: { id: string; name: string; args: unknown }[];
  toolResults: { id: string; content: string }[];
  /** Names of the tools offered. */
  tools: string[];
  text: string;
}

export interface RequestRecord extends Partial<RequestSummary> {
  n: number;
  label: string;
  time: string;
  url: string;
  /** `main` (offers tools, takes a step), `side`, or `unknown` (a 404). */
  kind: string;
  status: 200 | 400 | 404;
  problems?: string[];
  step?: string | null;
  body?: any;
}

export function callPairingProblems(body: unknown): string[];
export function summarizeRequest(body: unknown): RequestSummary;
