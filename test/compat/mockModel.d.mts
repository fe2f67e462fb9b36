// Types of mockModel.mjs, for the TypeScript that imports it (compat tier, unit tests, demo).

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

export interface MockModel {
  port: number;
  url: string;
  stats: { main: number; side: number; rejected: number; countTokens: number; otherPaths: string[] };
  setLog(file: string): void;
  setScript(steps: Step[], label?: string): void;
  remaining(): number;
  close(): Promise<void>;
}

export function toolPairingProblems(body: unknown): string[];
export function summarizeRequest(body: unknown): RequestSummary;
export function startMockModel(opts?: { log?: string; script?: Step[]; label?: string }): Promise<MockModel>;
export function readRequests(log: string): RequestRecord[];
