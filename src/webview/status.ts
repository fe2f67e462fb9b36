// The banners above the page: the busy line (#status, a polite live region) and the error banner
// (#alert, role=alert) with Refresh and Dismiss. They live outside #app, in the HTML shell, and stay in
// the page across renders: only their content and look change.
import { append, clear, h } from './dom';
import { icon } from './icons';
import { l10n } from './l10n';
import type { Actions, PreviewState } from './state';
import { oneLine } from './text';
import { button, iconButton } from './widgets';

/** The shell's banner elements (see src/extension/preview/previewHtml.ts). */
export interface Banners {
  status: HTMLElement;
  alert: HTMLElement;
  alertBanner: HTMLElement;
  alertActions: HTMLElement;
}

export function findBanners(doc: Document): Banners {
  return {
    status: doc.getElementById('status') as HTMLElement,
    alert: doc.getElementById('alert') as HTMLElement,
    alertBanner: doc.getElementById('alert-banner') as HTMLElement,
    alertActions: doc.getElementById('alert-actions') as HTMLElement,
  };
}

/** Shows `state.busy` and `state.error`; Dismiss clears the error in the state and shows it again. */
export function renderStatus(state: PreviewState, b: Banners, act: Pick<Actions, 'post'>): void {
  clear(b.status);
  b.status.classList.toggle('visible', state.busy);
  if (state.busy)
    append(b.status, icon('loading', 'status-icon'), h('span', null, state.busyMessage ? oneLine(state.busyMessage) : l10n.t('Working…')));
  clear(b.alert);
  clear(b.alertActions);
  b.alertBanner.classList.toggle('visible', state.error !== null);
  if (state.error !== null) {
    append(b.alert, icon('error', 'alert-icon'), h('span', { class: 'alert-message' }, oneLine(state.error)));
    append(
      b.alertActions,
      button(l10n.t('Refresh'), { key: 'error-refresh', secondary: true, cls: 'small', onClick: () => act.post({ type: 'refresh' }) }),
      iconButton('close', l10n.t('Dismiss the error'), 'error-dismiss', () => {
        state.error = null;
        renderStatus(state, b, act);
      }),
    );
  }
}
