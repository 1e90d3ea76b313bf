/**
 * Whether a branch permission pattern applies to a ref, as Bitbucket matches
 * them (its "branch permission patterns", Ant-like): `?` is one character and
 * `*` any run of characters within a path segment, `**` any number of
 * segments; a pattern ending in `/` has `**` appended; and a pattern need only
 * match a suffix of the fully qualified ref (`refs/heads/...`, `refs/tags/...`),
 * whole segments at a time.
 */

/** One segment of a pattern as a regular expression over one segment of a ref. */
function segmentRegExp(segment: string): RegExp {
  const body = segment.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(
    /\?/g,
    "[^/]",
  );
  return new RegExp(`^${body}$`);
}

/** Whether pattern segments `pattern` match ref segments `ref` exactly (`**` spanning any number). */
function matchesAll(pattern: readonly string[], ref: readonly string[]): boolean {
  if (pattern.length === 0) return ref.length === 0;
  const [head, ...rest] = pattern;
  if (head === "**") {
    for (let skip = 0; skip <= ref.length; skip++) {
      if (matchesAll(rest, ref.slice(skip))) return true;
    }
    return false;
  }
  return ref.length > 0 && segmentRegExp(head!).test(ref[0]!) && matchesAll(rest, ref.slice(1));
}

/** True when the branch permission pattern `pattern` applies to the fully qualified ref `ref`. */
export function refPatternMatches(pattern: string, ref: string): boolean {
  const segments = (pattern.endsWith("/") ? `${pattern}**` : pattern).split("/");
  const parts = ref.split("/");
  for (let from = 0; from < parts.length; from++) {
    if (matchesAll(segments, parts.slice(from))) return true;
  }
  return false;
}
