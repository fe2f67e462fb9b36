import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandOverride, patternProblem } from '../../src/core/effects/overrides';

describe('effect override patterns are bounded (they run on the hook path)', () => {
  it('accepts ordinary patterns', () => {
    for (const ok of ['^git push', 'deploy\\.sh( --prod)?$', '^(npm|pnpm) publish', '[+*]+x', '^curl .*-X (POST|PUT)'])
      assert.equal(patternProblem(ok), null, ok);
  });
  it('refuses nested quantifiers, too-long and invalid patterns, saying why', () => {
    for (const bad of ['(a+)+$', '(a*)*b', '^(\\w+\\s?)*$', '(a|aa)+$', '((ab)*c)+', '(x+){2,}'])
      assert.match(patternProblem(bad) ?? '', /repeated group/, bad);
    assert.match(patternProblem('a'.repeat(201)) ?? '', /longer than 200/);
    assert.match(patternProblem('(unclosed') ?? '', /not a valid regular expression/);
  });
  it('a refused pattern matches nothing, so a ReDoS pattern never runs against an agent’s command', () => {
    // On a backtracking engine `(a+)+$` against 40 a's and a "!" takes ~2^40 steps: it must never be tried.
    const evil = 'a'.repeat(40) + '!';
    assert.equal(commandOverride(evil, [{ command: '(a+)+$', effect: 'none' }]), undefined);
    assert.equal(commandOverride('git push origin', [{ command: '^git push', effect: 'irreversible' }])?.effect, 'irreversible');
  });
});
