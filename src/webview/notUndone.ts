// Section (a), first on the page: what the rewind will not undo. The recorded commands that reached
// outside the workspace's files, known ones before unknown ones, or a plain sentence when there are none.
import type { PreviewNotUndone } from '../shared/messages';
import { h } from './dom';
import { icon } from './icons';
import type { Section, ShownState } from './state';
import { countWords } from '../shared/l10n';
import { l10n } from './l10n';
import { effectText, formatTime, oneLine, visible } from './text';
import { badge, dayOf, heading, note, section } from './widgets';

export function renderNotUndone(state: ShownState): Section {
  const m = state.model;
  const items = [...m.notUndone].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'high' ? -1 : 1));
  const id = 'h-not-undone';
  if (items.length === 0) {
    const el = section(
      'not-undone empty',
      id,
      heading(id, l10n.t('What will not be undone')),
      note(
        'pass',
        'quiet',
        l10n.t('Nothing outside your files needs undoing: no commands with effects beyond this workspace were recorded after this point.'),
      ),
    );
    return { el };
  }
  const high = items.filter((i) => i.severity !== 'low').length;
  const low = items.length - high;
  const intro =
    low > 0 && high === 0
      ? countWords(
          low,
          l10n.t(
            'The agent ran 1 command Agent Rewind does not know after this point. A rewind restores files; whatever these did stays done.',
          ),
          l10n.t(
            'The agent ran {0} commands Agent Rewind does not know after this point. A rewind restores files; whatever these did stays done.',
            low,
          ),
        )
      : l10n.t('These ran after this point and reached outside your files. A rewind restores files; whatever these did stays done.');
  const el = section(
    'not-undone callout warning',
    id,
    h(
      'h2',
      { id, class: 'section-title' },
      icon(high > 0 ? 'warning' : 'question', 'title-icon'),
      l10n.t('What will not be undone'),
      badge(items.length, countWords(items.length, l10n.t('1 command'), l10n.t('{0} commands', items.length))),
    ),
    h('p', { class: 'intro' }, intro),
    h('ul', { class: 'list nu-list', 'aria-labelledby': id }, ...items.map((i) => renderNotUndoneItem(i, dayOf(m.target.time)))),
  );
  return { el };
}

function renderNotUndoneItem(item: PreviewNotUndone, refDay: Date): HTMLElement {
  const low = item.severity === 'low';
  const summary = oneLine(item.summary);
  return h(
    'li',
    { class: `nu-item ${low ? 'sev-low' : 'sev-high'} effect-${item.effect === 'compensatable' ? 'compensatable' : 'irreversible'}` },
    icon(low ? 'question' : item.effect === 'compensatable' ? 'history' : 'warning', 'nu-icon'),
    h(
      'div',
      { class: 'nu-body' },
      h(
        'div',
        { class: 'nu-line' },
        h('span', { class: 'tool' }, visible(item.tool)),
        h('code', { class: 'truncate summary', title: summary }, summary),
      ),
      h(
        'div',
        { class: 'nu-effect' },
        h('span', { class: 'effect-text' }, effectText(item)),
        item.time ? h('span', { class: 'nu-time', title: visible(item.time) }, ` · ${formatTime(item.time, refDay)}`) : null,
      ),
    ),
  );
}
