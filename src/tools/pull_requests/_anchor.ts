/**
 * Where a new pull request comment sits, as real servers take it. A line is
 * numbered on the new side (`TO`), a removed line on the old side (`FROM`):
 * context lines too, as the clients verified against real servers send them.
 * A range is the anchor of its last line plus `multilineMarker` (its first
 * line) and `multilineSpan` (the lines it covers on that side): a 9.3+ server
 * given the marker alone stores a one-line anchor, and a multi-line suggestion
 * then replaces only its first line (see fixtures/README.md).
 */

/** The kinds of diff line a comment can sit on. */
export const LINE_TYPES = ["ADDED", "REMOVED", "CONTEXT"] as const;

/** A kind of diff line. */
export type LineType = typeof LINE_TYPES[number];

/** What the caller asked for: a file, a line or a range of it. */
export interface AnchorRequest {
  path: string;
  srcPath?: string;
  line?: number;
  lineType?: LineType;
  startLine?: number;
  startLineType?: LineType;
}

/** A line anchor as Bitbucket takes it. */
export interface LineAnchor {
  path: string;
  srcPath?: string;
  diffType?: "EFFECTIVE";
  line?: number;
  lineType?: LineType;
  fileType?: "FROM" | "TO";
  multilineMarker?: { startLine: number; startLineType: LineType };
  multilineSpan?:
    | { srcSpanStart: number; srcSpanEnd: number }
    | { dstSpanStart: number; dstSpanEnd: number };
}

/** The anchor, or why it cannot be one (a range across the two sides). */
export type Anchored = { anchor: LineAnchor; range: boolean } | { refused: string };

/**
 * The anchor for `request`: a reversed range is turned round, a range of one
 * line is that line, and the side is the last line's (`FROM` when it is a
 * removed line, else `TO`), which the first line must be on too.
 */
export function anchorFor(request: AnchorRequest): Anchored {
  const { path, srcPath, line } = request;
  if (line === undefined) return { anchor: { path, srcPath }, range: false };
  let end = { line, type: request.lineType ?? "ADDED" };
  let start = request.startLine === undefined
    ? undefined
    : { line: request.startLine, type: request.startLineType ?? end.type };
  if (start !== undefined && start.line > end.line) [start, end] = [end, start];
  if (start !== undefined && start.line === end.line && start.type === end.type) start = undefined;
  const fileType = end.type === "REMOVED" ? "FROM" : "TO";
  const single: LineAnchor = {
    path,
    srcPath,
    diffType: "EFFECTIVE",
    line: end.line,
    lineType: end.type,
    fileType,
  };
  if (start === undefined) return { anchor: single, range: false };
  if ((fileType === "FROM") !== (start.type === "REMOVED")) {
    return {
      refused: fileType === "FROM"
        ? "a range ending on a removed line is on the old side, so it must start on a removed line too"
        : "a range ending on an added or context line is on the new side, so it cannot start on a removed line",
    };
  }
  const multilineSpan = fileType === "FROM"
    ? { srcSpanStart: start.line, srcSpanEnd: end.line }
    : { dstSpanStart: start.line, dstSpanEnd: end.line };
  return {
    anchor: {
      ...single,
      multilineMarker: { startLine: start.line, startLineType: start.type },
      multilineSpan,
    },
    range: true,
  };
}
