// Section (c): the files the rewind writes (restore / delete / recreate, +/- lines, Open diff per file),
// grouped by agent session when several wrote after the target, then the paths another session also
// changed and the files a call outside the chosen ones changed (left alone), and the files that cannot be restored.
import type { PreviewFile, PreviewLeftAlone, PreviewModel } from '../shared/messages';
import { LEFT_ALONE } from '../shared/reasons';
import { h } from './dom';
import { icon, type IconName } from './icons';
import type { Actions, Section, ShownState } from './state';
import { hasFiles, notRestorableReason, plural, sessionLabel, visible } from './text';
import { badge, button, diffButton, heading, note, pathLabel, problemList, section } from './widgets';

const ACTION: Record<PreviewFile['action'], { icon: IconName; word: string }> = {
  restore: { icon: 'discard', word: 'Restore' },
  delete: { icon: 'trash', word: 'Delete' },
  recreate: { icon: 'new-file', word: 'Recreate' },
};

/** Paths the safety check stopped on, for a tag in the file list; and the actions for the diff buttons. */
interface Rows {
  blocked: Set<string>;
  dirty: Set<string>;
  act: Actions;
}

function renderFileRow(f: PreviewFile, rows: Rows): HTMLElement {
  const a = ACTION[f.action] ?? ACTION.restore;
  const tag = rows.blocked.has(f.path)
    ? h('span', { class: 'row-tag error', title: 'Changed outside the agent: see Conflicts and warnings' }, 'changed outside')
    : rows.dirty.has(f.path)
      ? h('span', { class: 'row-tag warning', title: 'Unsaved changes in an editor: see Conflicts and warnings' }, 'unsaved')
      : null;
  const counts = f.binary
    ? h('span', { class: 'counts' }, h('span', { class: 'binary' }, 'binary'))
    : h(
        'span',
        { class: 'counts', title: f.approximate ? 'Approximate line counts' : `${f.insertions} lines added, ${f.deletions} removed` },
        f.approximate ? h('span', { class: 'approx' }, '≈') : null,
        h('span', { class: 'ins', 'aria-label': `${f.insertions} added` }, `+${f.insertions}`),
        h('span', { class: 'del', 'aria-label': `${f.deletions} removed` }, `\u2212${f.deletions}`),
      );
  return h(
    'li',
    { class: `file-row action-${f.action in ACTION ? f.action : 'restore'}` },
    icon(a.icon, 'action-icon'),
    h('span', { class: 'action-word' }, a.word),
    pathLabel(f.rel, f.path),
    tag,
    counts,
    diffButton(f.path, f.rel, rows.act),
  );
}

function fileList(files: PreviewFile[], labelledBy: string, rows: Rows): HTMLElement {
  return h('ul', { class: 'list file-list', 'aria-labelledby': labelledBy }, ...files.map((f) => renderFileRow(f, rows)));
}

function actionCounts(files: PreviewFile[]): string {
  const c = { restore: 0, delete: 0, recreate: 0 };
  for (const f of files) c[f.action in c ? f.action : 'restore']++;
  const parts: string[] = [];
  if (c.restore) parts.push(`${c.restore} restored`);
  if (c.delete) parts.push(`${c.delete} deleted`);
  if (c.recreate) parts.push(`${c.recreate} recreated`);
  return parts.join(', ');
}

export function renderFiles(state: ShownState, act: Actions): Section {
  const m = state.model;
  const rows: Rows = { blocked: new Set(m.blocked.map((p) => p.path)), dirty: new Set(m.dirty.map((p) => p.path)), act };
  const id = 'h-files';
  const filesNote = h('p', { class: 'scope-note', hidden: true }, 'With “Conversation” chosen above, these files stay as they are now.');
  const body: HTMLElement[] = [];
  if (m.files.length === 0) {
    body.push(
      note(
        'pass',
        'quiet',
        m.onlySession !== null
          ? `No file changed by ${sessionLabel(m.onlySession)} differs from this point.`
          : 'No recorded file differs from this point: there is nothing to restore.',
      ),
    );
  } else {
    body.push(h('p', { class: 'intro' }, `${plural(m.files.length, 'file')} will change: ${actionCounts(m.files)}.`));
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
            icon(s === '(rewind)' ? 'history' : 'account', 'group-icon'),
            h('h3', { id: gid, title: visible(s) }, sessionLabel(s)),
            badge(files.length, plural(files.length, 'file')),
            h('span', { class: 'spacer' }),
            only
              ? h('span', { class: 'chosen-label' }, 'Only this session is rewound')
              : button(s === '(rewind)' ? 'Rewind only these changes' : 'Rewind only this session', {
                  key: `session:${s}`,
                  secondary: true,
                  cls: 'small',
                  label: `Rewind only the changes of ${sessionLabel(s)}`,
                  onClick: () => act.post({ type: 'setSession', session: s }),
                }),
          ),
          files.length
            ? fileList(files, gid, rows)
            : h(
                'p',
                { class: 'empty-group' },
                m.onlySession !== null && !only ? 'Not part of this rewind.' : 'No file changed only by this session.',
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
                badge(files.length, plural(files.length, 'file')),
              ),
              fileList(files, gid, rows),
            ),
          )
        : 0;
    extra(
      m.files.filter((f) => f.sessions.length > 1),
      'h-session-shared',
      'file',
      'Changed by more than one session',
    );
    extra(
      m.files.filter((f) => f.sessions.length === 0 || (f.sessions.length === 1 && !m.sessions.includes(f.sessions[0]!))),
      'h-session-other',
      'file',
      'Other changes',
    );
  } else if (m.files.length) {
    body.push(fileList(m.files, id, rows));
  }

  const otherSession = m.leftAlone.filter((l) => l.reason === 'other-session');
  const sameCall = m.leftAlone.filter((l) => l.reason === 'outside-selection');
  if (otherSession.length) body.push(renderLeftAlone(otherSession, LEFT_ALONE_GROUPS['other-session']));
  if (sameCall.length) body.push(renderLeftAlone(sameCall, LEFT_ALONE_GROUPS['outside-selection']));
  if (m.notRestorable.length) {
    body.push(
      h(
        'div',
        { class: 'subsection not-restorable' },
        h(
          'div',
          { class: 'group-header' },
          icon('circle-slash', 'group-icon'),
          h('h3', { id: 'h-not-restorable' }, 'Cannot be restored'),
          badge(m.notRestorable.length, plural(m.notRestorable.length, 'file')),
        ),
        h('p', { class: 'intro' }, 'The agent changed these too, but the rewind cannot put them back. They stay as they are now.'),
        problemList(m.notRestorable, 'h-not-restorable', notRestorableReason, null),
      ),
    );
  }
  const el = section('files', id, heading(id, 'Files', m.files.length, plural(m.files.length, 'file')), filesNote, ...body);
  return {
    el,
    update(s) {
      const files = s.choices.scope !== null && hasFiles(s.choices.scope);
      el.classList.toggle('out-of-scope', !files);
      filesNote.hidden = files;
      // With "Conversation" chosen, no file is written: the section would only be noise.
      el.hidden = s.choices.scope === 'conversation';
    },
  };
}

function renderSessionBar(m: PreviewModel, act: Actions): HTMLElement {
  if (m.onlySession === null) {
    return h(
      'p',
      { class: 'intro' },
      `${plural(m.sessions.length, 'agent session')} changed files after this point. The rewind undoes all of them; you can also rewind only one session’s changes.`,
    );
  }
  return note(
    'info',
    'info',
    h('span', null, `Only the changes of ${sessionLabel(m.onlySession)} are rewound. The other sessions’ changes are kept.`),
    h(
      'span',
      { class: 'note-actions' },
      button('Rewind every session', {
        key: 'session:*',
        secondary: true,
        cls: 'small',
        onClick: () => act.post({ type: 'setSession', session: null }),
      }),
    ),
  );
}

/** The two groups of files a scoped rewind leaves as they are: heading, class, and the way to take them too. */
const LEFT_ALONE_GROUPS: Record<PreviewLeftAlone['reason'], { id: string; cls: string; title: string; wayOut: string }> = {
  'other-session': {
    id: 'h-conflicts',
    cls: 'conflicts',
    title: 'Also changed by another session',
    wayOut: 'To rewind them too, rewind every session; to take one of them from a point, use Restore This File Only on that point.',
  },
  'outside-selection': {
    id: 'h-left-alone-call',
    cls: 'left-alone-call',
    title: 'Changed by the same call as a chosen file',
    wayOut: 'To rewind them too, rewind the whole point instead of only the chosen files.',
  },
};

function renderLeftAlone(list: PreviewLeftAlone[], g: (typeof LEFT_ALONE_GROUPS)[PreviewLeftAlone['reason']]): HTMLElement {
  const reason = list[0]!.reason;
  return h(
    'div',
    { class: `subsection ${g.cls} left-alone callout warning` },
    h(
      'div',
      { class: 'group-header' },
      icon('warning', 'group-icon'),
      h('h3', { id: g.id }, g.title),
      badge(list.length, plural(list.length, 'file')),
    ),
    h('p', { class: 'intro' }, `${LEFT_ALONE[reason].long} ${g.wayOut}`),
    h(
      'ul',
      { class: 'list file-list', 'aria-labelledby': g.id },
      ...list.map((c) => {
        const detail = c.with?.length ? `with ${c.with.map(visible).join(', ')}` : c.sessions.map(sessionLabel).join(', ');
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
