// Compensations: the text the preview offers to run so an irreversible-looking call is offset
// (`git reset --soft <HEAD before the commit>`, `npm uninstall -g x`). Git needs are completed with
// the HEAD looked up right before the call runs (the recorder does the look-up; this stays pure).
import { quoteArg } from '../shell/quote';
import type { HeadInfo } from '../git/repo';
import type { Classification } from './classifyCall';

/**
 * The compensation text of a classified call, with the HEADs looked up now (right before the call
 * runs). Per repository only the earliest HEAD matters: resetting to it undoes every later commit.
 * Units are undone in reverse order of execution.
 */
export function completeCompensation(c: Classification, lookup: (dir: string, globals: string[]) => HeadInfo | null): string | undefined {
  if (!c.units?.length) return c.compensation;
  const texts: string[] = [];
  const seenReset = new Set<string>();
  const heads = new Map<string, HeadInfo | null>();
  for (const u of c.units) {
    if ('text' in u) {
      texts.push(u.text);
      continue;
    }
    const g = u.git;
    const key = `${g.dir}\0${g.globals.join('\0')}`;
    if (!heads.has(key)) heads.set(key, lookup(g.dir, g.globals));
    const h = heads.get(key);
    const git = `git -C ${quoteArg(g.dir)}${g.globals.map((x) => ' ' + quoteArg(x)).join('')}`;
    if (g.mode === 'soft' || g.mode === 'mixed') {
      if (seenReset.has(key)) continue;
      seenReset.add(key);
      if (h?.sha) texts.push(`${git} reset ${g.mode === 'soft' ? '--soft' : '--mixed'} ${h.sha}`);
      else if (g.mode === 'soft' && h) texts.push(`${git} update-ref -d HEAD`); // the first commit: un-commit, keep the changes staged
    } else if (h) {
      const back = h.branch ? `${git} switch ${quoteArg(h.branch)}` : h.sha ? `${git} checkout --detach ${h.sha}` : null;
      if (!back) continue;
      texts.push(g.mode === 'switch-new' && g.branch ? `${back} && ${git} branch -D ${quoteArg(g.branch)}` : back);
    }
  }
  if (c.compensation) texts.push(c.compensation);
  return texts.length ? texts.reverse().join(' && ') : undefined;
}
