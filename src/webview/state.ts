// The preview page's one state object and the pure rules around it: what the host sent (the model,
// busy, error) and what the user chose on the page (scope, compensations, "Rewind anyway"). main.ts
// creates it and passes it to every section's render function; nothing else keeps state. No DOM access here.
import { emptyPreviewModel, type PreviewModel, type PreviewNotUndone, type Scope, type WebviewToHost } from '../shared/messages';
import { fitUnticked, noneUnticked, restoreUnticked, type Unticked } from './choice';
import { initialScope } from './text';

/** The user's choices on this page, kept across the webview being hidden (setState); reset for another target. */
export interface Choices {
  target: string;
  scope: Scope | null;
  /** Chosen compensations by the call they offset (indexes change when the host re-plans). */
  compensations: string[];
  force: boolean;
  /** The blocked paths "Rewind anyway" was chosen for: a different set asks again. */
  forceFor: string;
  /** Keep mine: merge the files changed outside the agent (their lines kept) instead of overwriting them. */
  keepMine: boolean;
  /** The files and hunks the user unticked (everything else is rewound). */
  unticked: Unticked;
  /** The files whose hunks are shown. */
  expanded: string[];
}

export interface PreviewState {
  /** The last model the host sent; null until the first one. */
  model: PreviewModel | null;
  /** Null until a model is shown, unless the webview kept them from before it was hidden. */
  choices: Choices | null;
  busy: boolean;
  busyMessage: string;
  /** The error banner's text; null when there is none. */
  error: string | null;
}

/** The state once a model is shown: what the sections render from. */
export type ShownState = PreviewState & { model: PreviewModel; choices: Choices };

/** What a section may do besides reading and changing the state. */
export interface Actions {
  post(message: WebviewToHost): void;
  /** The section changed `state.choices`: keep them and apply them to the page. */
  changed(): void;
}

/** A rendered section: its element, and how it follows a change of the choices or of busy without a re-render. */
export interface Section {
  el: HTMLElement;
  update?(state: ShownState): void;
}

export function createState(saved: unknown): PreviewState {
  return { model: null, choices: restoreChoices(saved), busy: false, busyMessage: '', error: null };
}

export function isShown(s: PreviewState): s is ShownState {
  return s.model !== null && s.choices !== null;
}

/** Choices as `vscode.getState()` returned them, checked field by field (null when absent or not ours). */
export function restoreChoices(saved: unknown): Choices | null {
  const s = saved as Partial<Choices> | undefined;
  if (!s || typeof s.target !== 'string') return null;
  return {
    target: s.target,
    scope: s.scope === 'files' || s.scope === 'conversation' || s.scope === 'both' ? s.scope : null,
    compensations: Array.isArray(s.compensations) ? s.compensations.filter((k) => typeof k === 'string') : [],
    force: s.force === true,
    forceFor: typeof s.forceFor === 'string' ? s.forceFor : '',
    keepMine: s.keepMine === true,
    unticked: restoreUnticked(s.unticked),
    expanded: Array.isArray(s.expanded) ? s.expanded.filter((p) => typeof p === 'string') : [],
  };
}

export function compKey(i: PreviewNotUndone): string {
  return i.call;
}

export function blockedKey(m: PreviewModel): string {
  return JSON.stringify(m.blocked.map((b) => b.path).sort());
}

/** Fits the choices to a model just received: fresh for another target, and only what this model still offers. */
export function fitChoices(state: PreviewState, m: PreviewModel): Choices {
  const kept = state.choices;
  const scope = initialScope(m, kept && kept.target === m.target.id ? kept.scope : null);
  const c: Choices =
    kept && kept.target === m.target.id
      ? kept
      : {
          target: m.target.id,
          scope,
          compensations: [],
          force: false,
          forceFor: '',
          keepMine: false,
          unticked: noneUnticked(),
          expanded: [],
        };
  c.scope = scope;
  const offered = new Set(m.notUndone.filter((i) => i.compensation).map(compKey));
  c.compensations = c.compensations.filter((k) => offered.has(k));
  if (m.blocked.length === 0 || c.forceFor !== blockedKey(m)) c.force = false;
  if (!m.blocked.some((b) => b.merge)) c.keepMine = false;
  c.unticked = fitUnticked(c.unticked, m);
  return c;
}

// The array fields of a model, from the empty one, so the check follows the protocol.
const EMPTY = emptyPreviewModel() as unknown as Record<string, unknown>;
const ARRAYS = Object.keys(EMPTY).filter((k) => Array.isArray(EMPTY[k]));

/** Whether a message's model has the shape the sections rely on (the webview checks what it is sent). */
export function isPreviewModel(v: unknown): v is PreviewModel {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  return (
    typeof m.target === 'object' &&
    m.target !== null &&
    ARRAYS.every((k) => Array.isArray(m[k])) &&
    typeof m.scope === 'object' &&
    m.scope !== null &&
    Array.isArray((m.scope as Record<string, unknown>).available)
  );
}
