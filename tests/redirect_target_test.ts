/**
 * The redirect rule on its own: which Location headers are followed, from a
 * base URL at the root and one under a context path, and why the others are
 * refused. No network; `redirect_test.ts` covers the rule inside the client.
 */
import assert from "node:assert/strict";
import { restPrefix } from "../src/bitbucket/base_path.ts";
import { MAX_REDIRECTS, type RedirectRefusal, redirectTarget } from "../src/bitbucket/redirect.ts";

const ROOT = new URL("https://bitbucket.example.com/");
const UNDER = new URL("https://example.com/bitbucket");

interface Case {
  why: string;
  base: URL;
  /** The URL that answered with the redirect; defaults to a REST URL under `base`. */
  from?: string;
  location: string | null;
  /** Redirects already followed. */
  hop?: number;
  /** The URL followed, or the refusal. */
  expect: string | RedirectRefusal;
}

const CASES: Case[] = [
  {
    why: "an absolute URL on the same origin is followed",
    base: ROOT,
    location: "https://bitbucket.example.com/rest/api/latest/y",
    expect: "https://bitbucket.example.com/rest/api/latest/y",
  },
  {
    why: "a path is resolved against the URL that redirected",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "/bitbucket/rest/api/latest/y?start=25",
    expect: "https://example.com/bitbucket/rest/api/latest/y?start=25",
  },
  {
    why: "a relative reference is resolved too",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "y",
    expect: "https://example.com/bitbucket/rest/api/latest/y",
  },
  {
    why: "the last of the redirects allowed is followed",
    base: ROOT,
    location: "/rest/api/latest/y",
    hop: MAX_REDIRECTS - 1,
    expect: "https://bitbucket.example.com/rest/api/latest/y",
  },
  {
    why: "no Location header",
    base: ROOT,
    location: null,
    expect: { kind: "invalid_response", reason: "a redirect without a Location header" },
  },
  {
    why: "an empty Location header",
    base: ROOT,
    location: "",
    expect: { kind: "invalid_response", reason: "a redirect without a Location header" },
  },
  {
    why: "a Location that is not a URL",
    base: ROOT,
    location: "http://[::1",
    expect: { kind: "invalid_response", reason: "a redirect to something that is not a URL" },
  },
  {
    why: "another host",
    base: ROOT,
    location: "https://evil.example.com/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected to another origin (https://evil.example.com), which is not followed so the token stays with https://bitbucket.example.com",
      advice: "check_base_url",
    },
  },
  {
    why: "the same host over plain HTTP is another origin",
    base: ROOT,
    location: "http://bitbucket.example.com/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected to another origin (http://bitbucket.example.com), which is not followed so the token stays with https://bitbucket.example.com",
      advice: "check_base_url",
    },
  },
  {
    why: "another port is another origin",
    base: ROOT,
    location: "https://bitbucket.example.com:8443/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected to another origin (https://bitbucket.example.com:8443), which is not followed so the token stays with https://bitbucket.example.com",
      advice: "check_base_url",
    },
  },
  {
    why: "a protocol-relative URL to another host",
    base: ROOT,
    location: "//evil.example.com/rest",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected to another origin (https://evil.example.com), which is not followed so the token stays with https://bitbucket.example.com",
      advice: "check_base_url",
    },
  },
  {
    why: "outside the context path, on the same origin",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "/jira/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected outside https://example.com/bitbucket/ (to /jira/rest/api/latest/x), which is not followed",
      advice: "check_context_path",
    },
  },
  {
    why: "a path that only starts with the context path's letters is outside it",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "/bitbucket-old/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected outside https://example.com/bitbucket/ (to /bitbucket-old/rest/api/latest/x), which is not followed",
      advice: "check_context_path",
    },
  },
  {
    why: "dot segments cannot climb out of the context path",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "/bitbucket/../admin",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected outside https://example.com/bitbucket/ (to /admin), which is not followed",
      advice: "check_context_path",
    },
  },
  {
    why: "one redirect more than allowed",
    base: ROOT,
    location: "/rest/api/latest/y",
    hop: MAX_REDIRECTS,
    expect: {
      kind: "invalid_response",
      reason: `more than ${MAX_REDIRECTS} redirects in a row (a redirect loop?)`,
      advice: "check_base_url",
    },
  },
];

for (const c of CASES) {
  Deno.test(`redirectTarget: ${c.why}`, () => {
    const from = new URL(c.from ?? `${restPrefix(c.base)}/api/latest/x`, c.base);
    const target = redirectTarget(c.base, from, c.location, c.hop ?? 0);
    if (typeof c.expect === "string") {
      assert.ok(target instanceof URL, `followed: ${JSON.stringify(target)}`);
      assert.equal(target.href, c.expect);
    } else {
      assert.deepEqual(target, c.expect);
    }
  });
}

Deno.test("redirectTarget: a refusal names no flag and no variable: the caller words the fix", () => {
  for (const c of CASES) {
    if (typeof c.expect === "string") continue;
    assert.doesNotMatch(c.expect.reason, /--[a-z]|BITBUCKET_|DENO_/, c.why);
  }
});
