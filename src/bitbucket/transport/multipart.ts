/**
 * A `multipart/form-data` body whose fields are sent byte for byte. The
 * platform's `FormData` turns every line break of a text field into CRLF (the
 * HTML encoding rule), so a commit message sent through it would reach
 * Bitbucket, and the commit, with `\r\n` line endings. This encoder writes
 * each value's UTF-8 bytes as given, as `curl -F` does.
 */
import { concatBytes } from "./bytes.ts";

/** One field: its text, and for a file part the file name and media type it is sent with. */
export interface MultipartField {
  name: string;
  value: string;
  file?: { name: string; type: string };
}

/** An encoded body and the `Content-Type` (with its boundary) to send it with. */
export interface MultipartBody {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

const encoder = new TextEncoder();

/** A header parameter's value as the HTML rule escapes it: `"`, CR and LF percent-encoded. */
function quoted(value: string): string {
  return `"${value.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}"`;
}

/** A boundary none of `values` contains (a random one, drawn again on the rare clash). */
function boundaryFor(values: readonly string[]): string {
  for (;;) {
    const random = Array.from(
      crypto.getRandomValues(new Uint8Array(16)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    const boundary = `bitbucket-mcp-${random}`;
    if (!values.some((value) => value.includes(boundary))) return boundary;
  }
}

/** `fields`, in order, as one `multipart/form-data` body. */
export function multipartBody(fields: readonly MultipartField[]): MultipartBody {
  const boundary = boundaryFor(fields.map((f) => f.value));
  const pieces: Uint8Array[] = [];
  for (const { name, value, file } of fields) {
    const disposition = `form-data; name=${quoted(name)}` +
      (file ? `; filename=${quoted(file.name)}\r\nContent-Type: ${file.type}` : "");
    pieces.push(encoder.encode(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    pieces.push(encoder.encode(value));
    pieces.push(encoder.encode("\r\n"));
  }
  pieces.push(encoder.encode(`--${boundary}--\r\n`));
  return { bytes: concatBytes(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}
