// Section (e): what to rewind (files / conversation / both) as a radio group with the model's
// default, each unavailable scope with its reason, and what the conversation fork does when one is offered.
import type { PreviewModel, Scope } from '../shared/messages';
import { h } from './dom';
import { icon } from './icons';
import type { Actions, Section, ShownState } from './state';
import { formatTime, hasConversation, oneLine, plural, sessionLabel, visible } from './text';
import { dayOf, heading, pathLabel, relOf, section } from './widgets';

const SCOPES: { scope: Scope; title: string; desc: (m: PreviewModel) => string }[] = [
  {
    scope: 'files',
    title: 'Files',
    desc: (m) => `Restore ${plural(m.files.length, 'file')} to this point. The conversation goes on as it is.`,
  },
  {
    scope: 'conversation',
    title: 'Conversation',
    desc: () => 'Fork the conversation before this point into a new session. Files stay as they are now.',
  },
  { scope: 'both', title: 'Both', desc: (m) => `Restore ${plural(m.files.length, 'file')} and fork the conversation.` },
];

export function renderScope(state: ShownState, act: Actions): Section {
  const m = state.model;
  const id = 'h-scope';
  let reasonShown = false;
  const options = SCOPES.map(({ scope, title, desc }) => {
    const available = m.scope.available.includes(scope);
    const reason = reasonShown
      ? 'Not available, for the same reason.'
      : `Not available: ${visible(m.scope.unavailableReason || 'this agent’s conversation cannot be forked here.')}`;
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
        h('span', { class: 'scope-title' }, title),
        h('span', { id: `${rid}-d`, class: 'scope-desc' }, available ? desc(m) : reason),
      ),
    );
  });
  const conv = m.conversation ? renderConversation(m) : null;
  const el = section(
    'scope',
    id,
    heading(id, 'What to rewind'),
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
    h('div', { class: 'group-header' }, icon('comment-discussion', 'group-icon'), h('h3', { id: 'h-conversation' }, 'What the fork does')),
    h(
      'p',
      null,
      'A new session starts from the conversation cut before the prompt',
      c.promptTime
        ? h('span', { class: 'dim', title: visible(c.promptTime) }, ` (${formatTime(c.promptTime, dayOf(m.target.time))})`)
        : null,
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
          h(
            'p',
            null,
            `With “Conversation” only, ${plural(keeping.length, 'file keeps', 'files keep')} edits made in the dropped turns, which the new session will not remember making:`,
          ),
          h('ul', { class: 'list plain-list' }, ...keeping.map((p) => h('li', { class: 'plain-row' }, pathLabel(relOf(m, p), p)))),
        )
      : null,
  );
}
