import { CorralError } from '../../protocol/errors.ts';
import { TerminalError } from '../../terminal/errors.ts';
import { encodeKeys } from '../../terminal/keys.ts';

/** Named keys to bytes; an unknown name travels as `invalid_key`. */
export function keyBytes(keys: string[]): string {
  try {
    return encodeKeys(keys);
  } catch (error) {
    if (error instanceof TerminalError && error.code === 'invalid_key') throw new CorralError('invalid_key', error.message);
    throw error;
  }
}
