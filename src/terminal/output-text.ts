import { StringDecoder } from 'node:string_decoder';

/**
 * A pane's output as text, for the few that want it as text (attached clients): decoded only while
 * someone listens. A character split between two chunks comes out whole. While nobody listens only
 * the unfinished end of the last chunk is kept, so that a listener who comes mid-stream starts at a
 * whole character.
 */
export class OutputText {
  private decoder: StringDecoder | null = null;
  /** Up to the last 3 bytes not decoded, when they may end inside a character. */
  private tail: Buffer | null = null;

  /** The text of `data` in stream order, or null when nobody `wants` it. */
  decode(data: Uint8Array, wanted: boolean): string | null {
    if (!wanted) {
      this.decoder = null;
      if (data.length > 0 && data[data.length - 1]! < 0x80) this.tail = null;
      else if (data.length > 0) {
        // The last 3 bytes of the stream, which a short chunk takes partly from the chunk before.
        const end = this.tail !== null && data.length < 3 ? Buffer.concat([this.tail, data]) : data;
        this.tail = Buffer.from(end.subarray(Math.max(0, end.length - 3)));
      }
      return null;
    }
    if (this.decoder === null) {
      this.decoder = new StringDecoder('utf8');
      // Whatever those bytes complete is decoded and dropped; an unfinished character stays in the decoder.
      if (this.tail !== null) this.decoder.write(this.tail);
      this.tail = null;
    }
    return this.decoder.write(data as Buffer);
  }
}
