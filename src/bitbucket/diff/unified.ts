/**
 * Reading git's unified diff as Bitbucket serves it: split into files, cut at
 * a byte limit on a line boundary, one file picked out. Pure functions over
 * bytes already read, so every diff tool bounds its answer the same way.
 */

/** How much of a diff is read to find one file's section. */
export const PATH_SCAN_BYTES = 8_000_000;
/** Read past the cut to tell whether the next line starts a new file. */
export const LOOKAHEAD_BYTES = 1024;
/** The line that starts each file's section. */
const SECTION_START = "diff --git ";

/** One file's part of a diff, named by its new path (old path for a deletion). */
export interface DiffSection {
  file: string;
  /** The old path, when it differs (a move, a copy). */
  oldFile?: string;
  text: string;
}

/**
 * A diff held to a byte cap, as a tool returns it: whole, or cut at the cap
 * with the files it left out or cut short.
 */
export interface CappedDiff {
  diff: string;
  truncated: boolean;
  omittedFiles?: string[];
  /** False when the changes listing was longer than read, so more files were left out than named. */
  omittedFilesComplete?: false;
}

/** A diff path without its prefix: Bitbucket writes `src://` and `dst://`, git `a/` and `b/`. */
function stripPrefix(path: string): string | undefined {
  if (path === "/dev/null") return undefined;
  const match = /^(src:\/\/|dst:\/\/|a\/|b\/)/.exec(path);
  return match ? path.slice(match[0].length) : path;
}

/** Names a section from its header lines (those before the first hunk). */
function sectionNames(text: string): { file: string; oldFile?: string } {
  let from: string | undefined;
  let to: string | undefined;
  let header: [string | undefined, string | undefined] = [undefined, undefined];
  for (const line of text.split("\n")) {
    if (line.startsWith("@@")) break;
    if (line.startsWith(SECTION_START)) {
      const rest = line.slice(SECTION_START.length);
      const split = rest.lastIndexOf(rest.startsWith("src://") ? " dst://" : " b/");
      if (split > 0) {
        header = [stripPrefix(rest.slice(0, split)), stripPrefix(rest.slice(split + 1))];
      }
    } else if (line.startsWith("--- ")) from = stripPrefix(line.slice(4));
    else if (line.startsWith("+++ ")) to = stripPrefix(line.slice(4));
    else if (/^(rename|copy) from /.test(line)) from ??= line.replace(/^\w+ from /, "");
    else if (/^(rename|copy) to /.test(line)) to ??= line.replace(/^\w+ to /, "");
  }
  const oldFile = from ?? header[0];
  const file = to ?? header[1] ?? oldFile ?? "(unknown)";
  return oldFile === undefined || oldFile === file ? { file } : { file, oldFile };
}

/** Splits a git diff into its files; text before the first file header is dropped. */
export function splitDiff(diff: string): DiffSection[] {
  const starts: number[] = [];
  if (diff.startsWith(SECTION_START)) starts.push(0);
  for (
    let i = diff.indexOf("\n" + SECTION_START);
    i >= 0;
    i = diff.indexOf("\n" + SECTION_START, i + 1)
  ) {
    starts.push(i + 1);
  }
  return starts.map((from, n) => {
    const text = diff.slice(from, starts[n + 1] ?? diff.length);
    return { ...sectionNames(text), text };
  });
}

/** The length of the bytes up to the last line end within `max` (all of them when they fit). */
export function cutAtLine(bytes: Uint8Array, max: number): number {
  if (bytes.length <= max) return bytes.length;
  const end = bytes.subarray(0, max).lastIndexOf(0x0a);
  return end < 0 ? 0 : end + 1;
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * A whole diff read from the start (`complete` when the read reached its end),
 * cut at `max` bytes on a line boundary. When cut, `wholeFiles` names the
 * files shown whole, so the caller can name the rest from the changed paths.
 */
export function cutDiff(
  bytes: Uint8Array,
  complete: boolean,
  max: number,
): { diff: string; truncated: false } | { diff: string; truncated: true; wholeFiles: Set<string> } {
  const cut = cutAtLine(bytes, max);
  if (complete && cut === bytes.length) return { diff: decode(bytes), truncated: false };
  const shown = splitDiff(decode(bytes.subarray(0, cut)));
  const nextStartsFile = decode(bytes.subarray(cut, cut + SECTION_START.length)) === SECTION_START;
  const whole = nextStartsFile ? shown : shown.slice(0, -1);
  return {
    diff: shown.map((s) => s.text).join(""),
    truncated: true,
    wholeFiles: new Set(whole.map((s) => s.file)),
  };
}

/**
 * One file's sections (by new or old path) of a diff read from the start, cut
 * at `max` bytes; undefined when the bytes read hold no section for it.
 */
export function fileDiff(
  bytes: Uint8Array,
  complete: boolean,
  file: string,
  max: number,
): CappedDiff | undefined {
  const sections = splitDiff(decode(bytes));
  const hits = sections.filter((s) => s.file === file || s.oldFile === file);
  if (hits.length === 0) return undefined;
  const text = new TextEncoder().encode(hits.map((s) => s.text).join(""));
  const cut = cutAtLine(text, max);
  // A file whose section runs to the end of an unfinished read may go on beyond it.
  const cutShort = cut < text.length || (!complete && hits.at(-1) === sections.at(-1));
  return cutShort
    ? { diff: decode(text.subarray(0, cut)), truncated: true, omittedFiles: [file] }
    : { diff: decode(text), truncated: false };
}
