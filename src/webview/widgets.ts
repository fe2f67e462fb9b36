// Small building blocks the preview's sections share: badges, headings, buttons, path labels, notes,
// problem lists. Stateless: a button that talks to the host is given the `post` to do it with.
import type { PreviewModel, PreviewProblem } from '../shared/messages';
import { h } from './dom';
import { icon, type IconName } from './icons';
import { l10n } from './l10n';
import type { Actions } from './state';
import { splitPath, visible } from './text';

type Children = Parameters<typeof h>[2][];

export function badge(n: number, label: string, extra = ''): HTMLElement {
  return h('span', { class: `badge${extra ? ` ${extra}` : ''}`, 'aria-label': label, title: label }, String(n));
}

export function heading(id: string, text: string, count?: number, countLabel?: string): HTMLElement {
  return h('h2', { id, class: 'section-title' }, text, count ? badge(count, countLabel ?? String(count)) : null);
}

export function section(cls: string, titleId: string, ...children: Children): HTMLElement {
  return h('section', { class: `section ${cls}`, 'aria-labelledby': titleId }, ...children);
}

export function button(
  text: string,
  opts: { key: string; secondary?: boolean; iconName?: IconName; label?: string; onClick: () => void; cls?: string },
): HTMLButtonElement {
  const b = h(
    'button',
    {
      type: 'button',
      class: `button${opts.secondary ? ' secondary' : ''}${opts.cls ? ` ${opts.cls}` : ''}`,
      'data-key': opts.key,
      'aria-label': opts.label,
    },
    opts.iconName ? icon(opts.iconName) : null,
    h('span', { class: 'button-text' }, text),
  );
  b.addEventListener('click', () => {
    if (b.getAttribute('aria-disabled') === 'true') return;
    opts.onClick();
  });
  return b;
}

export function iconButton(name: IconName, label: string, key: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'icon-button', 'aria-label': label, title: label, 'data-key': key }, icon(name));
  b.addEventListener('click', () => {
    if (b.getAttribute('aria-disabled') === 'true') return;
    onClick();
  });
  return b;
}

export function diffButton(path: string, rel: string, act: Actions): HTMLButtonElement {
  return iconButton('diff', l10n.t('Open diff: {0}', visible(rel || path)), `diff:${path}`, () => act.post({ type: 'openDiff', path }));
}

/** A relative path as VS Code shows it: the name, then its folder dimmed; full text in the tooltip. */
export function pathLabel(rel: string, path: string): HTMLElement {
  const shown = visible(rel || path);
  const { name, folder } = splitPath(shown);
  return h(
    'span',
    { class: 'path', title: path && path !== rel ? `${shown}\n${visible(path)}` : shown },
    h('span', { class: 'path-name' }, name),
    folder ? h('span', { class: 'path-folder' }, folder) : null,
  );
}

export function note(iconName: IconName, cls: string, ...children: Children): HTMLElement {
  return h('div', { class: `note ${cls}` }, icon(iconName, 'note-icon'), h('div', { class: 'note-body' }, ...children));
}

/** The display path for a path the model names elsewhere (uncommitted, files keeping edits). */
export function relOf(m: PreviewModel, p: string): string {
  for (const list of [m.files, m.blocked, m.warnings, m.dirty, m.notRestorable]) {
    for (const f of list) if (f.path === p || f.rel === p) return f.rel;
  }
  return p;
}

export function dayOf(time: string): Date {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? new Date() : new Date(ms);
}

/** Problem rows: the path, the reason in words, and an Open diff button when `diff` gives the actions to post it with. */
export function problemList(
  items: PreviewProblem[],
  labelledBy: string,
  words: (reason: string) => string,
  diff: Actions | null,
): HTMLElement {
  return h(
    'ul',
    { class: 'list problem-list', 'aria-labelledby': labelledBy },
    ...items.map((p) =>
      h(
        'li',
        { class: 'problem-row' },
        h('div', { class: 'problem-main' }, pathLabel(p.rel, p.path), diff ? diffButton(p.path, p.rel, diff) : null),
        h('div', { class: 'problem-reason' }, words(p.reason)),
        p.detail ? h('div', { class: 'problem-detail' }, p.detail) : null,
      ),
    ),
  );
}
