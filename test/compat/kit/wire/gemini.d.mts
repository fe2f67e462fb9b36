// Types of gemini.mjs (the Gemini API wire of ../model.mjs).

export interface FunctionCallSpec {
  name: string;
  args?: Record<string, unknown>;
}

export type Step = { text: string } | { call: FunctionCallSpec } | { calls: FunctionCallSpec[]; text?: string };

export interface RequestSummary {
  summary: string;
  contentCount: number;
  /** Every non-empty text part of a user turn (session context and hook context included). */
  userTexts: string[];
  functionCalls: { id?: string; name: string; args: unknown }[];
  functionResponses: { id?: string; name: string; response: unknown }[];
  /** Names of the function declarations offered. */
  tools: string[];
  /** Every text of the request: turns, function responses (as JSON), system instruction. */
  text: string;
}

export interface RequestRecord extends Partial<RequestSummary> {
  n: number;
  label: string;
  time: string;
  /** `main` (carries tools, takes a step), a side kind (`router-classifier`, `next-speaker`, …) or `unknown`. */
  kind: string;
  model?: string;
  method?: string;
  url?: string;
  status?: 200 | 400;
  problems?: string[];
  answer?: unknown;
  body?: Record<string, unknown>;
}

export function callPairingProblems(body: unknown): string[];
export function summarizeRequest(body: unknown): RequestSummary;
export function sampleFor(schema: unknown, key?: string): unknown;
export function sideKind(body: unknown): string;
