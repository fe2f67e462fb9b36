// The user's effect overrides (store config `effects`): by tool name (exact, or a glob with `*`,
// matched against the name the agent shows) or by a regular expression tested against each simple
// command of a shell script. A bad pattern matches nothing; a glob never lists a read-only tool.
import type { EffectOverride } from '../config';
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

const regexCache = new Map<string, RegExp | null>();
/** The first override whose pattern matches a simple command of a shell script. */
export function commandOverride(text: string, overrides: readonly EffectOverride[]): EffectOverride | undefined {
  for (const o of overrides) {
    if (!o.command) continue;
    let re = regexCache.get(o.command);
    if (re === undefined) {
      try {
        re = new RegExp(o.command);
      } catch {
        re = null; // a bad pattern in the user's config matches nothing
      }
      regexCache.set(o.command, re);
    }
    if (re && re.test(text)) return o;
  }
  return undefined;
}
