/**
 * A new pull request comment as a real 9.3+ Data Center server stores it,
 * for the fixture's comment-posting routes: the posted text, state, severity,
 * parent and anchor on a recorded comment. Like the real server, it keeps a
 * range only when the anchor carries both `multilineMarker` and a
 * `multilineSpan` on the anchor's side; otherwise it silently keeps the last
 * line alone (b1ff/atlassian-dc-mcp pull request #43, verified on 9.3.2). And,
 * as reported of Data Center (b1ff/atlassian-dc-mcp commit 0b5e829), a draft
 * that is neither on a file nor a reply is published at once.
 */
import { readFixture, type SeenRequest } from "../fixture_bitbucket.ts";

interface PostedAnchor {
  path?: unknown;
  srcPath?: unknown;
  line?: unknown;
  lineType?: unknown;
  fileType?: unknown;
  diffType?: unknown;
  multilineMarker?: unknown;
  multilineSpan?: Record<string, unknown>;
}

interface Posted {
  text?: unknown;
  state?: unknown;
  severity?: unknown;
  parent?: { id?: unknown };
  anchor?: PostedAnchor;
}

/** The hashes a stored anchor names: the pull request's head and target (fixtures/pull_requests/pr-42.json). */
const HASHES = {
  fromHash: "8d51122def5632836d1cb1026e879069e10a1e13",
  toHash: "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f",
};

/** The anchor as stored: a range kept only with a span on its own side. */
function storedAnchor(anchor: PostedAnchor): Record<string, unknown> {
  const { multilineMarker, multilineSpan, ...line } = anchor;
  const side = anchor.fileType === "FROM" ? "src" : "dst";
  const spanned = typeof multilineSpan?.[`${side}SpanStart`] === "number" &&
    typeof multilineSpan?.[`${side}SpanEnd`] === "number";
  const range = multilineMarker !== undefined && spanned ? { multilineMarker, multilineSpan } : {};
  return {
    ...HASHES,
    diffType: "EFFECTIVE",
    ...line,
    ...(line.line === undefined ? {} : { orphaned: false }),
    ...range,
  };
}

/**
 * A `respond` for `POST …/comments`: the comment in fixture `base` (its id,
 * author and dates) carrying what was posted, stored as a real server would.
 */
export function storedComment(base: string): (seen: SeenRequest) => unknown {
  return (seen) => {
    const posted = (seen.body ?? {}) as Posted;
    const comment = JSON.parse(readFixture(base)) as Record<string, unknown>;
    const draftKept = posted.anchor !== undefined || posted.parent !== undefined;
    return {
      ...comment,
      text: posted.text,
      severity: posted.severity ?? "NORMAL",
      state: posted.state === "PENDING" && draftKept ? "PENDING" : "OPEN",
      ...(posted.parent === undefined ? {} : { parent: posted.parent }),
      ...(posted.anchor === undefined ? {} : { anchor: storedAnchor(posted.anchor) }),
    };
  };
}
