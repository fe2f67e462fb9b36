// Types of mockModel.mjs (the scripted Gemini API), for the TypeScript that imports it.

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

export interface MockGemini {
  port: number;
  url: string;
  stats: {
    main: number;
    side: number;
    rejected: number;
    withProblems: number;
    countTokens: number;
    sideKinds: Record<string, number>;
    otherPaths: string[];
  };
  setLog(file: string): void;
  setStrict(on: boolean): void;
  setScript(steps: Step[], label?: string): void;
  remaining(): number;
  close(): Promise<void>;
}

export function callPairingProblems(body: unknown): string[];
export function summarizeRequest(body: unknown): RequestSummary;
export function sampleFor(schema: unknown, key?: string): unknown;
export function sideKind(body: unknown): string;
export function startMockGemini(opts?: {
  log?: string;
  script?: Step[];
  label?: string;
  ids?: boolean;
  strict?: boolean;
}): Promise<MockGemini>;
export function readRequests(log: string): RequestRecord[];
