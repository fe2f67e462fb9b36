// The user's effect overrides (store config `effects`): by tool name (exact, or a glob with `*`,
// matched against the name the agent shows) or by a regular expression tested against each simple
// command of a shell script. A bad pattern matches nothing; a glob never lists a read-only tool.
// Patterns run on the hook path against agent-written commands: bounded in length and refused when
// they could backtrack catastrophically (a quantified group that itself repeats, e.g. `(a+)+`).
import type { EffectOverride } from '../storeFiles/config';
import type { ToolKind } from './toolKind';

function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*') + '$');
}

/** The override for a tool, by its exact name or a glob. */
export function toolOverride(tool: string, kind: ToolKind, overrides: readonly EffectOverride[]): EffectOverride | undefined {
  for (const o of overrides) {
    if (!o.tool) continue;
    if (o.tool === tool) return o;
    // A glob never turns a read-only tool into a listed one (`*` → irreversible).
    if (o.tool.includes('*') && globToRegExp(o.tool).test(tool)) {
      if (kind.kind === 'read' && (o.effect === 'irreversible' || o.effect === 'compensatable')) continue;
      return o;
    }
  }
  return undefined;
}

export const MAX_PATTERN_LENGTH = 200;

/** Why a `command` pattern is not used (too long, does not compile, could backtrack for ever), or null. */
export function patternProblem(source: string): string | null {
  if (source.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(source);
  } catch (e) {
    return `not a valid regular expression (${(e as Error).message})`;
  }
  // A group holding a quantifier (or an alternation) that is itself quantified: exponential backtracking.
  const stack: { quantified: boolean; alt: boolean }[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === '(') stack.push({ quantified: false, alt: false });
    else if (c === '|' && top) top.alt = true;
    else if ((c === '+' || c === '*' || c === '{') && top) top.quantified = true;
    else if (c === ')') {
      const g = stack.pop();
      if (!g) continue;
      const next = source[i + 1];
      const repeats = next === '+' || next === '*' || next === '{';
      if (repeats && (g.quantified || g.alt)) return 'a repeated group that itself repeats (it could make every hook hang)';
      if (g.quantified && stack.length) stack[stack.length - 1]!.quantified = true;
    }
  }
  return null;
}

const regexCache = new Map<string, RegExp | null>();
/** The first override whose pattern matches a simple command of a shell script. */
export function commandOverride(text: string, overrides: readonly EffectOverride[]): EffectOverride | undefined {
  for (const o of overrides) {
    if (!o.command) continue;
    let re = regexCache.get(o.command);
    if (re === undefined) {
      // A bad pattern in the user's config matches nothing (the extension reports it when it writes config.json).
      re = patternProblem(o.command) === null ? new RegExp(o.command) : null;
      regexCache.set(o.command, re);
    }
    if (re && re.test(text)) return o;
  }
  return undefined;
}
