// Checkpoint and session ids: 12 characters from letters and digits (71 bits), never starting
// with `-` (it would read as an option on a command line) and never needing quotes in a shell.
// crypto is loaded on first use (blobs.ts), off the hook's start-up path.
import { crypto } from './blobs';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function newId(): string {
  let id = '';
  while (id.length < 12) {
    // 248 = 4 × 62: bytes at or above it are dropped, so every character is equally likely.
    for (const b of crypto().randomBytes(16)) if (b < 248 && id.length < 12) id += ALPHABET[b % 62];
  }
  return id;
}
