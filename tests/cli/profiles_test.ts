/**
 * The profiles file (src/cli/profiles.ts): what a profile may say, each
 * mistake stopping the start naming the file, the profile and the key, and
 * the environment a profile stands in for, which never hands one instance's
 * token to another. (Choosing a profile by flag and by BITBUCKET_PROFILE is
 * driven through the real program in tests/e2e/sign_in_test.ts.)
 */
import assert from "node:assert/strict";
import { parseProfiles, profileEnv } from "../../src/cli/profiles.ts";
import { StartupError } from "../../src/config.ts";

const PATH = "/home/me/.config/bitbucket-mcp/config.json";

Deno.test("profiles: each profile's URL, token source, redirect port and certificate are read", () => {
  const profiles = parseProfiles(
    JSON.stringify({
      profiles: {
        work: {
          url: "https://bitbucket.example.com",
          oauth_client_id: "3f1c",
          redirect_port: 8765,
        },
        lab: {
          url: "https://git.lab.example.org/bitbucket",
          token_env: "LAB_BITBUCKET_TOKEN",
          client_cert: "/c.pem",
          client_key: "/c.key",
        },
      },
    }),
    PATH,
  );
  assert.deepEqual([...profiles.keys()], ["work", "lab"]);
  assert.deepEqual(profiles.get("work"), {
    name: "work",
    url: "https://bitbucket.example.com",
    oauthClientId: "3f1c",
    redirectPort: 8765,
  });
  assert.equal(profiles.get("lab")?.clientKey, "/c.key");
});

for (
  const [why, profile, says] of [
    ["no token source", { url: "https://b.example.com" }, /needs exactly one token source/],
    [
      "two token sources",
      { url: "https://b.example.com", token_env: "T_TOKEN", oauth_client_id: "x" },
      /needs exactly one token source/,
    ],
    ["an unknown key", { url: "https://b.example.com", token_env: "T", tokne: 1 }, /has tokne in/],
    ["a bad URL", { url: "ftp://b.example.com", token_env: "T" }, /has a bad url in profile/],
    [
      "a bad port",
      { url: "https://b.example.com", oauth_client_id: "x", redirect_port: 0 },
      /port/,
    ],
    [
      "a certificate without its key",
      { url: "https://b.example.com", token_env: "T", client_cert: "/c.pem" },
      /both client_cert and client_key/,
    ],
  ] as const
) {
  Deno.test(`profiles: ${why} stops the start naming the file and the profile`, () => {
    assert.throws(
      () => parseProfiles(JSON.stringify({ profiles: { work: profile } }), PATH),
      (error: Error) => {
        assert.ok(error instanceof StartupError);
        assert.ok(error.message.startsWith(`the profiles file ${PATH} `), error.message);
        assert.match(error.message, says);
        return true;
      },
    );
  });
}

Deno.test("profiles: a session profile stands in for the URL and the link, and never passes on BITBUCKET_TOKEN", () => {
  const [profile] = parseProfiles(
    JSON.stringify({
      profiles: { work: { url: "https://b.example.com", oauth_client_id: "3f1c" } },
    }),
    PATH,
  ).values();
  const outer = (name: string) =>
    ({
      BITBUCKET_URL: "https://other.example.com",
      BITBUCKET_TOKEN: "other-token",
      HOME: "/home/me",
    })[
      name
    ];
  const env = profileEnv(profile!, outer);
  assert.equal(env("BITBUCKET_URL"), "https://b.example.com");
  assert.equal(env("BITBUCKET_TOKEN"), undefined);
  assert.equal(env("BITBUCKET_OAUTH_CLIENT_ID"), "3f1c");
  assert.equal(env("BITBUCKET_PROFILE"), "work");
  assert.equal(env("HOME"), "/home/me", "the rest is the environment's");
});
