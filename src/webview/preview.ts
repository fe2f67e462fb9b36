// The Preview webview: the dry run of a rewind, shown before anything is written (DESIGN §6).
// The host is the source of truth: it sends a PreviewModel, this renders it and posts what the
// user asks for. Sections, in this order: what will not be undone, compensations, files,
// conflicts and warnings, scope, Rewind / Cancel.
//
// Everything in the model is untrusted agent output. It reaches the page through text nodes and
// attributes set with DOM APIs only (see dom.ts), never as markup.
import type { HostToWebview, PreviewFile, PreviewModel, PreviewNotUndone, PreviewProblem, Scope, WebviewToHost } from '../shared/messages';
import { append, clear, h, truncated } from './dom';
import { icon, type IconName } from './icons';
import {
  blockedReason, CHECKPOINT_KIND, decide, dirtyReason, effectText, formatTime, hasConversation, hasFiles,
  initialScope, notRestorableReason, oneLine, plural, sessionLabel, splitPath, visible, warningReason,
} from './text';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** UI-only state, kept across the webview being hidden (setState); reset for another target. */
interface UiState {
  target: string;
  scope: Scope | null;
  /** Chosen compensations by the call they offset (indexes change when the host re-plans). */
  compensations: string[];
  force: boolean;
  /** The blocked paths "Rewind anyway" was chosen for: a different set asks again. */
  forceFor: string;
}

const vscode = acquireVsCodeApi();
const post = (m: WebviewToHost): void => vscode.postMessage(m);

const app = document.getElementById('app') as HTMLElement;
const statusEl = document.getElementById('status') as HTMLElement;
const alertEl = document.getElementById('alert') as HTMLElement;
const alertBanner = document.getElementById('alert-banner') as HTMLElement;
const alertActions = document.getElementById('alert-actions') as HTMLElement;

let model: PreviewModel | null = null;
let ui: UiState | null = restoreState();
let busy = false;
let busyMessage = '';
let errorMessage: string | null = null;

/** Nodes that change with the UI state without a full re-render. */
interface Refs {
  rewind: HTMLButtonElement;
  why: HTMLElement;
  summary: HTMLElement;
  filesSection: HTMLElement;
  filesNote: HTMLElement;
  problemsNote: HTMLElement | null;
  compNote: HTMLElement | null;
  compBoxes: HTMLInputElement[];
  conversation: HTMLElement | null;
  forceBox: HTMLInputElement | null;
}
let refs: Refs | null = null;
let refsPending: Partial<Refs> = {};

function compKey(i: PreviewNotUndone): string {
  return JSON.stringify([i.tool, i.summary, i.time, i.compensation ?? '']);
}

function blockedKey(m: PreviewModel): string {
  return JSON.stringify(m.blocked.map((b) => b.path).sort());
}

function restoreState(): UiState | null {
  const s = vscode.getState() as Partial<UiState> | undefined;
  if (!s || typeof s.target !== 'string') return null;
  return {
    target: s.target,
    scope: s.scope === 'files' || s.scope === 'conversation' || s.scope === 'both' ? s.scope : null,
    compensations: Array.isArray(s.compensations) ? s.compensations.filter((k) => typeof k === 'string') : [],
    force: s.force === true,
    forceFor: typeof s.forceFor === 'string' ? s.forceFor : '',
  };
}

function saveState(): void {
  if (ui) vscode.setState(ui);
}

// ------------------------------------------------------------------ small building blocks

function badge(n: number, label: string, extra = ''): HTMLElement {
  return h('span', { class: `badge${extra ? ` ${extra}` : ''}`, 'aria-label': label, title: label }, String(n));
}

function heading(id: string, text: string, count?: number, countLabel?: string): HTMLElement {
  return h('h2', { id, class: 'section-title' }, text, count ? badge(count, countLabel ?? String(count)) : null);
}

function section(cls: string, titleId: string, ...children: Parameters<typeof h>[2][]): HTMLElement {
  return h('section', { class: `section ${cls}`, 'aria-labelledby': titleId }, ...children);
}

function button(text: string, opts: { key: string; secondary?: boolean; iconName?: IconName; label?: string; onClick: () => void; cls?: string }): HTMLButtonElement {
  const b = h(
    'button',
    { type: 'button', class: `button${opts.secondary ? ' secondary' : ''}${opts.cls ? ` ${opts.cls}` : ''}`, 'data-key': opts.key, 'aria-label': opts.label },
    opts.iconName ? icon(opts.iconName) : null,
    h('span', { class: 'button-text' }, text),
  );
  b.addEventListener('click', () => {
    if (b.getAttribute('aria-disabled') === 'true') return;
    opts.onClick();
  });
  return b;
}

function iconButton(name: IconName, label: string, key: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'icon-button', 'aria-label': label, title: label, 'data-key': key }, icon(name));
  b.addEventListener('click', () => {
    if (b.getAttribute('aria-disabled') === 'true') return;
    onClick();
  });
  return b;
}

function diffButton(path: string, rel: string): HTMLButtonElement {
  return iconButton('diff', `Open diff: ${visible(rel || path)}`, `diff:${path}`, () => post({ type: 'openDiff', path }));
}

/** A relative path as VS Code shows it: the name, then its folder dimmed; full text in the tooltip. */
function pathLabel(rel: string, path: string): HTMLElement {
  const shown = visible(rel || path);
  const { name, folder } = splitPath(shown);
  return h(
    'span',
    { class: 'path', title: path && path !== rel ? `${shown}\n${visible(path)}` : shown },
    h('span', { class: 'path-name' }, name),
    folder ? h('span', { class: 'path-folder' }, folder) : null,
  );
}

function note(iconName: IconName, cls: string, ...children: Parameters<typeof h>[2][]): HTMLElement {
  return h('div', { class: `note ${cls}` }, icon(iconName, 'note-icon'), h('div', { class: 'note-body' }, ...children));
}

/** The display path for a path the model names elsewhere (uncommitted, files keeping edits). */
function relOf(m: PreviewModel, p: string): string {
  for (const list of [m.files, m.blocked, m.warnings, m.dirty, m.notRestorable]) {
    for (const f of list) if (f.path === p || f.rel === p) return f.rel;
  }
  return p;
}

function dayOf(time: string): Date {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? new Date() : new Date(ms);
}

// ------------------------------------------------------------------ header

function renderHeader(m: PreviewModel): HTMLElement {
  const kind = CHECKPOINT_KIND[m.target.kind] ?? visible(m.target.kind);
  const label = oneLine(m.target.label);
  return h(
    'header',
    { class: 'page-header' },
    h(
      'div',
      { class: 'title-row' },
      h('h1', null, 'Rewind preview'),
      iconButton('refresh', 'Refresh the preview', 'refresh', () => post({ type: 'refresh' })),
    ),
    h(
      'p',
      { class: 'target' },
      h('span', { class: 'target-prefix' }, 'Back to '),
      label ? truncated('target-label', `“${label}”`) : h('span', { class: 'target-label' }, 'this checkpoint'),
      h('span', { class: 'target-meta' }, ` · ${kind}`, m.target.time ? ` · ${formatTime(m.target.time)}` : ''),
    ),
    h('p', { class: 'dry-run' }, 'This is a dry run: nothing has been changed yet. Agent Rewind restores files the agent changed; it does not undo commands the agent ran.'),
  );
}

// ------------------------------------------------------------------ (a) what will not be undone

function renderNotUndone(m: PreviewModel): HTMLElement {
  const items = [...m.notUndone].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'high' ? -1 : 1));
  const id = 'h-not-undone';
  if (items.length === 0) {
    return section(
      'not-undone empty',
      id,
      heading(id, 'What will not be undone'),
      note('pass', 'quiet', 'Nothing outside your files needs undoing: no commands with effects beyond this workspace were recorded after this point.'),
    );
  }
  const high = items.filter((i) => i.severity !== 'low').length;
  const low = items.length - high;
  const intro = low > 0 && high === 0
    ? `The agent ran ${plural(low, 'command')} Agent Rewind does not know after this point. A rewind restores files; whatever these did stays done.`
    : `These ran after this point and reached outside your files. A rewind restores files; whatever these did stays done.`;
  return section(
    'not-undone callout warning',
    id,
    h('h2', { id, class: 'section-title' }, icon(high > 0 ? 'warning' : 'question', 'title-icon'), 'What will not be undone', badge(items.length, plural(items.length, 'command'))),
    h('p', { class: 'intro' }, intro),
    h('ul', { class: 'list nu-list', 'aria-labelledby': id }, ...items.map((i) => renderNotUndoneItem(i, dayOf(m.target.time)))),
  );
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
      h('div', { class: 'nu-line' }, h('span', { class: 'tool' }, visible(item.tool)), h('code', { class: 'truncate summary', title: summary }, summary)),
      h(
        'div',
        { class: 'nu-effect' },
        h('span', { class: 'effect-text' }, effectText(item)),
        item.time ? h('span', { class: 'nu-time', title: visible(item.time) }, ` · ${formatTime(item.time, refDay)}`) : null,
      ),
    ),
  );
}

// ------------------------------------------------------------------ (b) compensations

function renderCompensations(m: PreviewModel, state: UiState): HTMLElement | null {
  const offered = m.notUndone.filter((i) => typeof i.compensation === 'string' && i.compensation.length > 0);
  if (offered.length === 0) return null;
  const id = 'h-compensations';
  const rewritesHistory = offered.some((i) => /\bgit\b[^|;&]*\breset\b/.test(i.compensation ?? ''));
  const boxes: HTMLInputElement[] = [];
  const list = h(
    'ul',
    { class: 'list comp-list', 'aria-labelledby': id },
    ...offered.map((item) => {
      const cid = `comp-${item.index}`;
      const cmd = oneLine(item.compensation ?? '');
      const key = compKey(item);
      const box = h('input', { type: 'checkbox', id: cid, class: 'checkbox', 'data-key': cid, 'data-comp': key, checked: state.compensations.includes(key), 'aria-describedby': `${cid}-d` });
      boxes.push(box);
      box.addEventListener('change', () => {
        if (!ui) return;
        const set = new Set(ui.compensations);
        if (box.checked) set.add(key);
        else set.delete(key);
        ui.compensations = [...set];
        saveState();
        update();
      });
      return h(
        'li',
        { class: 'comp-item' },
        box,
        h(
          'label',
          { for: cid, class: 'comp-label' },
          h('span', { class: 'comp-line' }, h('span', { class: 'comp-verb' }, 'Run '), h('code', { class: 'truncate', title: cmd }, cmd)),
          h('span', { id: `${cid}-d`, class: 'comp-desc' }, 'Offsets ', h('span', { class: 'tool' }, visible(item.tool)), ': ', truncated('comp-of', oneLine(item.summary))),
        ),
      );
    }),
  );
  const compNote = h('p', { class: 'scope-note', hidden: true }, 'Compensations run only with a file rewind: choose “Files” or “Both” below to run them.');
  refsPending.compNote = compNote;
  refsPending.compBoxes = boxes;
  return section(
    'compensations',
    id,
    heading(id, 'Compensations', offered.length, plural(offered.length, 'compensation')),
    h(
      'p',
      { class: 'intro' },
      'Commands that offset what the agent did. They are off unless you check them. Each checked command runs in a visible terminal after the files are restored, so you can watch its output.',
      rewritesHistory ? ' Note that git reset --soft rewrites your branch history: the commits leave the branch and their changes stay staged.' : '',
    ),
    compNote,
    list,
  );
}

// ------------------------------------------------------------------ (c) files

const ACTION: Record<PreviewFile['action'], { icon: IconName; word: string }> = {
  restore: { icon: 'discard', word: 'Restore' },
  delete: { icon: 'trash', word: 'Delete' },
  recreate: { icon: 'new-file', word: 'Recreate' },
};

/** Paths the safety check stopped on, for a tag in the file list. */
let stoppedPaths = { blocked: new Set<string>(), dirty: new Set<string>() };

function renderFileRow(f: PreviewFile): HTMLElement {
  const a = ACTION[f.action] ?? ACTION.restore;
  const tag = stoppedPaths.blocked.has(f.path)
    ? h('span', { class: 'row-tag error', title: 'Changed outside the agent: see Conflicts and warnings' }, 'changed outside')
    : stoppedPaths.dirty.has(f.path)
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
    diffButton(f.path, f.rel),
  );
}

function fileList(files: PreviewFile[], labelledBy: string): HTMLElement {
  return h('ul', { class: 'list file-list', 'aria-labelledby': labelledBy }, ...files.map(renderFileRow));
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

function renderFiles(m: PreviewModel): HTMLElement {
  const id = 'h-files';
  const filesNote = h('p', { class: 'scope-note', hidden: true }, 'With “Conversation” chosen below, these files stay as they are now.');
  const body: HTMLElement[] = [];
  if (m.files.length === 0) {
    body.push(note('pass', 'quiet', m.onlySession !== null ? `No file changed by ${sessionLabel(m.onlySession)} differs from this point.` : 'No recorded file differs from this point: there is nothing to restore.'));
  } else {
    body.push(h('p', { class: 'intro' }, `${plural(m.files.length, 'file')} will change: ${actionCounts(m.files)}.`));
  }

  if (m.sessions.length > 1) {
    body.push(renderSessionBar(m));
    for (const s of m.sessions) {
      const files = m.files.filter((f) => f.sessions.length === 1 && f.sessions[0] === s);
      const gid = `h-session-${m.sessions.indexOf(s)}`;
      const only = m.onlySession === s;
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
                  onClick: () => post({ type: 'setSession', session: s }),
                }),
          ),
          files.length ? fileList(files, gid) : h('p', { class: 'empty-group' }, m.onlySession !== null && !only ? 'Not part of this rewind.' : 'No file changed only by this session.'),
        ),
      );
    }
    const extra = (files: PreviewFile[], gid: string, iconName: IconName, title: string) =>
      files.length
        ? body.push(
            h(
              'div',
              { class: 'session-group' },
              h('div', { class: 'group-header' }, icon(iconName, 'group-icon'), h('h3', { id: gid }, title), badge(files.length, plural(files.length, 'file'))),
              fileList(files, gid),
            ),
          )
        : 0;
    extra(m.files.filter((f) => f.sessions.length > 1), 'h-session-shared', 'file', 'Changed by more than one session');
    extra(m.files.filter((f) => f.sessions.length === 0 || (f.sessions.length === 1 && !m.sessions.includes(f.sessions[0]!))), 'h-session-other', 'file', 'Other changes');
  } else if (m.files.length) {
    body.push(fileList(m.files, id));
  }

  if (m.conflicts.length) body.push(renderConflicts(m));
  if (m.notRestorable.length) {
    body.push(
      h(
        'div',
        { class: 'subsection not-restorable' },
        h('div', { class: 'group-header' }, icon('circle-slash', 'group-icon'), h('h3', { id: 'h-not-restorable' }, 'Cannot be restored'), badge(m.notRestorable.length, plural(m.notRestorable.length, 'file'))),
        h('p', { class: 'intro' }, 'The agent changed these too, but the rewind cannot put them back. They stay as they are now.'),
        problemList(m.notRestorable, 'h-not-restorable', notRestorableReason, false),
      ),
    );
  }
  const s = section('files', id, heading(id, 'Files', m.files.length, plural(m.files.length, 'file')), filesNote, ...body);
  refsPending.filesSection = s;
  refsPending.filesNote = filesNote;
  return s;
}

function renderSessionBar(m: PreviewModel): HTMLElement {
  if (m.onlySession === null) {
    return h('p', { class: 'intro' }, `${plural(m.sessions.length, 'agent session')} changed files after this point. The rewind undoes all of them; you can also rewind only one session’s changes.`);
  }
  return note(
    'info',
    'info',
    h('span', null, `Only the changes of ${sessionLabel(m.onlySession)} are rewound. The other sessions’ changes are kept.`),
    h('span', { class: 'note-actions' }, button('Rewind every session', { key: 'session:*', secondary: true, cls: 'small', onClick: () => post({ type: 'setSession', session: null }) })),
  );
}

function renderConflicts(m: PreviewModel): HTMLElement {
  return h(
    'div',
    { class: 'subsection conflicts callout warning' },
    h('div', { class: 'group-header' }, icon('warning', 'group-icon'), h('h3', { id: 'h-conflicts' }, 'Also changed by another session'), badge(m.conflicts.length, plural(m.conflicts.length, 'file'))),
    h('p', { class: 'intro' }, 'Another session changed these files after this point as well. Rewinding only one session’s changes cannot separate their edits, so these files are left as they are.'),
    h(
      'ul',
      { class: 'list file-list', 'aria-labelledby': 'h-conflicts' },
      ...m.conflicts.map((c) =>
        h(
          'li',
          { class: 'file-row conflict' },
          icon('warning', 'action-icon'),
          pathLabel(c.rel, c.path),
          h('span', { class: 'row-detail truncate', title: c.sessions.map(visible).join(', ') }, c.sessions.map(sessionLabel).join(', ')),
        ),
      ),
    ),
  );
}

function problemList(items: PreviewProblem[], labelledBy: string, words: (reason: string) => string, diff: boolean): HTMLElement {
  return h(
    'ul',
    { class: 'list problem-list', 'aria-labelledby': labelledBy },
    ...items.map((p) =>
      h(
        'li',
        { class: 'problem-row' },
        h('div', { class: 'problem-main' }, pathLabel(p.rel, p.path), diff ? diffButton(p.path, p.rel) : null),
        h('div', { class: 'problem-reason' }, words(p.reason)),
      ),
    ),
  );
}

// ------------------------------------------------------------------ (d) conflicts and warnings

function renderProblems(m: PreviewModel, state: UiState): HTMLElement {
  const id = 'h-problems';
  const count = m.blocked.length + m.dirty.length + m.warnings.length;
  const parts: HTMLElement[] = [];
  const problemsNote = h('p', { class: 'scope-note', hidden: true }, 'These matter only when files are rewound; with “Conversation” chosen below, no file is written.');
  refsPending.problemsNote = problemsNote;

  if (m.blocked.length) {
    const box = h('input', { type: 'checkbox', id: 'force', class: 'checkbox', 'data-key': 'force', checked: state.force, 'aria-describedby': 'force-d' });
    box.addEventListener('change', () => {
      if (!ui) return;
      ui.force = box.checked;
      ui.forceFor = blockedKey(m);
      saveState();
      update();
    });
    refsPending.forceBox = box;
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
        h('div', { class: 'group-header' }, icon('error', 'group-icon'), h('h3', { id: 'h-blocked' }, `Stopped: ${plural(m.blocked.length, 'file')} changed outside the agent`)),
        h('p', { class: 'intro' }, 'The rewind would overwrite changes made after the agent’s last write (by you, or by another tool). Your ways out: save or commit your work elsewhere and refresh this preview, look at each change with Open diff, or rewind anyway.'),
        problemList(m.blocked, 'h-blocked', blockedReason, true),
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
          button('Save All', { key: 'save-all', secondary: true, cls: 'small', iconName: 'save', onClick: () => post({ type: 'saveAll' }) }),
        ),
        h('p', { class: 'intro' }, 'These files are open in an editor with changes not saved to disk. The rewind does not write over unsaved changes, even with “Rewind anyway”: save them first (or close them without saving), then rewind.'),
        problemList(m.dirty, 'h-dirty', dirtyReason, false),
      ),
    );
  }
  if (m.warnings.length) {
    parts.push(
      h(
        'div',
        { class: 'subsection callout info warnings' },
        h('div', { class: 'group-header' }, icon('info', 'group-icon'), h('h3', { id: 'h-warnings' }, `${plural(m.warnings.length, 'file')} saved again since the agent wrote ${m.warnings.length === 1 ? 'it' : 'them'}`)),
        h('p', { class: 'intro' }, 'For information only: the content is what the agent left, so nothing is lost by rewinding them.'),
        problemList(m.warnings, 'h-warnings', warningReason, false),
      ),
    );
  }
  if (m.uncommitted.length) {
    parts.push(
      h(
        'div',
        { class: 'subsection uncommitted' },
        h('div', { class: 'group-header' }, icon('git-commit', 'group-icon'), h('h3', { id: 'h-uncommitted' }, `Git: ${plural(m.uncommitted.length, 'affected file')} with uncommitted changes`)),
        h('p', { class: 'intro' }, 'Git has no copy of these changes. Agent Rewind keeps one before it rewinds (“Undo last rewind”), but you may want to commit first.'),
        h('ul', { class: 'list plain-list', 'aria-labelledby': 'h-uncommitted' }, ...m.uncommitted.map((p) => h('li', { class: 'plain-row' }, pathLabel(relOf(m, p), p)))),
      ),
    );
  }
  if (parts.length === 0) {
    parts.push(note('pass', 'quiet', 'Nothing changed outside the agent: every affected file is as the agent left it.'));
  }
  return section('problems', id, heading(id, 'Conflicts and warnings', count, plural(count, 'conflict or warning', 'conflicts and warnings')), problemsNote, ...parts);
}

// ------------------------------------------------------------------ (e) scope

const SCOPES: { scope: Scope; title: string; desc: (m: PreviewModel) => string }[] = [
  { scope: 'files', title: 'Files', desc: (m) => `Restore ${plural(m.files.length, 'file')} to this point. The conversation goes on as it is.` },
  { scope: 'conversation', title: 'Conversation', desc: () => 'Fork the conversation before this point into a new session. Files stay as they are now.' },
  { scope: 'both', title: 'Both', desc: (m) => `Restore ${plural(m.files.length, 'file')} and fork the conversation.` },
];

function renderScope(m: PreviewModel, state: UiState): HTMLElement {
  const id = 'h-scope';
  let reasonShown = false;
  const options = SCOPES.map(({ scope, title, desc }) => {
    const available = m.scope.available.includes(scope);
    const reason = reasonShown ? 'Not available, for the same reason.' : `Not available: ${visible(m.scope.unavailableReason || 'this agent’s conversation cannot be forked here.')}`;
    if (!available) reasonShown = true;
    const rid = `scope-${scope}`;
    const radio = h('input', {
      type: 'radio',
      name: 'scope',
      id: rid,
      value: scope,
      class: 'radio',
      'data-key': rid,
      checked: state.scope === scope,
      disabled: !available,
      'aria-describedby': `${rid}-d`,
    });
    radio.addEventListener('change', () => {
      if (!ui || !radio.checked) return;
      ui.scope = scope;
      saveState();
      update();
    });
    return h(
      'div',
      { class: `scope-option${available ? '' : ' unavailable'}` },
      radio,
      h(
        'label',
        { for: rid, class: 'scope-label' },
        h('span', { class: 'scope-title' }, title),
        h('span', { id: `${rid}-d`, class: 'scope-desc' }, available ? desc(m) : reason),
      ),
    );
  });
  const conv = m.conversation ? renderConversation(m) : null;
  refsPending.conversation = conv;
  return section(
    'scope',
    id,
    heading(id, 'What to rewind'),
    h('fieldset', { class: 'scope-group', 'aria-labelledby': id }, ...options),
    conv,
  );
}

function renderConversation(m: PreviewModel): HTMLElement {
  const c = m.conversation!;
  const prompt = oneLine(c.promptText);
  const keeping = c.filesKeepingEdits ?? [];
  return h(
    'div',
    { class: 'conversation callout info', hidden: true },
    h('div', { class: 'group-header' }, icon('comment-discussion', 'group-icon'), h('h3', { id: 'h-conversation' }, 'What the fork does')),
    h(
      'p',
      null,
      'A new session starts from the conversation cut before the prompt',
      c.promptTime ? h('span', { class: 'dim', title: visible(c.promptTime) }, ` (${formatTime(c.promptTime, dayOf(m.target.time))})`) : null,
      ':',
    ),
    h('blockquote', { class: 'prompt', title: prompt }, prompt || '(empty prompt)'),
    h(
      'p',
      null,
      `It keeps ${plural(c.kept, 'prompt')} and drops ${c.dropped}. The original session (`,
      h('span', { title: visible(c.session) }, sessionLabel(c.session).replace(/^Session /, '')),
      ') is not changed; you resume the new one afterwards.',
    ),
    keeping.length
      ? h(
          'div',
          { class: 'keeping', 'data-only': 'conversation' },
          h('p', null, `With “Conversation” only, ${plural(keeping.length, 'file keeps', 'files keep')} edits made in the dropped turns, which the new session will not remember making:`),
          h('ul', { class: 'list plain-list' }, ...keeping.map((p) => h('li', { class: 'plain-row' }, pathLabel(relOf(m, p), p)))),
        )
      : null,
  );
}

// ------------------------------------------------------------------ (f) actions

function renderActions(): HTMLElement {
  const rewind = button('Rewind', { key: 'rewind', onClick: doRewind, cls: 'primary' });
  rewind.setAttribute('aria-describedby', 'action-summary action-why');
  const cancel = button('Cancel', { key: 'cancel', secondary: true, onClick: () => post({ type: 'cancel' }) });
  const why = h('p', { id: 'action-why', class: 'action-why' });
  const summary = h('p', { id: 'action-summary', class: 'action-summary' });
  refsPending.rewind = rewind;
  refsPending.why = why;
  refsPending.summary = summary;
  return h('footer', { class: 'actions' }, h('div', { class: 'action-text' }, summary, why), h('div', { class: 'action-buttons' }, rewind, cancel));
}

function doRewind(): void {
  if (!model || !ui || busy) return;
  const d = decide(model, ui.scope, ui.force, ui.compensations.length, busy);
  if (!d.enabled || !ui.scope) return;
  const chosen = new Set(ui.compensations);
  const compensations = hasFiles(ui.scope) ? model.notUndone.filter((i) => i.compensation && chosen.has(compKey(i))).map((i) => i.index) : [];
  post({ type: 'rewind', scope: ui.scope, compensations, force: d.force });
}

// ------------------------------------------------------------------ render / update

function render(): void {
  if (!model) return;
  const m = model;
  const scope = initialScope(m, ui && ui.target === m.target.id ? ui.scope : null);
  if (!ui || ui.target !== m.target.id) ui = { target: m.target.id, scope, compensations: [], force: false, forceFor: '' };
  ui.scope = scope;
  const offered = new Set(m.notUndone.filter((i) => i.compensation).map(compKey));
  ui.compensations = ui.compensations.filter((k) => offered.has(k));
  if (m.blocked.length === 0 || ui.forceFor !== blockedKey(m)) ui.force = false;
  saveState();

  stoppedPaths = { blocked: new Set(m.blocked.map((p) => p.path)), dirty: new Set(m.dirty.map((p) => p.path)) };
  const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.key;
  refsPending = { problemsNote: null, compNote: null, compBoxes: [], conversation: null, forceBox: null };
  const children = [
    renderHeader(m),
    renderNotUndone(m),
    renderCompensations(m, ui),
    renderFiles(m),
    renderProblems(m, ui),
    renderScope(m, ui),
    renderActions(),
  ];
  clear(app);
  append(app, ...children);
  refs = refsPending as Refs;
  update();
  if (focusKey) {
    for (const el of app.querySelectorAll<HTMLElement>('[data-key]')) {
      if (el.dataset.key === focusKey) {
        el.focus();
        break;
      }
    }
  }
}

/** Applies the UI state (scope, force, compensations, busy) to the rendered page. */
function update(): void {
  if (!model || !ui || !refs) return;
  const m = model;
  const scope = ui.scope;
  const d = decide(m, scope, ui.force, scope !== null && hasFiles(scope) ? ui.compensations.length : 0, busy);
  const files = scope !== null && hasFiles(scope);
  const conv = scope !== null && hasConversation(scope);

  const label = refs.rewind.querySelector('.button-text');
  if (label) label.textContent = d.label;
  refs.rewind.setAttribute('aria-disabled', String(!d.enabled));
  refs.rewind.classList.toggle('disabled', !d.enabled);
  refs.summary.textContent = d.summary;
  refs.why.textContent = d.why && !busy ? d.why : '';
  refs.why.hidden = !refs.why.textContent;

  refs.filesSection.classList.toggle('out-of-scope', !files);
  refs.filesNote.hidden = files;
  if (refs.problemsNote) refs.problemsNote.hidden = files;
  if (refs.compNote) refs.compNote.hidden = files;
  // With no file rewind they do not run: shown unchecked and disabled, the choice kept for later.
  for (const b of refs.compBoxes) {
    b.disabled = !files;
    b.checked = files && ui.compensations.includes(b.dataset.comp ?? '');
  }
  if (refs.conversation) {
    refs.conversation.hidden = !conv;
    for (const el of refs.conversation.querySelectorAll<HTMLElement>('[data-only="conversation"]')) el.hidden = scope !== 'conversation';
  }
  if (refs.forceBox) refs.forceBox.checked = ui.force;

  for (const el of app.querySelectorAll<HTMLElement>('button')) {
    if (el === refs.rewind) continue;
    if (el.dataset.key === 'cancel') continue;
    el.setAttribute('aria-disabled', String(busy));
    el.classList.toggle('disabled', busy);
  }
  app.setAttribute('aria-busy', String(busy));
}

function showStatus(): void {
  clear(statusEl);
  statusEl.classList.toggle('visible', busy);
  if (busy) append(statusEl, icon('loading', 'status-icon'), h('span', null, busyMessage ? oneLine(busyMessage) : 'Working…'));
  // The live regions (#status, #alert) stay in the page; only their content and look change.
  clear(alertEl);
  clear(alertActions);
  alertBanner.classList.toggle('visible', errorMessage !== null);
  if (errorMessage !== null) {
    append(alertEl, icon('error', 'alert-icon'), h('span', { class: 'alert-message' }, oneLine(errorMessage)));
    append(
      alertActions,
      button('Refresh', { key: 'error-refresh', secondary: true, cls: 'small', onClick: () => post({ type: 'refresh' }) }),
      iconButton('close', 'Dismiss the error', 'error-dismiss', () => {
        errorMessage = null;
        showStatus();
      }),
    );
  }
}

function isPreviewModel(v: unknown): v is PreviewModel {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  const arrays = ['notUndone', 'files', 'notRestorable', 'blocked', 'warnings', 'dirty', 'uncommitted', 'sessions', 'conflicts'];
  return (
    typeof m.target === 'object' && m.target !== null &&
    arrays.every((k) => Array.isArray(m[k])) &&
    typeof m.scope === 'object' && m.scope !== null && Array.isArray((m.scope as Record<string, unknown>).available)
  );
}

function onMessage(msg: HostToWebview): void {
  switch (msg.type) {
    case 'model':
      if (!isPreviewModel(msg.model)) {
        errorMessage = 'The preview received data it cannot show.';
        showStatus();
        return;
      }
      model = msg.model;
      errorMessage = null;
      showStatus();
      render();
      return;
    case 'busy':
      busy = msg.busy === true;
      busyMessage = typeof msg.message === 'string' ? msg.message : '';
      showStatus();
      update();
      return;
    case 'error':
      errorMessage = typeof msg.message === 'string' ? msg.message : 'Something went wrong.';
      busy = false;
      showStatus();
      update();
      return;
    default: {
      const never: never = msg;
      void never;
    }
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  const data = e.data as HostToWebview | undefined;
  if (data && typeof data === 'object' && typeof data.type === 'string') onMessage(data);
});

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !e.defaultPrevented && !e.isComposing) {
    e.preventDefault();
    post({ type: 'cancel' });
    return;
  }
  // Enter toggles a focused checkbox, as Space does (a native radio already moves with the arrows).
  const t = e.target as HTMLElement | null;
  if (e.key === 'Enter' && t instanceof HTMLInputElement && t.type === 'checkbox' && !t.disabled) {
    e.preventDefault();
    t.click();
  }
});

post({ type: 'ready' });
