/**
 * Every field of other people's text, across the whole catalogue: each tool's
 * contract case runs against its own routes with every string of every JSON
 * answer made hostile (identifiers apart, which the server passes through or
 * routes by), and no result may carry a hidden character or an HTML comment.
 * The hand-written hostile tests pick fields; this one cannot miss one.
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { toolArguments } from "../../testing/cases/mod.ts";
import { readFixture, type Route } from "../../testing/fixture_bitbucket.ts";
import { connect, firstText } from "../../testing/harness.ts";
import { isAppTool } from "../../src/tools/kit/apps.ts";

/** A right-to-left override, a BiDi isolate, a zero-width space, a Unicode tag and an HTML comment. */
const HOSTILE = "\u202E\u2066\u200B\u{E0041}<!-- hidden -->";
/** What must not survive into a result. */
const PLANTED = ["\u202E", "\u2066", "\u200B", "\u{E0041}", "<!--"];

/**
 * Keys whose string values pass through untouched: identifiers and values the
 * server routes by, compares or computes with, never display text. Cleaning
 * them would be wrong (an identifier must round-trip byte-exact), and making
 * them hostile would only break the contract case, not test sanitising.
 */
const IDENTIFIERS = new Set([
  // Ids and keys: refs ("refs/heads/main"), ref display ids (branch names the
  // server matches on), ref matchers, project, report and build keys, slugs.
  "id",
  "displayId",
  "key",
  "slug",
  "projectKey",
  "repositorySlug",
  "reportKey",
  "externalId",
  "hierarchyId",
  "buildParentKeys",
  "parent", // a build's parent key
  "ref", // the ref a build status is for
  "groups", // group names (branch restriction exemptions)
  // Commit and object ids, compared and shown as they are.
  "latestCommit",
  "latestChangeset",
  "hash",
  "fromHash",
  "toHash",
  "previousFromHash",
  "previousToHash",
  "lastReviewedCommit",
  "commitId",
  "commitHash",
  "commitDisplayId",
  "displayCommitHash",
  "contentId",
  "fromContentId",
  // Paths (the whole path object under these keys; a diff's `source` and
  // `destination` paths by their parts, and `name` in it), which the server
  // builds requests, anchors and diff headers from.
  "path",
  "srcPath",
  "components",
  "toString",
  "extension",
  "file", // a search hit's path
  "fileName", // a blame entry's path
  // Links: addresses, not text.
  "href",
  "url",
  "link",
  "logoUrl",
  // Enumerations the server normalises or compares.
  "state",
  "status",
  "type",
  "role",
  "action",
  "commentAction",
  "severity",
  "nodeType",
  "changeScope",
  "gitChangeType",
  "diffType",
  "fileType",
  "lineType",
  "startLineType",
  "outcome",
  "result",
  "category",
  "whitespace",
  "scmId",
  // A user's address and a build's number.
  "emailAddress",
  "buildNumber",
  // A JSON diff's lines and hunk contexts: the document, byte-exact by design.
  "line",
  "context",
]);

/**
 * Whether `name` in `value` is an identifier: a Bitbucket user's (slug and
 * address: the login the server mentions and compares) or a path's (its last
 * component). Any other `name` (a repository's, a project's, a build's, a git
 * author's) is display text.
 */
function nameIsIdentifier(value: object): boolean {
  return ("slug" in value && "emailAddress" in value) || "components" in value;
}

/** Whether `value` under `key` passes through: an identifier, or a file listing's paths (`values` of strings). */
function passesThrough(parent: object, key: string, value: unknown): boolean {
  if (IDENTIFIERS.has(key)) return true;
  if (key === "name") return nameIsIdentifier(parent);
  return key === "values" && Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** `value` with `HOSTILE` put in front of every string not under an identifier key. */
function poisoned(value: unknown): unknown {
  if (typeof value === "string") return `${HOSTILE}${value}`;
  if (Array.isArray(value)) return value.map(poisoned);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map((
      [k, v],
    ) => [k, passesThrough(value, k, v) ? v : poisoned(v)]),
  );
}

/** `route` answering its JSON poisoned; raw answers (diffs, files, bytes) are documents, sent as they are. */
function hostileRoute(route: Route): Route {
  if (route.respond) {
    const respond = route.respond;
    return { ...route, respond: async (seen) => poisoned(await respond(seen)) };
  }
  if (route.fixture?.endsWith(".json")) {
    const { fixture, ...rest } = route;
    return { ...rest, body: poisoned(JSON.parse(readFixture(fixture))) };
  }
  if (
    typeof route.body === "object" && route.body !== null && !(route.body instanceof Uint8Array)
  ) {
    return { ...route, body: poisoned(route.body) };
  }
  return route;
}

/**
 * A document tool's document in `structuredContent` (its text block is the
 * document): a diff or a file's text, returned byte-exact by design.
 */
const DOCUMENTS = new Set(["$.diff", "$.file.content"]);

/**
 * A search hit's lines are code shown apart from their file: cleaned of
 * hidden characters, but an HTML comment in code is text its reader sees.
 */
const CODE_LINES = /^\$\.(?:results\[\d+\]|view\.files\[\d+\]\.hunks\[\d+\])\.lines\[\d+\]\.text$/;

/** The JSON path of every string in `value` holding something planted, documents apart. */
function offending(value: unknown, document: boolean, path = "$"): string[] {
  if (document && DOCUMENTS.has(path)) return [];
  if (typeof value === "string") {
    if (CODE_LINES.test(path)) {
      return PLANTED.some((p) => p !== "<!--" && value.includes(p))
        ? [`${path} = ${JSON.stringify(value)}`]
        : [];
    }
    return PLANTED.some((p) => value.includes(p)) ? [`${path} = ${JSON.stringify(value)}`] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => offending(v, document, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => offending(v, document, `${path}.${k}`));
}

for (const tool of CATALOGUE) {
  Deno.test(`hostile fields: ${tool.name} returns every field of other people's text clean`, async () => {
    const entry = toolArguments[tool.name]!;
    await using h = await connect({
      routes: entry.routes.map(hostileRoute),
      selection: { yolo: true },
      apps: entry.apps,
    });
    const result = await h.client.callTool({ name: tool.name, arguments: entry.args });
    assert.notEqual(result.isError, true, firstText(result));
    assert.deepEqual(h.fixture.unmatched, [], "every request had a fixture");
    const structured = result.structuredContent;
    assert.deepEqual(offending(structured, tool.hasDocumentText), [], "structuredContent");
    if (isAppTool(tool.config._meta)) {
      // A view's text block is one line for the model, of our own words and Bitbucket's names.
      assert.deepEqual(offending(firstText(result), false), [], "text line");
    } else if (tool.hasDocumentText) {
      const document = [...DOCUMENTS].filter((p) =>
        p.split(".").slice(1).reduce(
          (v: unknown, k) => (v as Record<string, unknown> | undefined)?.[k],
          structured,
        ) !== undefined
      );
      assert.equal(document.length, 1, "a document tool's document is one of DOCUMENTS");
    } else {
      assert.deepEqual(offending(JSON.parse(firstText(result)), false), [], "text block");
    }
  });
}
