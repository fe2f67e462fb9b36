// A file Keep mine cannot merge (issue 41): where the user's changes and the agent's meet, side by
// side — yours on disk now | at the rewind point — and the agent's version (the merge's base) as a
// third column on request. Two columns by default: they are the choice (what stays, what the rewind
// would write), and two columns of code stay readable at the panel's default width; the base is the
// why ("what did the agent change?"), shown when asked for (a toggle button, aria-pressed). Then its
// ways out: leave it out (untick it: the rest is rewound, it is not touched), open it in VS Code's
// diff editor to resolve it by hand (the page plans again when the file changes), or "Rewind anyway"
// below. Nothing is half-merged: the core writes a conflicting file whole or not at all.
import type { PreviewConflict, PreviewFile, PreviewProblem } from '../shared/messages';
import { fileChosen, setFile } from './choice';
import { h } from './dom';
import { hunkPlace } from './hunks';
import { l10n } from './l10n';
import type { Actions, ShownState } from './state';
import { visible } from './text';
import { button } from './widgets';

/** The files whose base column is shown (for the page's life: a new model keeps the choice). */
const withBase = new Set<string>();

let ids = 0;

/** "Lines 40–41" of a range as the core gives it ([start, count]; 0 lines: after line start). */
const place = (r: [number, number]) => hunkPlace({ from: r } as Parameters<typeof hunkPlace>[0]);

/** One side of a region: its caption (whose, and where) and its lines, text only. */
function side(cls: string, who: string, range: [number, number], lines: readonly string[]): HTMLElement {
  const id = `conflict-side-${++ids}`;
  return h(
    'figure',
    { class: `conflict-side ${cls}`, 'aria-labelledby': id },
    h(
      'figcaption',
      { id, class: 'conflict-caption' },
      h('span', { class: 'conflict-who' }, who),
      ' ',
      h('span', { class: 'conflict-where' }, place(range)),
    ),
    h(
      'pre',
      { class: 'conflict-lines' },
      ...(lines.length
        ? lines.map((t) => h('span', { class: 'line' }, `${visible(t)}\n`))
        : [h('span', { class: 'line none' }, l10n.t('(no lines)'))]),
    ),
  );
}

function region(c: PreviewConflict, base: boolean): HTMLElement {
  return h(
    'div',
    { class: 'conflict-region', role: 'group', 'aria-label': l10n.t('Conflict at {0}', place(c.from)) },
    h(
      'div',
      { class: `conflict-cols cols-${base ? 3 : 2}` },
      side('side-mine', l10n.t('Yours, on disk now'), c.from, c.lines.mine),
      side('side-target', l10n.t('At the rewind point'), c.target, c.lines.target),
      base ? side('side-base', l10n.t('The agent’s (what it left)'), c.base, c.lines.base) : null,
    ),
    c.more > 0 ? h('p', { class: 'conflict-more' }, l10n.t('… {0} more lines (Open in Diff Editor shows them all)', c.more)) : null,
  );
}

/** The conflict view of one blocked file, or null when Keep mine merges it (or never can). */
export function conflictView(
  b: PreviewProblem,
  state: ShownState,
  act: Actions,
): { el: HTMLElement; update: (s: ShownState) => void } | null {
  if (b.merge !== 'conflict' || !b.conflicts?.length) return null;
  const file: PreviewFile | undefined = state.model.files.find((f) => f.path === b.path);
  const name = visible(b.rel || b.path);
  const headId = `conflict-${++ids}`;
  const regions = h('div', { class: 'conflict-regions' });
  const showRegions = () => {
    regions.replaceChildren(...b.conflicts!.map((c) => region(c, withBase.has(b.path))));
  };
  showRegions();
  const baseToggle = button(l10n.t('Show the agent’s version'), {
    key: `conflict-base:${b.path}`,
    secondary: true,
    cls: 'small',
    iconName: 'split-horizontal',
    onClick: () => {
      if (withBase.has(b.path)) withBase.delete(b.path);
      else withBase.add(b.path);
      showRegions();
      act.changed();
    },
  });
  const leave = button(l10n.t('Leave It Out'), {
    key: `conflict-leave:${b.path}`,
    secondary: true,
    cls: 'small',
    iconName: 'circle-slash',
    onClick: () => {
      if (!file) return;
      setFile(state.choices.unticked, b.path, !fileChosen(state.choices.unticked, file));
      act.changed();
    },
  });
  const diff = button(l10n.t('Open in Diff Editor'), {
    key: `conflict-diff:${b.path}`,
    secondary: true,
    cls: 'small',
    iconName: 'diff',
    label: l10n.t('Open {0} in the diff editor: at the rewind point, and yours on disk to edit', name),
    onClick: () => act.post({ type: 'openConflict', path: b.path }),
  });
  const left = h('p', { class: 'conflict-left', role: 'status' });
  const el = h(
    'section',
    { class: 'conflict', 'aria-labelledby': headId, 'data-path': b.path },
    h('h4', { id: headId, class: 'conflict-title' }, l10n.t('Where your changes and the agent’s meet in {0}', name)),
    h(
      'p',
      { class: 'conflict-intro' },
      l10n.t(
        'Keep mine cannot merge this file, so it is not written at all. Leave it out to rewind the rest, resolve it in the diff editor (edit your file on the right; this preview plans again when you save), or tick “Rewind anyway” below.',
      ),
    ),
    regions,
    h('div', { class: 'conflict-actions' }, file ? leave : null, diff, baseToggle),
    left,
  );
  return {
    el,
    update(s) {
      const chosen = !file || fileChosen(s.choices.unticked, file);
      leave.querySelector('.button-text')!.textContent = chosen ? l10n.t('Leave It Out') : l10n.t('Include It Again');
      leave.setAttribute('aria-pressed', String(!chosen));
      left.textContent = chosen ? '' : l10n.t('Left out: {0} stays as it is; the other files are rewound.', name);
      left.hidden = chosen;
      el.classList.toggle('left-out', !chosen);
      const base = withBase.has(b.path);
      baseToggle.setAttribute('aria-pressed', String(base));
      baseToggle.querySelector('.button-text')!.textContent = base
        ? l10n.t('Hide the agent’s version')
        : l10n.t('Show the agent’s version');
    },
  };
}
