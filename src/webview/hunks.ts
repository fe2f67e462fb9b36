// The choice of files and hunks in the Files section: each file row's checkbox (ticked: the rewind
// writes it), and for a text file a toggle that shows its hunks, each with its own checkbox and its
// lines (− removed from the file now, + written back from the point). Real <input type=checkbox>
// elements with <label>s, so Tab, Space and Enter (main.ts) work and a screen reader names them.
// What is chosen lives in state.choices.unticked (choice.ts); the row only shows and changes it.
import type { PreviewFile, PreviewHunk } from '../shared/messages';
import { countWords } from '../shared/l10n';
import { fileChosen, hunkChosen, setFile, setHunk } from './choice';
import { h } from './dom';
import { icon } from './icons';
import { l10n } from './l10n';
import type { Actions, ShownState } from './state';
import { visible } from './text';

/** Keeps a rendered row in step with the choices (called from the Files section's update). */
export type RowUpdate = (s: ShownState) => void;

let ids = 0;

/** "Lines 40–45" / "Line 40" / "After line 12": where a hunk is in the file now. */
export function hunkPlace(h: PreviewHunk): string {
  const [start, n] = h.from;
  if (n === 0) return start === 0 ? l10n.t('At the top') : l10n.t('After line {0}', start);
  return n === 1 ? l10n.t('Line {0}', start) : l10n.t('Lines {0}–{1}', start, start + n - 1);
}

/** The checkbox that chooses a whole file; its label is the file's row text (given by the caller). */
export function fileCheckbox(f: PreviewFile, state: ShownState, act: Actions, updates: RowUpdate[]): HTMLInputElement {
  const box = h('input', {
    type: 'checkbox',
    id: `pick-${++ids}`,
    class: 'checkbox pick',
    'data-key': `pick:${f.path}`,
    'aria-label': l10n.t('Rewind {0}', visible(f.rel || f.path)),
  });
  // Some hunks chosen, not all: the box says so, and a click ticks them all (as a mixed checkbox does elsewhere).
  let partial = false;
  box.addEventListener('change', () => {
    setFile(state.choices.unticked, f.path, partial || box.checked);
    act.changed();
  });
  updates.push((s) => {
    const chosen = fileChosen(s.choices.unticked, f);
    partial = chosen && !!f.hunks?.some((x) => !hunkChosen(s.choices.unticked, f, x));
    box.checked = chosen;
    box.indeterminate = partial;
    box.closest('.file-row')?.classList.toggle('unchosen', !chosen);
  });
  return box;
}

/** The toggle that shows a file's hunks (null for a file without hunks to choose: binary, too many changes, deleted). */
export function hunkToggle(f: PreviewFile, listId: string, state: ShownState, act: Actions, updates: RowUpdate[]): HTMLElement | null {
  if (!f.hunks?.length) return null;
  const n = f.hunks.length;
  const words = countWords(n, l10n.t('1 hunk'), l10n.t('{0} hunks', n));
  const b = h(
    'button',
    {
      type: 'button',
      class: 'hunk-toggle',
      'data-key': `hunks:${f.path}`,
      'aria-controls': listId,
      'aria-label': l10n.t('Show the {0} of {1}', words, visible(f.rel || f.path)),
    },
    icon('chevron-right', 'chevron'),
    h('span', { class: 'hunk-count' }, words),
  );
  b.addEventListener('click', () => {
    const open = state.choices.expanded.includes(f.path);
    state.choices.expanded = open ? state.choices.expanded.filter((p) => p !== f.path) : [...state.choices.expanded, f.path];
    act.changed();
  });
  updates.push((s) => b.setAttribute('aria-expanded', String(s.choices.expanded.includes(f.path))));
  return b;
}

/** A file's hunks: a checkbox and the lines of each. */
export function hunkList(f: PreviewFile, listId: string, state: ShownState, act: Actions, updates: RowUpdate[]): HTMLElement | null {
  if (!f.hunks?.length) return null;
  const list = h(
    'ul',
    { id: listId, class: 'list hunk-list', 'aria-label': l10n.t('Hunks of {0}', visible(f.rel || f.path)) },
    ...f.hunks.map((x) => hunkRow(f, x, state, act, updates)),
  );
  updates.push((s) => (list.hidden = !s.choices.expanded.includes(f.path)));
  return list;
}

function hunkRow(f: PreviewFile, x: PreviewHunk, state: ShownState, act: Actions, updates: RowUpdate[]): HTMLElement {
  const id = `hunk-${++ids}`;
  const box = h('input', { type: 'checkbox', id, class: 'checkbox', 'data-key': `hunk:${f.path}#${x.id}` });
  box.addEventListener('change', () => {
    setHunk(state.choices.unticked, f, x.id, box.checked);
    act.changed();
  });
  const row = h(
    'li',
    { class: 'hunk' },
    h(
      'div',
      { class: 'hunk-head' },
      box,
      h(
        'label',
        { for: id, class: 'hunk-label' },
        h('span', { class: 'hunk-place' }, hunkPlace(x)),
        h('span', { class: 'ins', 'aria-label': l10n.t('{0} added', x.plus) }, `+${x.plus}`),
        h('span', { class: 'del', 'aria-label': l10n.t('{0} removed', x.minus) }, `\u2212${x.minus}`),
      ),
      x.touchesMine
        ? h(
            'span',
            { class: 'row-tag warning', title: l10n.t('These lines include lines you changed after the agent') },
            l10n.t('your lines'),
          )
        : null,
    ),
    hunkLines(x),
  );
  updates.push((s) => {
    box.checked = hunkChosen(s.choices.unticked, f, x);
    row.classList.toggle('unchosen', !box.checked);
  });
  return row;
}

/** The hunk's lines as a diff shows them: removed (−, the file now) then written (+, the point). Text only. */
function hunkLines(x: PreviewHunk): HTMLElement {
  const line = (cls: string, sign: string, text: string) => h('span', { class: `line ${cls}` }, `${sign} ${visible(text)}\n`);
  return h(
    'pre',
    { class: 'hunk-lines' },
    ...x.minusLines.map((t) => line('del', '\u2212', t)),
    ...x.plusLines.map((t) => line('ins', '+', t)),
    x.more > 0 ? h('span', { class: 'line more' }, l10n.t('… {0} more lines (Open diff shows them all)', x.more)) : null,
  );
}
