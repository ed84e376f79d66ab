import { createHash } from 'node:crypto';

/** The longest escaped key used as it is; longer keys are named by their hash (names stay under 255 bytes). */
const MAX_ESCAPED = 200;

/**
 * The file name of a store key: one name per key and one key per name, safe on
 * every file system, whatever the key holds (a server name a user typed, `../`,
 * NUL, any length).
 *
 * Lower-case letters, digits and `-` stay; every other UTF-16 unit becomes `_`
 * and four hex digits, so no name holds `/`, `\`, `.` or an upper-case letter
 * (two keys never meet on a case-insensitive file system) and a lone surrogate
 * stays distinct. The result starts with `k`. A key whose escape would be
 * longer than 200 characters is named `h` and its SHA-256 instead (distinct as
 * long as SHA-256 has no collision). Every name ends in `.json`; the store's
 * lock and temporary files add to a name, and no key's name equals one of them.
 */
export function keyFileName(key: string): string {
  let escaped = '';
  for (let i = 0; i < key.length && escaped.length <= MAX_ESCAPED; i++) {
    const unit = key.charCodeAt(i);
    const plain = (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) || unit === 0x2d;
    escaped += plain ? key[i] : `_${unit.toString(16).padStart(4, '0')}`;
  }
  if (escaped.length <= MAX_ESCAPED) return `k${escaped}.json`;
  return `h${createHash('sha256').update(key, 'utf16le').digest('hex')}.json`;
}
