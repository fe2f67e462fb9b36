// Section (e): what to rewind (files / conversation / both) as a radio group with the model's
// default, each unavailable scope with its reason, and what the conversation fork does when one is offered.
import type { PreviewModel, Scope } from '../shared/messages';
import { h } from './dom';
import { icon } from './icons';
import type { Actions, Section, ShownState } from './state';
import { countWords } from '../shared/l10n';
import { l10n } from './l10n';
import { fileCount, formatTime, hasConversation, oneLine, sessionLabel, shortSession, visible } from './text';
import { dayOf, heading, pathLabel, relOf, section } from './widgets';

const SCOPES: { scope: Scope; title: () => string; desc: (m: PreviewModel) => string }[] = [
  {
    scope: 'files',
    title: () => l10n.t('Files'),
    desc: (m) => l10n.t('Restore {0} to this point. The conversation goes on as it is.', fileCount(m.files.length)),
  },
  {
    scope: 'conversation',
    title: () => l10n.t('Conversation'),
    desc: () => l10n.t('Fork the conversation before this point into a new session. Files stay as they are now.'),
  },
  { scope: 'both', title: () => l10n.t('Both'), desc: (m) => l10n.t('Restore {0} and fork the conversation.', fileCount(m.files.length)) },
];

export function renderScope(state: ShownState, act: Actions): Section {
  const m = state.model;
  const id = 'h-scope';
  let reasonShown = false;
  const options = SCOPES.map(({ scope, title, desc }) => {
    const available = m.scope.available.includes(scope);
    const reason = reasonShown
      ? l10n.t('Not available, for the same reason.')
      : l10n.t('Not available: {0}', visible(m.scope.unavailableReason || l10n.t('this agent’s conversation cannot be forked here.')));
    if (!available) reasonShown = true;
    const rid = `scope-${scope}`;
    const radio = h('input', {
      type: 'radio',
      name: 'scope',
      id: rid,
      value: scope,
      class: 'radio',
      'data-key': rid,
      checked: state.choices.scope === scope,
      disabled: !available,
      'aria-describedby': `${rid}-d`,
    });
    radio.addEventListener('change', () => {
      if (!radio.checked) return;
      state.choices.scope = scope;
      act.changed();
    });
    return h(
      'div',
      { class: `scope-option${available ? '' : ' unavailable'}` },
      radio,
      h(
        'label',
        { for: rid, class: 'scope-label' },
        h('span', { class: 'scope-title' }, title()),
        h('span', { id: `${rid}-d`, class: 'scope-desc' }, available ? desc(m) : reason),
      ),
    );
  });
  const conv = m.conversation ? renderConversation(m) : null;
  const el = section(
    'scope',
    id,
    heading(id, l10n.t('What to rewind')),
    h('fieldset', { class: 'scope-group', 'aria-labelledby': id }, ...options),
    conv,
  );
  return {
    el,
    update(s) {
      if (!conv) return;
      const chosen = s.choices.scope;
      conv.hidden = !(chosen !== null && hasConversation(chosen));
      for (const e of conv.querySelectorAll<HTMLElement>('[data-only="conversation"]')) e.hidden = chosen !== 'conversation';
    },
  };
}

function renderConversation(m: PreviewModel): HTMLElement {
  const c = m.conversation!;
  const prompt = oneLine(c.promptText);
  const keeping = c.filesKeepingEdits ?? [];
  return h(
    'div',
    { class: 'conversation callout info', hidden: true },
    h(
      'div',
      { class: 'group-header' },
      icon('comment-discussion', 'group-icon'),
      h('h3', { id: 'h-conversation' }, l10n.t('What the fork does')),
    ),
    h(
      'p',
      null,
      l10n.t('A new session starts from the conversation cut before the prompt'),
      c.promptTime
        ? h('span', { class: 'dim', title: visible(c.promptTime) }, ` (${formatTime(c.promptTime, dayOf(m.target.time))})`)
        : null,
      ':',
    ),
    h('blockquote', { class: 'prompt', title: prompt }, prompt || l10n.t('(empty prompt)')),
    h(
      'p',
      null,
      countWords(
        c.kept,
        l10n.t('It keeps 1 prompt and drops {0}. The original session (', c.dropped),
        l10n.t('It keeps {0} prompts and drops {1}. The original session (', c.kept, c.dropped),
      ),
      // The session's short id alone: "Session" is already said before it.
      h('span', { title: visible(c.session) }, c.session ? shortSession(c.session) : sessionLabel(c.session)),
      l10n.t(') is not changed; you resume the new one afterwards.'),
    ),
    keeping.length
      ? h(
          'div',
          { class: 'keeping', 'data-only': 'conversation' },
          h(
            'p',
            null,
            countWords(
              keeping.length,
              l10n.t(
                'With “Conversation” only, 1 file keeps edits made in the dropped turns, which the new session will not remember making:',
              ),
              l10n.t(
                'With “Conversation” only, {0} files keep edits made in the dropped turns, which the new session will not remember making:',
                keeping.length,
              ),
            ),
          ),
          h('ul', { class: 'list plain-list' }, ...keeping.map((p) => h('li', { class: 'plain-row' }, pathLabel(relOf(m, p), p)))),
        )
      : null,
  );
}
