/**
 * Reading response bodies without trusting their size: bytes are taken as
 * they arrive and reading stops at a cap, so a huge or endless body costs at
 * most the cap in memory.
 */
import { concatBytes } from "./bytes.ts";

/** The default cap on a response body: 8 MiB (a client may set another). */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** At most this much of an error answer is read: enough for any of Bitbucket's error bodies. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** What {@link readAtMost} read. */
export interface ReadBody {
  bytes: Uint8Array;
  /** False when the body went on beyond the bytes read (the rest was never downloaded). */
  complete: boolean;
}

/**
 * Reads at most `maxBytes` of a body, then cancels the rest. Errors of the
 * stream (a dropped connection, an abort) are thrown as they come.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<ReadBody> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  let complete = true;
  const reader = body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - length;
    if (value.length > room) {
      chunks.push(value.subarray(0, room));
      length += room;
      complete = false;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    length += value.length;
  }
  return { bytes: concatBytes(chunks, length), complete };
}

/** The declared length of a body (`Content-Length`), when there is a valid one. */
export function declaredLength(headers: Headers): number | undefined {
  const value = headers.get("content-length");
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** True when a body is an HTML page (a login, SSO or proxy page) rather than Bitbucket's JSON. */
export function isHtml(contentType: string, text: string): boolean {
  return contentType.includes("text/html") || /^\s*<(!doctype|html)/i.test(text);
}
