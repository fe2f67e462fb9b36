// Section (c): the files the rewind writes (restore / delete / recreate, +/- lines, Open diff per file),
// grouped by agent session when several wrote after the target, then the paths another session also
// changed and the files a call outside the chosen ones changed (left alone), and the files that cannot be restored.
import type { PreviewFile, PreviewLeftAlone, PreviewModel } from '../shared/messages';
import { countWords } from '../shared/l10n';
import { leftAloneWords } from '../shared/reasons';
import { fileChosen } from './choice';
import { append, clear, h } from './dom';
import { fileCheckbox, hunkList, hunkToggle, type RowUpdate } from './hunks';
import { icon, type IconName } from './icons';
import { l10n } from './l10n';
import type { Actions, Section, ShownState } from './state';
import { fileCount, hasFiles, notRestorableReason, sessionLabel, visible } from './text';
import { badge, button, diffButton, heading, note, pathLabel, problemList, section } from './widgets';

const ACTION: Record<PreviewFile['action'], { icon: IconName; word: () => string }> = {
  restore: { icon: 'discard', word: () => l10n.t('Restore') },
  delete: { icon: 'trash', word: () => l10n.t('Delete') },
  recreate: { icon: 'new-file', word: () => l10n.t('Recreate') },
};

/** Paths the safety check stopped on, for a tag in the file list; and the actions for the diff buttons. */
interface Rows {
  blocked: Set<string>;
  dirty: Set<string>;
  act: Actions;
  state: ShownState;
  /** Each row's checkboxes and toggle, kept in step with the choices by the section's update. */
  updates: RowUpdate[];
}

let lists = 0;

function renderFileRow(f: PreviewFile, rows: Rows): HTMLElement {
  const a = ACTION[f.action] ?? ACTION.restore;
  const tag = rows.blocked.has(f.path)
    ? h(
        'span',
        { class: 'row-tag error', title: l10n.t('Changed outside the agent: see Conflicts and warnings') },
        l10n.t('changed outside'),
      )
    : rows.dirty.has(f.path)
      ? h(
          'span',
          { class: 'row-tag warning', title: l10n.t('Unsaved changes in an editor: see Conflicts and warnings') },
          l10n.t('unsaved'),
        )
      : null;
  const counts = f.binary
    ? h('span', { class: 'counts' }, h('span', { class: 'binary' }, l10n.t('binary')))
    : h(
        'span',
        {
          class: 'counts',
          title: f.approximate ? l10n.t('Approximate line counts') : l10n.t('{0} lines added, {1} removed', f.insertions, f.deletions),
        },
        f.approximate ? h('span', { class: 'approx' }, '≈') : null,
        h('span', { class: 'ins', 'aria-label': l10n.t('{0} added', f.insertions) }, `+${f.insertions}`),
        h('span', { class: 'del', 'aria-label': l10n.t('{0} removed', f.deletions) }, `\u2212${f.deletions}`),
      );
  const listId = `hunks-${++lists}`;
  const box = fileCheckbox(f, rows.state, rows.act, rows.updates);
  return h(
    'li',
    { class: `file-row action-${f.action in ACTION ? f.action : 'restore'}` },
    box,
    h(
      'label',
      { for: box.id, class: 'file-label' },
      icon(a.icon, 'action-icon'),
      h('span', { class: 'action-word' }, a.word()),
      pathLabel(f.rel, f.path),
    ),
    tag,
    counts,
    hunkToggle(f, listId, rows.state, rows.act, rows.updates),
    diffButton(f.path, f.rel, rows.act),
    hunkList(f, listId, rows.state, rows.act, rows.updates),
  );
}

function fileList(files: PreviewFile[], labelledBy: string, rows: Rows): HTMLElement {
  return h('ul', { class: 'list file-list', 'aria-labelledby': labelledBy }, ...files.map((f) => renderFileRow(f, rows)));
}

function actionCounts(files: PreviewFile[]): string {
  const c = { restore: 0, delete: 0, recreate: 0 };
  for (const f of files) c[f.action in c ? f.action : 'restore']++;
  const parts: string[] = [];
  if (c.restore) parts.push(l10n.t('{0} restored', c.restore));
  if (c.delete) parts.push(l10n.t('{0} deleted', c.delete));
  if (c.recreate) parts.push(l10n.t('{0} recreated', c.recreate));
  return parts.join(', ');
}

export function renderFiles(state: ShownState, act: Actions): Section {
  const m = state.model;
  const rows: Rows = {
    blocked: new Set(m.blocked.map((p) => p.path)),
    dirty: new Set(m.dirty.map((p) => p.path)),
    act,
    state,
    updates: [],
  };
  const id = 'h-files';
  const filesNote = h(
    'p',
    { class: 'scope-note', hidden: true },
    l10n.t('With “Conversation” chosen above, these files stay as they are now.'),
  );
  const body: HTMLElement[] = [];
  if (m.files.length === 0) {
    body.push(
      note(
        'pass',
        'quiet',
        m.onlySession !== null
          ? l10n.t('No file changed by {0} differs from this point.', sessionLabel(m.onlySession))
          : l10n.t('No recorded file differs from this point: there is nothing to restore.'),
      ),
    );
  } else {
    body.push(h('p', { class: 'intro' }, l10n.t('{0} will change: {1}.', fileCount(m.files.length), actionCounts(m.files))));
  }

  if (m.sessions.length > 1) {
    body.push(renderSessionBar(m, act));
    for (const s of m.sessions) {
      const files = m.files.filter((f) => f.sessions.length === 1 && f.sessions[0] === s);
      const gid = `h-session-${m.sessions.indexOf(s)}`;
      const only = m.onlySession === s;
      // A session that covers no file of this rewind is noise (and its button would rewind nothing).
      if (files.length === 0 && m.onlySession === null) continue;
      body.push(
        h(
          'div',
          { class: `session-group${only ? ' chosen' : ''}` },
          h(
            'div',
            { class: 'group-header' },
            icon('account', 'group-icon'),
            h('h3', { id: gid, title: visible(s) }, sessionLabel(s)),
            badge(files.length, fileCount(files.length)),
            h('span', { class: 'spacer' }),
            only
              ? h('span', { class: 'chosen-label' }, l10n.t('Only this session is rewound'))
              : button(l10n.t('Rewind only this session'), {
                  key: `session:${s}`,
                  secondary: true,
                  cls: 'small',
                  label: l10n.t('Rewind only the changes of {0}', sessionLabel(s)),
                  onClick: () => act.post({ type: 'setSession', session: s }),
                }),
          ),
          files.length
            ? fileList(files, gid, rows)
            : h(
                'p',
                { class: 'empty-group' },
                m.onlySession !== null && !only ? l10n.t('Not part of this rewind.') : l10n.t('No file changed only by this session.'),
              ),
        ),
      );
    }
    const extra = (files: PreviewFile[], gid: string, iconName: IconName, title: string) =>
      files.length
        ? body.push(
            h(
              'div',
              { class: 'session-group' },
              h(
                'div',
                { class: 'group-header' },
                icon(iconName, 'group-icon'),
                h('h3', { id: gid }, title),
                badge(files.length, fileCount(files.length)),
              ),
              fileList(files, gid, rows),
            ),
          )
        : 0;
    extra(
      m.files.filter((f) => f.sessions.length > 1),
      'h-session-shared',
      'file',
      l10n.t('Changed by more than one session'),
    );
    extra(
      m.files.filter((f) => f.sessions.length === 0 || (f.sessions.length === 1 && !m.sessions.includes(f.sessions[0]!))),
      'h-session-other',
      'file',
      l10n.t('Other changes'),
    );
  } else if (m.files.length) {
    body.push(fileList(m.files, id, rows));
  }

  const otherSession = m.leftAlone.filter((l) => l.reason === 'other-session');
  const sameCall = m.leftAlone.filter((l) => l.reason === 'outside-selection');
  if (otherSession.length) body.push(renderLeftAlone(otherSession, leftAloneGroups()['other-session']));
  if (sameCall.length) body.push(renderLeftAlone(sameCall, leftAloneGroups()['outside-selection']));
  if (m.notRestorable.length) body.push(renderNotRestorable(m));
  const notChosen = h('div', { class: 'subsection not-chosen left-alone', hidden: true });
  body.push(notChosen);
  const el = section('files', id, heading(id, l10n.t('Files'), m.files.length, fileCount(m.files.length)), filesNote, ...body);
  return {
    el,
    update(s) {
      for (const u of rows.updates) u(s);
      renderNotChosen(
        notChosen,
        m.files.filter((f) => !fileChosen(s.choices.unticked, f)),
      );
      const files = s.choices.scope !== null && hasFiles(s.choices.scope);
      el.classList.toggle('out-of-scope', !files);
      filesNote.hidden = files;
      // With "Conversation" chosen, no file is written: the section would only be noise.
      el.hidden = s.choices.scope === 'conversation';
    },
  };
}

/** The files the agent changed that the rewind cannot put back, each with its reason. */
function renderNotRestorable(m: PreviewModel): HTMLElement {
  return h(
    'div',
    { class: 'subsection not-restorable' },
    h(
      'div',
      { class: 'group-header' },
      icon('circle-slash', 'group-icon'),
      h('h3', { id: 'h-not-restorable' }, l10n.t('Cannot be restored')),
      badge(m.notRestorable.length, fileCount(m.notRestorable.length)),
    ),
    h('p', { class: 'intro' }, l10n.t('The agent changed these too, but the rewind cannot put them back. They stay as they are now.')),
    problemList(m.notRestorable, 'h-not-restorable', notRestorableReason, null),
  );
}

/** The files the user unticked, listed as left alone (the shared left-alone words), below the files. */
function renderNotChosen(box: HTMLElement, list: PreviewFile[]): void {
  clear(box);
  box.hidden = list.length === 0;
  if (!list.length) return;
  append(
    box,
    h(
      'div',
      { class: 'group-header' },
      icon('circle-slash', 'group-icon'),
      h('h3', { id: 'h-not-chosen' }, l10n.t('Left alone: not chosen')),
      badge(list.length, fileCount(list.length)),
    ),
    h('p', { class: 'intro' }, `${leftAloneWords(l10n)['not-chosen'].long} ${l10n.t('Tick a file above to rewind it too.')}`),
    h(
      'ul',
      { class: 'list file-list', 'aria-labelledby': 'h-not-chosen' },
      ...list.map((f) => h('li', { class: 'plain-row' }, icon('circle-slash', 'action-icon'), pathLabel(f.rel, f.path))),
    ),
  );
}

function renderSessionBar(m: PreviewModel, act: Actions): HTMLElement {
  if (m.onlySession === null) {
    return h(
      'p',
      { class: 'intro' },
      countWords(
        m.sessions.length,
        l10n.t(
          '1 agent session changed files after this point. The rewind undoes all of them; you can also rewind only one session’s changes.',
        ),
        l10n.t(
          '{0} agent sessions changed files after this point. The rewind undoes all of them; you can also rewind only one session’s changes.',
          m.sessions.length,
        ),
      ),
    );
  }
  return note(
    'info',
    'info',
    h('span', null, l10n.t('Only the changes of {0} are rewound. The other sessions’ changes are kept.', sessionLabel(m.onlySession))),
    h(
      'span',
      { class: 'note-actions' },
      button(l10n.t('Rewind every session'), {
        key: 'session:*',
        secondary: true,
        cls: 'small',
        onClick: () => act.post({ type: 'setSession', session: null }),
      }),
    ),
  );
}

/** The two groups of files a scoped rewind leaves as they are: heading, class, and the way to take them too. */
interface LeftAloneGroup {
  id: string;
  cls: string;
  title: string;
  wayOut: string;
}
const leftAloneGroups = (): Record<PreviewLeftAlone['reason'], LeftAloneGroup> => ({
  'other-session': {
    id: 'h-conflicts',
    cls: 'conflicts',
    title: l10n.t('Also changed by another session'),
    wayOut: l10n.t('To rewind them too, rewind every session; to take one of them from a point, use Restore This File Only on that point.'),
  },
  'outside-selection': {
    id: 'h-left-alone-call',
    cls: 'left-alone-call',
    title: l10n.t('Changed by the same call as a chosen file'),
    wayOut: l10n.t('To rewind them too, rewind the whole point instead of only the chosen files.'),
  },
});

function renderLeftAlone(list: PreviewLeftAlone[], g: LeftAloneGroup): HTMLElement {
  const reason = list[0]!.reason;
  return h(
    'div',
    { class: `subsection ${g.cls} left-alone callout warning` },
    h(
      'div',
      { class: 'group-header' },
      icon('warning', 'group-icon'),
      h('h3', { id: g.id }, g.title),
      badge(list.length, fileCount(list.length)),
    ),
    h('p', { class: 'intro' }, `${leftAloneWords(l10n)[reason].long} ${g.wayOut}`),
    h(
      'ul',
      { class: 'list file-list', 'aria-labelledby': g.id },
      ...list.map((c) => {
        const detail = c.with?.length ? l10n.t('with {0}', c.with.map(visible).join(', ')) : c.sessions.map(sessionLabel).join(', ');
        return h(
          'li',
          { class: 'file-row conflict' },
          icon('warning', 'action-icon'),
          pathLabel(c.rel, c.path),
          h('span', { class: 'row-detail truncate', title: c.with?.length ? detail : c.sessions.map(visible).join(', ') }, detail),
        );
      }),
    ),
  );
}
