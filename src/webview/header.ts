// The preview's header: the title with a Refresh button, the checkpoint the rewind goes back to, and
// the reminder that this is a dry run.
import { h, truncated } from './dom';
import type { Actions, Section, ShownState } from './state';
import { l10n } from './l10n';
import { checkpointKind, formatTime, oneLine, visible } from './text';
import { iconButton, note } from './widgets';

export function renderHeader(state: ShownState, act: Actions): Section {
  const m = state.model;
  const kind = checkpointKind(m.target.kind) ?? visible(m.target.kind);
  const label = oneLine(m.target.label);
  // A rewind to just before one tool call is named by its place in its turn, not by a checkpoint label.
  const step = m.target.step;
  const el = h(
    'header',
    { class: 'page-header' },
    h(
      'div',
      { class: 'title-row' },
      h('h1', null, l10n.t('Rewind preview')),
      iconButton('refresh', l10n.t('Refresh the preview'), 'refresh', () => act.post({ type: 'refresh' })),
    ),
    step
      ? h(
          'p',
          { class: 'target' },
          truncated('target-label', l10n.t('Before step {0} of {1}: {2}', step.step, step.of, oneLine(`${step.tool} ${step.summary}`))),
          h('span', { class: 'target-meta' }, ` · ${kind}`, m.target.time ? ` · ${formatTime(m.target.time)}` : ''),
        )
      : h(
          'p',
          { class: 'target' },
          h('span', { class: 'target-prefix' }, l10n.t('Back to ')),
          label ? truncated('target-label', `“${label}”`) : h('span', { class: 'target-label' }, l10n.t('this checkpoint')),
          h('span', { class: 'target-meta' }, ` · ${kind}`, m.target.time ? ` · ${formatTime(m.target.time)}` : ''),
        ),
    // A click that found the files changed since this preview was made wrote nothing: what changed, first thing on the page.
    m.notice ? h('div', { class: 'stale-notice', role: 'alert' }, note('warning', 'warning', h('p', null, visible(m.notice)))) : null,
    h(
      'p',
      { class: 'dry-run' },
      l10n.t(
        'This is a dry run: nothing has been changed yet. Agent Rewind restores files the agent changed; it does not undo commands the agent ran.',
      ),
    ),
  );
  return { el };
}
