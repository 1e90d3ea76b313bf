/**
 * src/resources/uri.ts and templates.ts: what a URI names, read from the URI as sent (never
 * normalised), and built back so that reading it names the same thing.
 * Refusals as a client sees them are in read_test.ts.
 */
import assert from "node:assert/strict";
import { parseResourceUri } from "../../src/resources/uri.ts";
import { type ResourceTarget, resourceUri, TEMPLATES } from "../../src/resources/templates.ts";

const AWKWARD: ResourceTarget[] = [
  { kind: "pull_request", project: "PROJ", repo: "web", prId: 42 },
  { kind: "pull_request_diff", project: "~JDOE", repo: "my repo", prId: 1 },
  { kind: "pull_request_threads", project: "ÜBER", repo: "a?b#c", prId: 9_007_199_254_740_991 },
  { kind: "file", project: "PROJ", repo: "web", path: "src/app.ts" },
  { kind: "file", project: "PROJ", repo: "web", path: "docs/100% sure?.md", at: "feature/a&b=c" },
  { kind: "file", project: "PROJ", repo: "web", path: "..foo/.bar/…", at: "refs/tags/v1.0+build" },
  {
    kind: "commit",
    project: "PROJ",
    repo: "web",
    commitId: "8d51122def5632836d1cb1026e879069e10a1e13",
  },
];

Deno.test("resource URIs: every target built as a URI reads back as itself", () => {
  for (const target of AWKWARD) {
    const uri = resourceUri(target);
    assert.ok(uri.startsWith("bitbucket://projects/"), uri);
    assert.ok(!/[ #]/.test(uri), `${uri} carries a character a URI cannot`);
    assert.deepEqual(parseResourceUri(uri), target, uri);
  }
});

Deno.test("resource URIs: a URI is read as sent: a template expanded by RFC 6570 reads too", () => {
  // `{+path}` keeps `/`; a client expanding `{path}`-style sends %2F, which means the same path.
  assert.deepEqual(
    parseResourceUri("bitbucket://projects/PROJ/repos/web/files/src%2Fapp.ts?at=main"),
    { kind: "file", project: "PROJ", repo: "web", path: "src/app.ts", at: "main" },
  );
  // The scheme and host of a URI are case-insensitive; `+` is a plus, not a space.
  assert.deepEqual(
    parseResourceUri("BITBUCKET://Projects/PROJ/repos/web/files/a+b.txt?at=x+y"),
    { kind: "file", project: "PROJ", repo: "web", path: "a+b.txt", at: "x+y" },
  );
  assert.deepEqual(
    parseResourceUri("bitbucket://projects/PROJ/repos/web/pull-requests/007/diff"),
    { kind: "pull_request_diff", project: "PROJ", repo: "web", prId: 7 },
  );
});

Deno.test("resource URIs: `..` is refused wherever it sits, as written or encoded", () => {
  for (
    const uri of [
      "bitbucket://projects/PROJ/repos/web/files/a/../b",
      "bitbucket://projects/PROJ/repos/web/files/a/%2e%2E/b",
      "bitbucket://projects/PROJ/repos/web/files/a/./b",
      "bitbucket://projects/PROJ/repos/../files/b",
      "bitbucket://projects/%2E%2E/repos/web/files/b",
      "bitbucket://projects/PROJ/repos/web/files/a%2F..%2Fb",
    ]
  ) {
    assert.throws(
      () => parseResourceUri(uri),
      (e: Error & { code?: number }) => e.code === -32602,
      uri,
    );
  }
});

Deno.test("resource URIs: each template's variables are those its URIs are built from", () => {
  for (const template of TEMPLATES) {
    const names = [...template.uriTemplate.matchAll(/\{[+?]?(\w+)\}/g)].map((m) => m[1]);
    assert.deepEqual(names.slice(0, 2), ["project", "repo"], template.name);
    const expected = template.name === "file" ? ["path", "at"] : ["id"];
    assert.deepEqual(names.slice(2), expected, template.name);
  }
});
