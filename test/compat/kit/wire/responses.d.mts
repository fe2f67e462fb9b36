// Types of responses.mjs (the OpenAI Responses wire of ../model.mjs).

export type CallStep =
  | { exec: string; workdir?: string }
  | { patch: string }
  | { call: { name: string; arguments?: Record<string, unknown> } }
  | { stdin: { chars?: string; yield_time_ms?: number } };

export type Step = { text: string } | (CallStep & { text?: string }) | { calls: CallStep[]; text?: string };

export interface RequestSummary {
  summary: string;
  itemCount: number;
  userTexts: string[];
  developerTexts: string[];
  assistantTexts: string[];
  calls: { type: string; call_id: string; name: string; arguments: unknown }[];
  outputs: { type: string; call_id: string; output: string }[];
  tools: string[];
}

export interface RequestRecord extends RequestSummary {
  n: number;
  label: string;
  time: string;
  url: string;
  kind: 'main' | 'side';
  status: 200 | 400 | 404;
  problems: string[];
  step: string | null;
  headers: { session_id?: string; 'x-codex-turn-metadata'?: string };
  /** The whole request body, unless the server was started with `bodies: false`. */
  body?: any;
}

export function callPairingProblems(body: unknown): string[];
export function summarizeRequest(body: unknown): RequestSummary;
export function itemsForStep(step: Step, body?: unknown): Record<string, unknown>[];
