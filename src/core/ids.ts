// Checkpoint and session ids. Letters and digits only: an id must never start with `-` (it would
// read as an option on a command line) nor need quoting in a shell.
import { customAlphabet } from 'nanoid';

export const newId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 12);
