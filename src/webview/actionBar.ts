// Section (f), last: the sticky action bar. Rewind (its label, whether it may be pressed and why not,
// all from text.ts's decide()) and Cancel, with one line saying what pressing Rewind does.
import { chosenFiles } from './choice';
import { h } from './dom';
import { l10n } from './l10n';
import { compKey, type Actions, type Section, type ShownState } from './state';
import { decide, hasFiles } from './text';
import { button } from './widgets';

export function renderActionBar(state: ShownState, act: Actions): Section {
  const rewind = button(l10n.t('Rewind'), { key: 'rewind', onClick: () => doRewind(state, act), cls: 'primary' });
  rewind.setAttribute('aria-describedby', 'action-summary action-why');
  const cancel = button(l10n.t('Cancel'), { key: 'cancel', secondary: true, onClick: () => act.post({ type: 'cancel' }) });
  const why = h('p', { id: 'action-why', class: 'action-why' });
  const summary = h('p', { id: 'action-summary', class: 'action-summary' });
  const el = h(
    'footer',
    { class: 'actions' },
    h('div', { class: 'action-text' }, summary, why),
    h('div', { class: 'action-buttons' }, rewind, cancel),
  );
  return {
    el,
    update(s) {
      const scope = s.choices.scope;
      const d = decide(
        s.model,
        scope,
        s.choices.force,
        scope !== null && hasFiles(scope) ? s.choices.compensations.length : 0,
        s.busy,
        s.choices,
      );
      const label = rewind.querySelector('.button-text');
      if (label) label.textContent = d.label;
      rewind.setAttribute('aria-disabled', String(!d.enabled));
      rewind.classList.toggle('disabled', !d.enabled);
      summary.textContent = d.summary;
      why.textContent = d.why && !s.busy ? d.why : '';
      why.hidden = !why.textContent;
    },
  };
}

/** Posts the rewind the page shows, if it may be pressed now (the button's aria-disabled is checked first). */
function doRewind(state: ShownState, act: Actions): void {
  const { model, choices } = state;
  if (state.busy) return;
  const d = decide(model, choices.scope, choices.force, choices.compensations.length, state.busy, choices);
  if (!d.enabled || !choices.scope) return;
  const files = chosenFiles(model, choices.unticked);
  // Files and conversation with no file ticked: the conversation alone (an empty file list never means "every file").
  const scope = files?.length === 0 && choices.scope === 'both' ? 'conversation' : choices.scope;
  const chosen = new Set(choices.compensations);
  const compensations = hasFiles(scope) ? model.notUndone.filter((i) => i.compensation && chosen.has(compKey(i))).map((i) => i.call) : [];
  act.post({
    type: 'rewind',
    scope,
    compensations,
    force: d.force,
    ...(choices.keepMine && hasFiles(scope) ? { keepMine: true } : {}),
    ...(files && hasFiles(scope) ? { files } : {}),
    // The plan this page shows: the host rewinds by it (a newer one, not yet seen here, writes nothing).
    ...(model.stamp !== undefined ? { stamp: model.stamp } : {}),
  });
}
