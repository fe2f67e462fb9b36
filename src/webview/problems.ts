// Section (d): conflicts and warnings. Files changed outside the agent (they stop the rewind; the
// "Rewind anyway" checkbox is the way through), unsaved editors (Save All), files saved again with the
// same content, and git's uncommitted changes — each with its way out in words.
import { h } from './dom';
import { icon } from './icons';
import { blockedKey, type Actions, type Section, type ShownState } from './state';
import { countWords } from '../shared/l10n';
import { l10n } from './l10n';
import { blockedReason, dirtyReason, fileCount, hasFiles, warningReason } from './text';
import { button, heading, note, pathLabel, problemList, relOf, section } from './widgets';

export function renderProblems(state: ShownState, act: Actions): Section {
  const m = state.model;
  const id = 'h-problems';
  const count = m.blocked.length + m.dirty.length + m.warnings.length;
  const parts: HTMLElement[] = [];
  const problemsNote = h(
    'p',
    { class: 'scope-note', hidden: true },
    l10n.t('These matter only when files are rewound; with “Conversation” chosen above, no file is written.'),
  );

  let forceBox: HTMLInputElement | null = null;
  if (m.blocked.length) {
    const box = h('input', {
      type: 'checkbox',
      id: 'force',
      class: 'checkbox',
      'data-key': 'force',
      checked: state.choices.force,
      'aria-describedby': 'force-d',
    });
    box.addEventListener('change', () => {
      state.choices.force = box.checked;
      state.choices.forceFor = blockedKey(m);
      act.changed();
    });
    forceBox = box;
    const force = h(
      'div',
      { class: 'force-option' },
      box,
      h(
        'label',
        { for: 'force', class: 'force-label' },
        h('span', { class: 'force-title' }, l10n.t('Rewind anyway')),
        h(
          'span',
          { id: 'force-d', class: 'force-desc' },
          countWords(
            m.blocked.length,
            l10n.t(
              'Overwrite this file all the same. Agent Rewind first snapshots its current content, so nothing is lost: “Undo last rewind” brings it back.',
            ),
            l10n.t(
              'Overwrite these files all the same. Agent Rewind first snapshots their current content, so nothing is lost: “Undo last rewind” brings it back.',
            ),
          ),
        ),
      ),
    );
    parts.push(
      h(
        'div',
        { class: 'subsection callout error blocked' },
        h(
          'div',
          { class: 'group-header' },
          icon('error', 'group-icon'),
          h(
            'h3',
            { id: 'h-blocked' },
            m.blocked.every((b) => b.reason.endsWith('-outside'))
              ? l10n.t('Stopped: {0} changed outside the agent', fileCount(m.blocked.length))
              : l10n.t("Stopped: {0} with work that is not the agent's", fileCount(m.blocked.length)),
          ),
        ),
        h(
          'p',
          { class: 'intro' },
          l10n.t(
            'The rewind would overwrite changes made after the agent’s last write (by you, or by another tool). Saving or committing them does not lift this: they are still not the agent’s. Your ways out: tick “Rewind anyway” below — the current content is copied into the store first, and Undo puts it back — or look at each change with Open diff and pick an earlier or later point.',
          ),
        ),
        problemList(m.blocked, 'h-blocked', blockedReason, act),
        force,
      ),
    );
  }
  if (m.dirty.length) {
    parts.push(
      h(
        'div',
        { class: 'subsection callout warning dirty' },
        h(
          'div',
          { class: 'group-header' },
          icon('save', 'group-icon'),
          h('h3', { id: 'h-dirty' }, l10n.t('{0} with unsaved changes', fileCount(m.dirty.length))),
          h('span', { class: 'spacer' }),
          button(l10n.t('Save All'), {
            key: 'save-all',
            secondary: true,
            cls: 'small',
            iconName: 'save',
            onClick: () => act.post({ type: 'saveAll' }),
          }),
        ),
        h(
          'p',
          { class: 'intro' },
          l10n.t(
            'These files are open in an editor with changes not saved to disk. The rewind never writes over unsaved changes, even with “Rewind anyway”. Save All writes them to disk — then they are changes outside the agent, so the rewind still needs “Rewind anyway”, which keeps a copy of what you saved (Undo brings it back). Or close them without saving, and rewind.',
          ),
        ),
        problemList(m.dirty, 'h-dirty', dirtyReason, null),
      ),
    );
  }
  const yours = (w: { reason: string }) => w.reason === 'observed' || w.reason === 'restored-edit';
  const reverted = m.warnings.filter(yours);
  const touched = m.warnings.filter((w) => !yours(w));
  if (reverted.length) {
    parts.push(
      h(
        'div',
        { class: 'subsection callout warning observed' },
        h(
          'div',
          { class: 'group-header' },
          icon('warning', 'group-icon'),
          h('h3', { id: 'h-observed' }, l10n.t('Your own edits in {0} will be reverted', fileCount(reverted.length))),
        ),
        h(
          'p',
          { class: 'intro' },
          l10n.t(
            'You (or another tool) changed these files after this point, and the agent changed them too. The rewind puts them back as they were here; your version is kept in the store, and Undo brings the files back exactly as they are now.',
          ),
        ),
        problemList(reverted, 'h-observed', warningReason, act),
      ),
    );
  }
  if (touched.length) {
    parts.push(
      h(
        'div',
        { class: 'subsection callout info warnings' },
        h(
          'div',
          { class: 'group-header' },
          icon('info', 'group-icon'),
          h(
            'h3',
            { id: 'h-warnings' },
            countWords(
              touched.length,
              l10n.t('1 file saved again since the agent wrote it'),
              l10n.t('{0} files saved again since the agent wrote them', touched.length),
            ),
          ),
        ),
        h(
          'p',
          { class: 'intro' },
          l10n.t('For information only: the content is what the agent left, so nothing is lost by rewinding them.'),
        ),
        problemList(touched, 'h-warnings', warningReason, null),
      ),
    );
  }
  if (m.uncommitted.length) {
    parts.push(
      h(
        'div',
        { class: 'subsection uncommitted' },
        h(
          'div',
          { class: 'group-header' },
          icon('git-commit', 'group-icon'),
          h(
            'h3',
            { id: 'h-uncommitted' },
            countWords(
              m.uncommitted.length,
              l10n.t('Git: 1 affected file with uncommitted changes'),
              l10n.t('Git: {0} affected files with uncommitted changes', m.uncommitted.length),
            ),
          ),
        ),
        h(
          'p',
          { class: 'intro' },
          l10n.t(
            'Git has no copy of these changes. Agent Rewind keeps one before it rewinds (“Undo last rewind”), but you may want to commit first.',
          ),
        ),
        h(
          'ul',
          { class: 'list plain-list', 'aria-labelledby': 'h-uncommitted' },
          ...m.uncommitted.map((p) => h('li', { class: 'plain-row' }, pathLabel(relOf(m, p), p))),
        ),
      ),
    );
  }
  if (parts.length === 0) {
    parts.push(note('pass', 'quiet', l10n.t('Nothing changed outside the agent: every affected file is as the agent left it.')));
  }
  const el = section(
    'problems',
    id,
    heading(
      id,
      l10n.t('Conflicts and warnings'),
      count,
      countWords(count, l10n.t('1 conflict or warning'), l10n.t('{0} conflicts and warnings', count)),
    ),
    problemsNote,
    ...parts,
  );
  return {
    el,
    update(s) {
      problemsNote.hidden = s.choices.scope !== null && hasFiles(s.choices.scope);
      if (forceBox) forceBox.checked = s.choices.force;
    },
  };
}
