// Section (d): conflicts and warnings. Files changed outside the agent (they stop the rewind; the
// "Rewind anyway" checkbox is the way through), unsaved editors (Save All), files saved again with the
// same content, and git's uncommitted changes — each with its way out in words.
import { h } from './dom';
import { icon } from './icons';
import { blockedKey, type Actions, type Section, type ShownState } from './state';
import { blockedReason, dirtyReason, hasFiles, plural, warningReason } from './text';
import { button, heading, note, pathLabel, problemList, relOf, section } from './widgets';

export function renderProblems(state: ShownState, act: Actions): Section {
  const m = state.model;
  const id = 'h-problems';
  const count = m.blocked.length + m.dirty.length + m.warnings.length;
  const parts: HTMLElement[] = [];
  const problemsNote = h(
    'p',
    { class: 'scope-note', hidden: true },
    'These matter only when files are rewound; with “Conversation” chosen above, no file is written.',
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
        h('span', { class: 'force-title' }, 'Rewind anyway'),
        h(
          'span',
          { id: 'force-d', class: 'force-desc' },
          `Overwrite ${m.blocked.length === 1 ? 'this file' : 'these files'} all the same. Agent Rewind first snapshots ${m.blocked.length === 1 ? 'its' : 'their'} current content, so nothing is lost: “Undo last rewind” brings it back.`,
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
              ? `Stopped: ${plural(m.blocked.length, 'file')} changed outside the agent`
              : `Stopped: ${plural(m.blocked.length, 'file')} with work that is not the agent's`,
          ),
        ),
        h(
          'p',
          { class: 'intro' },
          'The rewind would overwrite changes made after the agent’s last write (by you, or by another tool). Saving or committing them does not lift this: they are still not the agent’s. Your ways out: tick “Rewind anyway” below — the current content is copied into the store first, and Undo puts it back — or look at each change with Open diff and pick an earlier or later point.',
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
          h('h3', { id: 'h-dirty' }, `${plural(m.dirty.length, 'file')} with unsaved changes`),
          h('span', { class: 'spacer' }),
          button('Save All', {
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
          'These files are open in an editor with changes not saved to disk. The rewind never writes over unsaved changes, even with “Rewind anyway”. Save All writes them to disk — then they are changes outside the agent, so the rewind still needs “Rewind anyway”, which keeps a copy of what you saved (Undo brings it back). Or close them without saving, and rewind.',
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
          h('h3', { id: 'h-observed' }, `Your own edits in ${plural(reverted.length, 'file')} will be reverted`),
        ),
        h(
          'p',
          { class: 'intro' },
          'You (or another tool) changed these files after this point, and the agent changed them too. The rewind puts them back as they were here; your version is kept in the store, and Undo brings the files back exactly as they are now.',
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
            `${plural(touched.length, 'file')} saved again since the agent wrote ${touched.length === 1 ? 'it' : 'them'}`,
          ),
        ),
        h('p', { class: 'intro' }, 'For information only: the content is what the agent left, so nothing is lost by rewinding them.'),
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
          h('h3', { id: 'h-uncommitted' }, `Git: ${plural(m.uncommitted.length, 'affected file')} with uncommitted changes`),
        ),
        h(
          'p',
          { class: 'intro' },
          'Git has no copy of these changes. Agent Rewind keeps one before it rewinds (“Undo last rewind”), but you may want to commit first.',
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
    parts.push(note('pass', 'quiet', 'Nothing changed outside the agent: every affected file is as the agent left it.'));
  }
  const el = section(
    'problems',
    id,
    heading(id, 'Conflicts and warnings', count, plural(count, 'conflict or warning', 'conflicts and warnings')),
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
