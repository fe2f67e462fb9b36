// Types of model.mjs (the compat kit's scripted model server), for the TypeScript that imports it.
import type * as Anthropic from './wire/anthropic.mjs';
import type * as Chat from './wire/chat.mjs';
import type * as Gemini from './wire/gemini.mjs';
import type * as Responses from './wire/responses.mjs';

export type { Anthropic, Chat, Gemini, Responses };

export type Wire = 'anthropic' | 'openai-responses' | 'openai-chat' | 'gemini';

export interface ScriptedModel<S> {
  wire: Wire;
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
  setScript(steps: S[], label?: string): void;
  remaining(): number;
  close(): Promise<void>;
}

interface Options<W extends Wire, S> {
  wire: W;
  log?: string;
  script?: S[];
  label?: string;
  port?: number;
  /** Log whole request bodies (default: every wire but anthropic). */
  bodies?: boolean;
  /** Gemini: give function calls ids (the real API usually sends none). */
  ids?: boolean;
  /** Off: pairing problems are logged, not answered with a 400. */
  strict?: boolean;
}

export function startScriptedModel(o: Options<'anthropic', Anthropic.Step>): Promise<ScriptedModel<Anthropic.Step>>;
export function startScriptedModel(o: Options<'openai-responses', Responses.Step>): Promise<ScriptedModel<Responses.Step>>;
export function startScriptedModel(o: Options<'openai-chat', Chat.Step>): Promise<ScriptedModel<Chat.Step>>;
export function startScriptedModel(o: Options<'gemini', Gemini.Step>): Promise<ScriptedModel<Gemini.Step>>;
export function readRequests<R = unknown>(log: string): R[];
export const WIRES: Record<Wire, unknown>;
