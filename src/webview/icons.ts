// Icons by codicon name. When the page loaded codicon.css (link[data-codicons]), an icon
// is the usual `<span class="codicon codicon-NAME">`; until then it is a small line drawing of our
// own in the same 16×16 grid, stroked in currentColor so it follows the theme like a codicon does.
// Icons are decoration: they are aria-hidden, and every meaning they carry is also written in text.

const SVG = 'http://www.w3.org/2000/svg';

// Our own drawings (not codicon outlines), one list of path data per icon.
const PATHS = {
  discard: ['M3.2 5.2A5.2 5.2 0 1 1 2.8 9', 'M2.6 2.4v3h3'],
  trash: ['M2.5 4.5h11', 'M6 4.5V2.8h4v1.7', 'M4 4.5l.8 9h6.4l.8-9', 'M6.7 7v4.5', 'M9.3 7v4.5'],
  'new-file': ['M9.5 1.5H3.5v13h9v-10z', 'M9.5 1.5v3h3', 'M8 7v5', 'M5.5 9.5h5'],
  diff: ['M1.5 2.5h5.5v11H1.5z', 'M9 2.5h5.5v11H9z', 'M3 6h2.5', 'M4.25 4.75v2.5', 'M10.5 6h2.5', 'M3 10h2.5', 'M10.5 10h2.5'],
  warning: ['M8 1.8l6.6 11.7H1.4z', 'M8 6v3.6', 'M8 11.6v.1'],
  info: ['M8 1.7a6.3 6.3 0 1 0 0 12.6A6.3 6.3 0 1 0 8 1.7z', 'M8 7.2v4.3', 'M8 4.7v.1'],
  error: ['M8 1.7a6.3 6.3 0 1 0 0 12.6A6.3 6.3 0 1 0 8 1.7z', 'M5.6 5.6l4.8 4.8', 'M10.4 5.6l-4.8 4.8'],
  question: ['M8 1.7a6.3 6.3 0 1 0 0 12.6A6.3 6.3 0 1 0 8 1.7z', 'M6.1 6.2a1.9 1.9 0 1 1 2.7 1.7c-.6.3-.8.7-.8 1.3v.4', 'M8 11.4v.1'],
  pass: ['M8 1.7a6.3 6.3 0 1 0 0 12.6A6.3 6.3 0 1 0 8 1.7z', 'M5.2 8.2l2 2 3.7-4'],
  'circle-slash': ['M8 1.7a6.3 6.3 0 1 0 0 12.6A6.3 6.3 0 1 0 8 1.7z', 'M3.6 12.4l8.8-8.8'],
  terminal: ['M1.5 2.5h13v11h-13z', 'M4 6l2 2-2 2', 'M7.5 10.5h4'],
  save: ['M2.5 2.5h9l2 2v9h-11z', 'M5 2.5v3.2h5V2.5', 'M5 13.5V9.5h6v4'],
  refresh: ['M12.8 5.2A5.2 5.2 0 1 0 13.2 9', 'M13.4 2.4v3h-3'],
  'comment-discussion': ['M1.5 2.5h9v6.5H5.5L3 11V9H1.5z', 'M12.5 5.5h2V12H13v2l-2.5-2H7v-1'],
  account: ['M8 2a2.8 2.8 0 1 0 0 5.6A2.8 2.8 0 1 0 8 2z', 'M2.8 14c.4-2.8 2.6-4.6 5.2-4.6s4.8 1.8 5.2 4.6'],
  loading: ['M8 1.8A6.2 6.2 0 1 1 1.8 8'],
  history: ['M2.4 8A5.6 5.6 0 1 0 4 4', 'M2.2 1.8v2.6h2.6', 'M8 4.8V8l2.2 1.6'],
  close: ['M4 4l8 8', 'M12 4l-8 8'],
  file: ['M9.5 1.5H3.5v13h9v-10z', 'M9.5 1.5v3h3'],
  'git-commit': ['M8 5.3a2.7 2.7 0 1 0 0 5.4A2.7 2.7 0 1 0 8 5.3z', 'M1 8h4.3', 'M10.7 8H15'],
  'chevron-right': ['M6 3.5l4.5 4.5L6 12.5'],
  'split-horizontal': ['M1.5 2.5h13v11h-13z', 'M8 2.5v11'],
} satisfies Record<string, string[]>;

export type IconName = keyof typeof PATHS;

let fontLoaded: boolean | undefined;

/** Whether codicon.css was given and loaded: its rules give `.codicon-add::before` a glyph. */
function useFont(): boolean {
  if (fontLoaded !== undefined) return fontLoaded;
  fontLoaded = false;
  if (!document.querySelector('link[data-codicons]') || !document.body) return fontLoaded;
  const probe = document.createElement('span');
  probe.className = 'codicon codicon-add';
  document.body.appendChild(probe);
  const content = getComputedStyle(probe, '::before').content;
  probe.remove();
  fontLoaded = !!content && content !== 'none' && content !== 'normal' && content !== '""';
  return fontLoaded;
}

export function icon(name: IconName, extra = ''): Element {
  const cls = `icon icon-${name}${name === 'loading' ? ' spin' : ''}${extra ? ` ${extra}` : ''}`;
  if (useFont()) {
    const span = document.createElement('span');
    span.className = `codicon codicon-${name}${name === 'loading' ? ' codicon-modifier-spin' : ''} ${cls}`;
    span.setAttribute('aria-hidden', 'true');
    return span;
  }
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', cls);
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '1.2');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  for (const d of PATHS[name] as string[]) {
    const p = document.createElementNS(SVG, 'path');
    p.setAttribute('d', d);
    svg.appendChild(p);
  }
  return svg;
}
