// Section (b): compensations, one checkbox per command that offsets a recorded one (a git commit →
// git reset --soft). Off unless checked; they run only with a file rewind, so other scopes disable them.
import { h, truncated } from './dom';
import { compKey, type Actions, type Section, type ShownState } from './state';
import { countWords } from '../shared/l10n';
import { l10n } from './l10n';
import { hasFiles, oneLine, visible } from './text';
import { heading, section } from './widgets';

/** The section, or null when no recorded command has a compensation. */
export function renderCompensations(state: ShownState, act: Actions): Section | null {
  const m = state.model;
  const offered = m.notUndone.filter((i) => typeof i.compensation === 'string' && i.compensation.length > 0);
  if (offered.length === 0) return null;
  const id = 'h-compensations';
  const rewritesHistory = offered.some((i) => /\bgit\b[^|;&]*\breset\b/.test(i.compensation ?? ''));
  const boxes: HTMLInputElement[] = [];
  const list = h(
    'ul',
    { class: 'list comp-list', 'aria-labelledby': id },
    ...offered.map((item) => {
      const cid = `comp-${m.notUndone.indexOf(item)}`;
      const cmd = oneLine(item.compensation ?? '');
      const key = compKey(item);
      const box = h('input', {
        type: 'checkbox',
        id: cid,
        class: 'checkbox',
        'data-key': cid,
        'data-comp': key,
        checked: state.choices.compensations.includes(key),
        'aria-describedby': `${cid}-d`,
      });
      boxes.push(box);
      box.addEventListener('change', () => {
        const set = new Set(state.choices.compensations);
        if (box.checked) set.add(key);
        else set.delete(key);
        state.choices.compensations = [...set];
        act.changed();
      });
      return h(
        'li',
        { class: 'comp-item' },
        box,
        h(
          'label',
          { for: cid, class: 'comp-label' },
          h(
            'span',
            { class: 'comp-line' },
            h('span', { class: 'comp-verb' }, l10n.t('Run ')),
            h('code', { class: 'truncate', title: cmd }, cmd),
          ),
          h(
            'span',
            { id: `${cid}-d`, class: 'comp-desc' },
            l10n.t('Offsets '),
            h('span', { class: 'tool' }, visible(item.tool)),
            ': ',
            truncated('comp-of', oneLine(item.summary)),
          ),
        ),
      );
    }),
  );
  const compNote = h(
    'p',
    { class: 'scope-note', hidden: true },
    l10n.t('Compensations run only with a file rewind: choose “Files” or “Both” below to run them.'),
  );
  const el = section(
    'compensations',
    id,
    heading(
      id,
      l10n.t('Compensations'),
      offered.length,
      countWords(offered.length, l10n.t('1 compensation'), l10n.t('{0} compensations', offered.length)),
    ),
    h(
      'p',
      { class: 'intro' },
      l10n.t(
        'Commands that offset what the agent did. They are off unless you check them. Each checked command runs in a visible terminal after the files are restored, so you can watch its output.',
      ),
      rewritesHistory
        ? l10n.t(' Note that git reset --soft rewrites your branch history: the commits leave the branch and their changes stay staged.')
        : '',
    ),
    compNote,
    list,
  );
  return {
    el,
    update(s) {
      const files = s.choices.scope !== null && hasFiles(s.choices.scope);
      compNote.hidden = files;
      // With no file rewind they do not run: shown unchecked and disabled, the choice kept for later.
      for (const b of boxes) {
        b.disabled = !files;
        b.checked = files && s.choices.compensations.includes(b.dataset.comp ?? '');
      }
    },
  };
}
