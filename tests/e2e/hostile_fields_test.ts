/**
 * Every field of other people's text, across the whole catalogue: each tool's
 * contract case runs against its own routes with every string of every JSON
 * answer made hostile (identifiers apart, which the server passes through or
 * routes by), and no result may carry a hidden character or an HTML comment.
 * The hand-written hostile tests pick fields; this one cannot miss one.
 *
 * Then the identifiers themselves: each case runs twice more, every
 * identifier of every answer ending in a marker (`⁂`), once plain and once
 * with hidden characters before the marker, and every string of the second
 * result must be the first's with those characters escaped (`\u{202E}`)
 * before each marker: not raw, not stripped, nothing else changed.
 */
import assert from "node:assert/strict";
import { ESCAPED_META, UNTRUSTED_META } from "../../src/tools/kit/define.ts";
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
 * Keys whose string values are not display text: identifiers and values the
 * server routes by, compares or computes with. Cleaning them would be wrong
 * (an identifier must round-trip byte-exact: hidden characters in one are
 * shown escaped, which the second half of this file tests), and an HTML
 * comment in one is part of the name, not hidden text.
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
  "refId", // the ref a rebase rewrote
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

// ---- Identifiers: escaped, never raw, never stripped. ----

/** Ends every identifier of an answer, so that where each one went can be followed. */
const MARK = "\u2042";
/** A right-to-left override, a zero-width space and a Unicode tag, put before the marker. */
const HIDDEN_ID = "\u202E\u200B\u{E0041}";
/** {@link HIDDEN_ID} as a result must show it: each character escaped. */
const ESCAPED_ID = "\\u{202E}\\u{200B}\\u{E0041}";

/**
 * The keys whose values the server shows as identifiers: names of refs,
 * paths (whole, or a path object's parts), keys, slugs, usernames and
 * groups, addresses. Commit ids and enumerations under them are left alone:
 * the server computes with those, and never has to show one made of hidden characters.
 */
const SHOWN_IDENTIFIERS = new Set([
  "id",
  "displayId",
  "refId",
  "key",
  "slug",
  "reportKey",
  "buildParentKeys",
  "parent",
  "ref",
  "buildNumber",
  "groups",
  "path",
  "srcPath",
  "components",
  "toString",
  "file",
  "fileName",
  "emailAddress",
  "href",
  "url",
  "link",
]);

/** A commit id or an enumeration (`BRANCH`, `ANY_REF`): not a name. */
const NOT_A_NAME = /^(?:[0-9a-f]{7,64}|[A-Z][A-Z_]*)$/;

/**
 * `value` with `suffix` ending every identifier string in it (see
 * {@link SHOWN_IDENTIFIERS}), a Bitbucket user's `name` and a file listing's
 * paths too. A commit's author and committer are git's people: their names
 * are display text, whatever user Bitbucket linked them to.
 */
function marked(value: unknown, suffix: string, identifier = false, gitPerson = false): unknown {
  if (typeof value === "string") {
    return identifier && !NOT_A_NAME.test(value) ? `${value}${suffix}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => marked(v, suffix, identifier));
  if (typeof value !== "object" || value === null) return value;
  const commit = "authorTimestamp" in value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const name = k === "name" && !gitPerson && nameIsIdentifier(value);
      const listing = k === "values" && Array.isArray(v) && v.every((p) => typeof p === "string");
      const shown = identifier || SHOWN_IDENTIFIERS.has(k) || name || listing;
      return [k, marked(v, suffix, shown, commit && (k === "author" || k === "committer"))];
    }),
  );
}

/** `route` answering its JSON with every identifier ending in `suffix`; raw answers as they are. */
function markedRoute(route: Route, suffix: string): Route {
  if (route.respond) {
    const respond = route.respond;
    return { ...route, respond: async (seen) => marked(await respond(seen), suffix) };
  }
  if (route.fixture?.endsWith(".json")) {
    const { fixture, ...rest } = route;
    return { ...rest, body: marked(JSON.parse(readFixture(fixture)), suffix) };
  }
  if (
    typeof route.body === "object" && route.body !== null && !(route.body instanceof Uint8Array)
  ) {
    return { ...route, body: marked(route.body, suffix) };
  }
  return route;
}

/** Every string in `value` with its JSON path. */
function strings(value: unknown, path = "$"): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
}

/** The value at a JSON path {@link strings} gave. */
function at(value: unknown, path: string): unknown {
  const steps = path.slice(1).match(/\.[^.[]+|\[\d+\]/g) ?? [];
  return steps.reduce<unknown>((v, step) => {
    const key = step.startsWith("[") ? Number(step.slice(1, -1)) : step.slice(1);
    return (v as Record<string | number, unknown> | undefined)?.[key];
  }, value);
}

/** A call of `tool`'s contract case with every identifier of every answer ending in `suffix`. */
async function callMarked(tool: (typeof CATALOGUE)[number], suffix: string) {
  const entry = toolArguments[tool.name]!;
  await using h = await connect({
    routes: entry.routes.map((route) => markedRoute(route, suffix)),
    selection: { yolo: true },
    apps: entry.apps,
  });
  return await h.client.callTool({ name: tool.name, arguments: entry.args });
}

/** The tools whose results showed at least one marked identifier. */
const showing = new Set<string>();

for (const tool of CATALOGUE) {
  Deno.test(`hostile identifiers: ${tool.name} shows every identifier's hidden characters escaped`, async () => {
    const plain = await callMarked(tool, MARK);
    const hostile = await callMarked(tool, `${HIDDEN_ID}${MARK}`);
    const expected = (text: string) => text.replaceAll(MARK, `${ESCAPED_ID}${MARK}`);
    assert.equal(hostile.isError, plain.isError, firstText(hostile));
    if (plain.isError) {
      // A name it looks for among the answers is not found: the message still shows none raw.
      assert.equal(firstText(hostile), expected(firstText(plain)));
      return;
    }
    // A view's origin is the fixture's address, another in each run; its fingerprint is a
    // digest of its data, so it differs whenever the data does.
    const documents = new Set([
      ...tool.hasDocumentText ? DOCUMENTS : [],
      "$.view.origin",
      "$.view.fingerprint",
    ]);
    const changed = strings(plain.structuredContent)
      .filter(([path]) => !documents.has(path))
      .flatMap(([path, text]) => {
        const seen = at(hostile.structuredContent, path);
        return seen === expected(text) ? [] : [`${path} = ${JSON.stringify(seen)}`];
      });
    assert.deepEqual(changed, [], "each identifier escaped, nothing else changed");
    assert.deepEqual(offending(hostile.structuredContent, tool.hasDocumentText), []);
    if (!tool.hasDocumentText) {
      // The text block is the result's JSON, where each escape's backslash is itself escaped.
      const inJson = JSON.stringify(ESCAPED_ID).slice(1, -1);
      assert.equal(firstText(hostile), firstText(plain).replaceAll(MARK, `${inJson}${MARK}`));
    }
    const escaped = strings(hostile.structuredContent)
      .some(([path, text]) => !documents.has(path) && text.includes(ESCAPED_ID));
    const meta = hostile._meta as Record<string, unknown> | undefined;
    assert.equal(meta?.[UNTRUSTED_META], true);
    if (escaped) {
      showing.add(tool.name);
      const noted = meta?.[ESCAPED_META] as { ids: string[]; count: number } | undefined;
      assert.ok(noted !== undefined && noted.ids.length > 0, "the result notes its escaped ids");
      const shown = JSON.stringify(hostile.structuredContent);
      for (const id of noted.ids) assert.ok(shown.includes(JSON.stringify(id).slice(1, -1)), id);
    } else {
      assert.equal(meta?.[ESCAPED_META], undefined, "no escapes, no note");
    }
  });
}

Deno.test("hostile identifiers: the listings and reads of names, paths and refs all showed theirs", () => {
  const expected = [
    "list_branches",
    "list_tags",
    "get_repository",
    "list_files",
    "list_pr_changes",
    "list_pull_requests",
    "list_pr_comments",
    "find_users",
    "search_code",
  ];
  assert.deepEqual(expected.filter((name) => !showing.has(name)), []);
});
