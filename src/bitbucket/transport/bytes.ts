/**
 * Byte chunks joined into one array: what every reader of a stream here
 * (stdin lines, request and answer bodies) and the multipart writer need, in
 * one place rather than a loop in each.
 */

/** `chunks` copied, in order, into one new array (`length`: their total, when the caller kept it). */
export function concatBytes(
  chunks: readonly Uint8Array[],
  length = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0),
): Uint8Array<ArrayBuffer> {
  const whole = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}
