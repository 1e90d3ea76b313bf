/**
 * Builds Bitbucket REST paths from untrusted values so that no argument can
 * change which endpoint is reached: each interpolated value is one
 * percent-encoded segment, and empty, `.` and `..` segments are refused.
 */

/** A value that spans several segments (a file path, a tag name with `/`): `/` is kept between them. */
export class MultiSegment {
  constructor(readonly value: string) {}
}

/** Marks a value as a multi-segment path (`src/main.ts`) rather than one segment. */
export function segments(value: string): MultiSegment {
  return new MultiSegment(value);
}

/** Thrown when a value would escape its segment; it never reaches the network. */
export class UnsafePathError extends Error {
  constructor(value: string) {
    super(`Cannot build request path: ${JSON.stringify(value)} is not a valid path segment`);
    this.name = "UnsafePathError";
  }
}

/** True when a segment is one that URL normalisation would drop or collapse. */
export function isUnsafeSegment(segment: string): boolean {
  return segment === "" || segment === "." || segment === "..";
}

function encodeSegment(segment: string): string {
  if (isUnsafeSegment(segment)) throw new UnsafePathError(segment);
  return encodeURIComponent(segment);
}

function encodeValue(value: string | number | MultiSegment): string {
  if (value instanceof MultiSegment) return value.value.split("/").map(encodeSegment).join("/");
  return encodeSegment(String(value));
}

/**
 * Tagged template for request paths: `` apiPath`/projects/${key}/repos/${slug}` ``.
 * The literal parts are trusted; every interpolation is encoded.
 */
export function apiPath(
  strings: TemplateStringsArray,
  ...values: (string | number | MultiSegment)[]
): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += encodeValue(value) + (strings[i + 1] ?? "");
  });
  return out;
}
