// The Preview webview's entry (bundled as dist/webview/preview.js): the dry run of a rewind, shown
// before anything is written. The host is the source of truth: it sends a PreviewModel,
// the sections render it, and the page posts what the user asks for.
//
// main() owns the page's one state object (state.ts) and hands it, with the actions a section may
// take, to each section's render function in page order: what will not be undone, compensations,
// scope, files, conflicts and warnings, Rewind / Cancel. A section's update() follows later changes of
// the choices or of busy without a re-render. Everything in the model is untrusted agent output: it
// reaches the page through text nodes and attributes set with DOM APIs only (dom.ts), never as markup.
import type { HostToWebview, WebviewToHost } from '../shared/messages';
import { renderActionBar } from './actionBar';
import { renderCompensations } from './compensations';
import { append, clear } from './dom';
import { renderFiles } from './files';
import { renderHeader } from './header';
import { renderNotUndone } from './notUndone';
import { renderProblems } from './problems';
import { renderScope } from './scope';
import { createState, fitChoices, isPreviewModel, isShown, restoreChoices, type Actions, type Section, type ShownState } from './state';
import { l10n, useBundle } from './l10n';
import { findBanners, renderStatus } from './status';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The page's sections, in order; one without anything to show returns null. */
const SECTIONS: ((state: ShownState, act: Actions) => Section | null)[] = [
  renderHeader,
  renderNotUndone,
  renderCompensations,
  // The choice of scope comes before the files it decides about (not below the fold under the sticky bar).
  renderScope,
  renderFiles,
  renderProblems,
  renderActionBar,
];

function main(): void {
  const vscode = acquireVsCodeApi();
  // The host's bundle first: every word the page says goes through it (l10n.ts).
  useBundle(document.body.dataset.l10n);
  const app = document.getElementById('app') as HTMLElement;
  const banners = findBanners(document);
  const state = createState(vscode.getState());
  /** The sections on the page now; null until the first model is shown. */
  let shown: Section[] | null = null;

  const act: Actions = {
    post: (m) => vscode.postMessage(m),
    changed: () => {
      save();
      update();
    },
  };

  function save(): void {
    if (!state.choices) return;
    vscode.setState(state.choices);
    // setState does not outlive the panel: the host keeps a copy for the next preview of this target.
    act.post({ type: 'choices', choices: state.choices });
  }

  function render(): void {
    if (!state.model) return;
    state.choices = fitChoices(state, state.model);
    save();
    if (!isShown(state)) return;
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.key;
    const sections = SECTIONS.map((r) => r(state, act)).filter((s): s is Section => s !== null);
    clear(app);
    append(app, ...sections.map((s) => s.el));
    shown = sections;
    update();
    if (focusKey) {
      for (const el of app.querySelectorAll<HTMLElement>('[data-key]')) {
        if (el.dataset.key === focusKey) {
          el.focus();
          break;
        }
      }
    }
  }

  /** Applies the choices and busy to the rendered page. */
  function update(): void {
    if (!shown || !isShown(state)) return;
    for (const s of shown) s.update?.(state);
    // While busy every button but Rewind (held by its own update) and Cancel is held.
    for (const el of app.querySelectorAll<HTMLElement>('button')) {
      if (el.dataset.key === 'rewind' || el.dataset.key === 'cancel') continue;
      el.setAttribute('aria-disabled', String(state.busy));
      el.classList.toggle('disabled', state.busy);
    }
    app.setAttribute('aria-busy', String(state.busy));
  }

  function onMessage(msg: HostToWebview): void {
    switch (msg.type) {
      case 'model':
        if (!isPreviewModel(msg.model)) {
          state.error = l10n.t('The preview received data it cannot show.');
          renderStatus(state, banners, act);
          return;
        }
        state.model = msg.model;
        if (!state.choices && msg.choices !== undefined) state.choices = restoreChoices(msg.choices);
        state.error = null;
        renderStatus(state, banners, act);
        render();
        return;
      case 'busy':
        state.busy = msg.busy === true;
        state.busyMessage = typeof msg.message === 'string' ? msg.message : '';
        renderStatus(state, banners, act);
        update();
        return;
      case 'error':
        state.error = typeof msg.message === 'string' ? msg.message : l10n.t('Something went wrong.');
        state.busy = false;
        renderStatus(state, banners, act);
        update();
        return;
      default: {
        const never: never = msg;
        void never;
      }
    }
  }

  window.addEventListener('message', (e: MessageEvent) => {
    const data = e.data as HostToWebview | undefined;
    if (data && typeof data === 'object' && typeof data.type === 'string') onMessage(data);
  });

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented && !e.isComposing) {
      e.preventDefault();
      act.post({ type: 'cancel' });
      return;
    }
    // Enter toggles a focused checkbox, as Space does (a native radio already moves with the arrows).
    const t = e.target as HTMLElement | null;
    if (e.key === 'Enter' && t instanceof HTMLInputElement && t.type === 'checkbox' && !t.disabled) {
      e.preventDefault();
      t.click();
    }
  });

  act.post({ type: 'ready' });
}

main();
