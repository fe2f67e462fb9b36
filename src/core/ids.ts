// Checkpoint and session ids. Letters and digits only: an id must never start with `-` (it would
// read as an option on a command line) nor need quoting in a shell. nanoid (and the crypto module
// it needs) is loaded on first use, off the hook's start-up path.
import type * as Nanoid from 'nanoid';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
let gen: (() => string) | undefined;

export function newId(): string {
  gen ??= (require('nanoid') as typeof Nanoid).customAlphabet(ALPHABET, 12);
  return gen();
}
