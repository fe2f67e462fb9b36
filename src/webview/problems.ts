// Section (d): conflicts and warnings. Files changed outside the agent (they stop the rewind; the
// "Rewind anyway" checkbox is the way through), unsaved editors (Save All), files saved again with the
// same content, and git's uncommitted changes — each with its way out in words.
import { conflictView } from './conflicts';
import { h } from './dom';
import { icon } from './icons';
import { blockedKey, type Actions, type Section, type ShownState } from './state';
import { countWords } from '../shared/l10n';
import { l10n } from './l10n';
import { blockedReason, dirtyReason, fileCount, hasFiles, warningReason } from './text';
import { button, heading, note, pathLabel, problemList, relOf, section } from './widgets';

type Model = ShownState['model'];
type IconName = Parameters<typeof icon>[0];

/** One callout of the section: its header (icon, title, and what else stands there), the intro, then its body. */
function callout(cls: string, iconName: IconName, title: HTMLElement | HTMLElement[], intro: string, ...body: HTMLElement[]): HTMLElement {
  return h(
    'div',
    { class: `subsection ${cls}` },
    h('div', { class: 'group-header' }, icon(iconName, 'group-icon'), ...(Array.isArray(title) ? title : [title])),
    h('p', { class: 'intro' }, intro),
    ...body,
  );
}

/** The "Rewind anyway" checkbox: the way through files changed outside the agent. */
function forceOption(state: ShownState, act: Actions): { el: HTMLElement; box: HTMLInputElement } {
  const m = state.model;
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
  const el = h(
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
  return { el, box };
}

/** The "Keep mine" checkbox: revert the agent's lines and keep the user's, where a line-by-line merge is clean. */
function keepMineOption(state: ShownState, act: Actions): { el: HTMLElement; box: HTMLInputElement } {
  const box = h('input', {
    type: 'checkbox',
    id: 'keep-mine',
    class: 'checkbox',
    'data-key': 'keep-mine',
    checked: state.choices.keepMine,
    'aria-describedby': 'keep-mine-d',
  });
  box.addEventListener('change', () => {
    state.choices.keepMine = box.checked;
    act.changed();
  });
  const el = h(
    'div',
    { class: 'force-option keep-mine-option' },
    box,
    h(
      'label',
      { for: 'keep-mine', class: 'force-label' },
      h('span', { class: 'force-title' }, l10n.t('Keep mine')),
      h(
        'span',
        { id: 'keep-mine-d', class: 'force-desc' },
        l10n.t(
          'Revert only the agent’s lines and keep yours (a line-by-line merge). A file where your changes and the agent’s touch the same lines is not written. Undo brings every file back as it is now.',
        ),
      ),
    ),
  );
  return { el, box };
}

/** What Keep mine would do with a blocked file, after its reason. */
function mergeDetail(b: Model['blocked'][number]): string | undefined {
  const merge =
    b.merge === 'clean'
      ? l10n.t('Keep mine merges it cleanly.')
      : b.merge === 'conflict'
        ? l10n.t('Keep mine cannot merge it: your changes and the agent’s touch the same lines.')
        : '';
  return [b.detail, merge].filter(Boolean).join(' ') || undefined;
}

function blockedCallout(m: Model, act: Actions, force: HTMLElement[], conflicts: HTMLElement[]): HTMLElement {
  return callout(
    'callout error blocked',
    'error',
    h(
      'h3',
      { id: 'h-blocked' },
      m.blocked.every((b) => b.reason.endsWith('-outside'))
        ? l10n.t('Stopped: {0} changed outside the agent', fileCount(m.blocked.length))
        : l10n.t("Stopped: {0} with work that is not the agent's", fileCount(m.blocked.length)),
    ),
    l10n.t(
      'The rewind would overwrite changes made after the agent’s last write (by you, or by another tool). Saving or committing them does not lift this: they are still not the agent’s. Your ways out: tick “Rewind anyway” below — the current content is copied into the store first, and Undo puts it back — or look at each change with Open diff and pick an earlier or later point.',
    ),
    problemList(
      m.blocked.map((b) => ({ ...b, detail: mergeDetail(b) })),
      'h-blocked',
      blockedReason,
      act,
    ),
    ...conflicts,
    ...force,
  );
}

function dirtyCallout(m: Model, act: Actions): HTMLElement {
  const saveAll = button(l10n.t('Save All'), {
    key: 'save-all',
    secondary: true,
    cls: 'small',
    iconName: 'save',
    onClick: () => act.post({ type: 'saveAll' }),
  });
  const title = h('h3', { id: 'h-dirty' }, l10n.t('{0} with unsaved changes', fileCount(m.dirty.length)));
  return callout(
    'callout warning dirty',
    'save',
    [title, h('span', { class: 'spacer' }), saveAll],
    l10n.t(
      'These files are open in an editor with changes not saved to disk. The rewind never writes over unsaved changes, even with “Rewind anyway”. Save All writes them to disk — then they are changes outside the agent, so the rewind still needs “Rewind anyway”, which keeps a copy of what you saved (Undo brings it back). Or close them without saving, and rewind.',
    ),
    problemList(m.dirty, 'h-dirty', dirtyReason, null),
  );
}

function revertedCallout(reverted: Model['warnings'], act: Actions): HTMLElement {
  return callout(
    'callout warning observed',
    'warning',
    h('h3', { id: 'h-observed' }, l10n.t('Your own edits in {0} will be reverted', fileCount(reverted.length))),
    l10n.t(
      'You (or another tool) changed these files after this point, and the agent changed them too. The rewind puts them back as they were here; your version is kept in the store, and Undo brings the files back exactly as they are now.',
    ),
    problemList(reverted, 'h-observed', warningReason, act),
  );
}

function touchedCallout(touched: Model['warnings']): HTMLElement {
  return callout(
    'callout info warnings',
    'info',
    h(
      'h3',
      { id: 'h-warnings' },
      countWords(
        touched.length,
        l10n.t('1 file saved again since the agent wrote it'),
        l10n.t('{0} files saved again since the agent wrote them', touched.length),
      ),
    ),
    l10n.t('For information only: the content is what the agent left, so nothing is lost by rewinding them.'),
    problemList(touched, 'h-warnings', warningReason, null),
  );
}

function uncommittedCallout(m: Model): HTMLElement {
  return callout(
    'uncommitted',
    'git-commit',
    h(
      'h3',
      { id: 'h-uncommitted' },
      countWords(
        m.uncommitted.length,
        l10n.t('Git: 1 affected file with uncommitted changes'),
        l10n.t('Git: {0} affected files with uncommitted changes', m.uncommitted.length),
      ),
    ),
    l10n.t(
      'Git has no copy of these changes. Agent Rewind keeps one before it rewinds (“Undo last rewind”), but you may want to commit first.',
    ),
    h(
      'ul',
      { class: 'list plain-list', 'aria-labelledby': 'h-uncommitted' },
      ...m.uncommitted.map((p) => h('li', { class: 'plain-row' }, pathLabel(relOf(m, p), p))),
    ),
  );
}

/** The callouts, most serious first: stopped, unsaved, your edits reverted, saved again, uncommitted in git. */
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
  const force = m.blocked.length ? forceOption(state, act) : null;
  const keepMine = m.blocked.some((b) => b.merge) ? keepMineOption(state, act) : null;
  const conflicts = m.blocked.map((b) => conflictView(b, state, act)).filter((c) => c !== null);
  if (force)
    parts.push(
      blockedCallout(
        m,
        act,
        keepMine ? [keepMine.el, force.el] : [force.el],
        conflicts.map((c) => c.el),
      ),
    );
  if (m.dirty.length) parts.push(dirtyCallout(m, act));
  const yours = (w: { reason: string }) => w.reason === 'observed' || w.reason === 'restored-edit';
  const reverted = m.warnings.filter(yours);
  const touched = m.warnings.filter((w) => !yours(w));
  if (reverted.length) parts.push(revertedCallout(reverted, act));
  if (touched.length) parts.push(touchedCallout(touched));
  if (m.uncommitted.length) parts.push(uncommittedCallout(m));
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
      if (force) force.box.checked = s.choices.force;
      if (keepMine) keepMine.box.checked = s.choices.keepMine;
      for (const c of conflicts) c.update(s);
    },
  };
}
