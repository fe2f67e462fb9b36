// What the OpenAI wires share: the text of a message's content (a string, or parts with `text`).
export const textOf = (content) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('\n')
      : '';
