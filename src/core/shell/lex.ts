// The shell command-line lexer: words (quotes, escapes and `$'…'` resolved), operators, redirections
// and heredoc bodies, in sh or PowerShell quoting. Command sources nested in a word (`$(…)`,
// backticks, `<(…)`) are kept as text for the caller to parse on their own. Pure; knows nothing of
// what commands do (effects/ classifies them).

export type Dialect = 'sh' | 'powershell';

export interface Token {
  kind: 'word' | 'op' | 'redir';
  value: string;
  start: number;
  end: number;
  /** Command sources nested in a word (`$(…)`, backticks, `<(…)`), parsed on their own. */
  subs?: string[];
  /** For `<<`: the heredoc body (filled when its lines are read). */
  heredoc?: { body: string };
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r';
}

/** Reads a balanced `(…)` starting after the opening paren; returns the inner text and the index after `)`. */
function readBalanced(src: string, i: number, open = '(', close = ')'): { inner: string; end: number } {
  let depth = 1;
  const start = i;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      i = j < 0 ? src.length : j + 1;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return { inner: src.slice(start, i), end: i + 1 };
    i++;
  }
  return { inner: src.slice(start), end: src.length };
}

/** The lexer's state while it reads one command line: the tokens so far and the word being built. */
class Lexer {
  readonly tokens: Token[] = [];
  readonly esc: string;
  readonly n: number;
  i = 0;
  word = '';
  has = false;
  wordStart = 0;
  subs: string[] = [];
  readonly pendingHeredocs: { delim: string; strip: boolean; token: Token }[] = [];

  constructor(
    readonly src: string,
    readonly dialect: Dialect,
  ) {
    this.esc = dialect === 'powershell' ? '`' : '\\';
    this.n = src.length;
  }

  /** Ends the word being built (if any) at `end`. */
  flush(end: number): void {
    if (this.has || this.word)
      this.tokens.push({ kind: 'word', value: this.word, start: this.wordStart, end, ...(this.subs.length ? { subs: this.subs } : {}) });
    this.word = '';
    this.has = false;
    this.subs = [];
  }

  /** A word starts (or goes on) at `i`. */
  begin(i: number): void {
    if (!this.has && !this.word) this.wordStart = i;
    this.has = true;
  }

  op(value: string, length: number): void {
    this.flush(this.i);
    this.tokens.push({ kind: 'op', value, start: this.i, end: this.i + length });
    this.i += length;
  }

  /** A nested command source `(…)` starting at `from`: kept whole in the word, its inner text parsed on its own. */
  sub(from: number, prefix: string): void {
    const b = readBalanced(this.src, from);
    this.subs.push(b.inner);
    this.word += `${prefix}(${b.inner})`;
    this.i = b.end;
  }

  /** A backtick command source starting at `i`. */
  backtick(): void {
    const { src, n } = this;
    let j = this.i + 1;
    while (j < n && src[j] !== '`') j += src[j] === '\\' ? 2 : 1;
    this.subs.push(src.slice(this.i + 1, j));
    this.word += src.slice(this.i, j + 1);
    this.i = j + 1;
  }
}

/** One construct of the command line: reads it at `lx.i` and returns true, or returns false (not this one). */
type Step = (lx: Lexer, c: string) => boolean;

const space: Step = (lx, c) => {
  if (!isSpace(c)) return false;
  lx.flush(lx.i);
  lx.i++;
  return true;
};

const lineContinuation: Step = (lx, c) => {
  if (c !== lx.esc || lx.src[lx.i + 1] !== '\n') return false;
  lx.i += 2;
  return true;
};

/** A newline ends the command; the bodies of heredocs opened on its line follow it. */
const newline: Step = (lx, c) => {
  if (c !== '\n') return false;
  lx.op('\n', 1);
  const { src, n } = lx;
  for (const h of lx.pendingHeredocs.splice(0)) {
    const lines: string[] = [];
    while (lx.i < n) {
      let e = src.indexOf('\n', lx.i);
      if (e < 0) e = n;
      let line = src.slice(lx.i, e);
      lx.i = Math.min(n, e + 1);
      if (h.strip) line = line.replace(/^\t+/, '');
      if (line.replace(/\r$/, '') === h.delim) break;
      lines.push(line);
    }
    h.token.heredoc = { body: lines.join('\n') };
  }
  return true;
};

const comment: Step = (lx, c) => {
  if (c !== '#' || lx.has || lx.word) return false;
  while (lx.i < lx.n && lx.src[lx.i] !== '\n') lx.i++;
  return true;
};

const escape: Step = (lx, c) => {
  if (c !== lx.esc) return false;
  lx.begin(lx.i);
  if (lx.i + 1 < lx.n) lx.word += lx.src[lx.i + 1];
  lx.i += 2;
  return true;
};

/** `'…'`: literal in sh; PowerShell doubles a quote inside. */
const singleQuote: Step = (lx, c) => {
  if (c !== "'") return false;
  const { src, n } = lx;
  lx.begin(lx.i);
  if (lx.dialect === 'powershell') {
    lx.i++;
    while (lx.i < n) {
      if (src[lx.i] === "'" && src[lx.i + 1] === "'") {
        lx.word += "'";
        lx.i += 2;
      } else if (src[lx.i] === "'") break;
      else lx.word += src[lx.i++];
    }
    lx.i++;
    return true;
  }
  const j = src.indexOf("'", lx.i + 1);
  lx.word += src.slice(lx.i + 1, j < 0 ? n : j);
  lx.i = j < 0 ? n : j + 1;
  return true;
};

/** `$'…'`: sh's quotes with backslash escapes. */
const ansiCQuote: Step = (lx, c) => {
  if (c !== '$' || lx.src[lx.i + 1] !== "'" || lx.dialect !== 'sh') return false;
  const { src, n } = lx;
  lx.begin(lx.i);
  lx.i += 2;
  while (lx.i < n && src[lx.i] !== "'") {
    if (src[lx.i] === '\\' && lx.i + 1 < n) {
      const e = src[lx.i + 1]!;
      lx.word += e === 'n' ? '\n' : e === 't' ? '\t' : e;
      lx.i += 2;
    } else lx.word += src[lx.i++];
  }
  lx.i++;
  return true;
};

/** `"…"`: escapes, and command sources inside. */
const doubleQuote: Step = (lx, c) => {
  if (c !== '"') return false;
  const { src, n, esc, dialect } = lx;
  lx.begin(lx.i);
  lx.i++;
  while (lx.i < n && src[lx.i] !== '"') {
    const d = src[lx.i]!;
    if (d === esc && lx.i + 1 < n) {
      const e = src[lx.i + 1]!;
      if (dialect === 'powershell' || '$`"\\\n'.includes(e)) lx.word += e === '\n' ? '' : e;
      else lx.word += d + e;
      lx.i += 2;
    } else if (d === '$' && src[lx.i + 1] === '(') lx.sub(lx.i + 2, '$');
    else if (d === '`' && dialect === 'sh') lx.backtick();
    else lx.word += src[lx.i++];
  }
  lx.i++;
  return true;
};

/** `$(…)`, and sh's arithmetic `$((…))`, which holds no command. */
const dollarParen: Step = (lx, c) => {
  if (c !== '$' || lx.src[lx.i + 1] !== '(') return false;
  lx.begin(lx.i);
  if (lx.src[lx.i + 2] === '(' && lx.dialect === 'sh') {
    const b = readBalanced(lx.src, lx.i + 3);
    const end = lx.src[b.end] === ')' ? b.end + 1 : b.end;
    lx.word += lx.src.slice(lx.i, end);
    lx.i = end;
    return true;
  }
  lx.sub(lx.i + 2, '$');
  return true;
};

const dollarBrace: Step = (lx, c) => {
  if (c !== '$' || lx.src[lx.i + 1] !== '{') return false;
  lx.begin(lx.i);
  const b = readBalanced(lx.src, lx.i + 2, '{', '}');
  lx.word += lx.src.slice(lx.i, b.end);
  lx.i = b.end;
  return true;
};

const backtick: Step = (lx, c) => {
  if (c !== '`' || lx.dialect !== 'sh') return false;
  lx.begin(lx.i);
  lx.backtick();
  return true;
};

/** sh's process substitution `<(…)` / `>(…)`. */
const processSub: Step = (lx, c) => {
  if ((c !== '<' && c !== '>') || lx.src[lx.i + 1] !== '(' || lx.dialect !== 'sh') return false;
  lx.begin(lx.i);
  lx.sub(lx.i + 2, c);
  return true;
};

/** A heredoc's delimiter after `<<`: quotes and backslashes removed. */
function heredocDelimiter(lx: Lexer): string {
  const { src, n } = lx;
  while (lx.i < n && isSpace(src[lx.i]!)) lx.i++;
  let delim = '';
  while (lx.i < n && !isSpace(src[lx.i]!) && !'\n;|&)'.includes(src[lx.i]!)) {
    const d = src[lx.i]!;
    if (d === "'" || d === '"') {
      const j = src.indexOf(d, lx.i + 1);
      delim += src.slice(lx.i + 1, j < 0 ? n : j);
      lx.i = j < 0 ? n : j + 1;
    } else if (d === '\\') {
      delim += src[lx.i + 1] ?? '';
      lx.i += 2;
    } else delim += src[lx.i++];
  }
  return delim;
}

const redirection: Step = (lx, c) => {
  if (!(c === '<' || c === '>' || (c === '&' && lx.src[lx.i + 1] === '>'))) return false;
  // A word of digits right before is a file descriptor, not an argument.
  if (/^\d+$/.test(lx.word) && lx.has) {
    lx.word = '';
    lx.has = false;
    lx.subs = [];
  } else lx.flush(lx.i);
  const m = /^(&>>|&>|>>|>\||>&|<<<|<<-|<<|<&|<>|>|<)/.exec(lx.src.slice(lx.i, lx.i + 3))!;
  const op = m[1]!;
  const start = lx.i;
  lx.i += op.length;
  if ((op === '>&' || op === '<&') && /^[\d-]/.test(lx.src[lx.i] ?? '')) {
    while (lx.i < lx.n && /[\d-]/.test(lx.src[lx.i]!)) lx.i++; // 2>&1: a duplication, no target
    return true;
  }
  const tok: Token = { kind: 'redir', value: op, start, end: lx.i };
  lx.tokens.push(tok);
  if (op === '<<' || op === '<<-') {
    const delim = heredocDelimiter(lx);
    tok.heredoc = { body: '' };
    lx.pendingHeredocs.push({ delim, strip: op === '<<-', token: tok });
  }
  return true;
};

/** Two-character operators, as the parser knows them (`|&` is a pipe, `;;` a separator). */
const TWO_CHAR_OPS: Record<string, string> = { '&&': '&&', '||': '||', ';;': ';', '|&': '|' };

const operator: Step = (lx, c) => {
  const two = TWO_CHAR_OPS[lx.src.slice(lx.i, lx.i + 2)];
  if (two) lx.op(two, 2);
  else if (';|&()'.includes(c)) lx.op(c, 1);
  else return false;
  return true;
};

/** `{ …; }` groups: the braces are reserved words, dropped by the parser. */
const groupBrace: Step = (lx, c) => {
  const next = lx.src[lx.i + 1] ?? ' ';
  if (!((c === '{' || c === '}') && !lx.has && !lx.word && (isSpace(next) || next === '\n' || next === ';' || c === '}'))) return false;
  lx.begin(lx.i);
  lx.word += c;
  lx.i++;
  return true;
};

/** Every construct, in the order they are tried at each character; a character none takes is part of a word. */
const STEPS: Step[] = [
  space,
  lineContinuation,
  newline,
  comment,
  escape,
  singleQuote,
  ansiCQuote,
  doubleQuote,
  dollarParen,
  dollarBrace,
  backtick,
  processSub,
  redirection,
  operator,
  groupBrace,
];

export function lex(src: string, dialect: Dialect = 'sh'): Token[] {
  const lx = new Lexer(src, dialect);
  while (lx.i < lx.n) {
    const c = src[lx.i]!;
    if (STEPS.some((step) => step(lx, c))) continue;
    lx.begin(lx.i);
    lx.word += c;
    lx.i++;
  }
  lx.flush(lx.n);
  // A heredoc never closed (no newline after its command): its body is empty.
  return lx.tokens;
}
