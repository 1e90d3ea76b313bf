/**
 * The keyring through each system's tool (src/auth/keyring.ts): the session
 * goes in on standard input and never in the arguments (process lists show
 * those), comes back whole, and is cleared; a tool that answers with an error
 * (no Secret Service on the bus) is told apart from one that holds nothing.
 * The tools themselves are stand-ins here: secret-tool's, security's and
 * PowerShell's behaviour on a real system is not run by these tests.
 */
import assert from "node:assert/strict";
import {
  KeyringSessionStore,
  KeyringUnavailable,
  MAC_SECURITY,
  type Runner,
  SECRET_TOOL,
  WINDOWS_CREDENTIALS,
} from "../../src/auth/keyring.ts";
import type { Session } from "../../src/auth/session.ts";

const SESSION: Session = {
  url: "https://bitbucket.example.com/",
  clientId: "link-1",
  redirectUri: "http://127.0.0.1:8765/callback",
  accessToken: "ACCESS-SECRET-0123456789abcdef",
  refreshToken: "REFRESH-SECRET-0123456789abcdef",
  expiresAt: 1_900_000_000_000,
  scopes: ["REPO_READ", "REPO_WRITE"],
  user: "bwilson",
  signedInAt: 1_800_000_000_000,
};

/** A stand-in secret-tool: items by attributes, the secret read from stdin, printed on lookup. */
function fakeSecretTool(calls: { args: string[]; stdin: string }[]): Runner {
  const items = new Map<string, string>();
  return (program, args, stdin) => {
    assert.equal(program, "secret-tool");
    calls.push({ args, stdin });
    const key = args.filter((a) => !a.startsWith("--")).slice(1).join(" ");
    if (args[0] === "store") items.set(key, stdin);
    if (args[0] === "lookup") {
      const found = items.get(key);
      return Promise.resolve(
        found === undefined
          ? { code: 1, stdout: "", stderr: "" }
          : { code: 0, stdout: found, stderr: "" },
      );
    }
    if (args[0] === "clear") items.delete(key);
    return Promise.resolve({ code: 0, stdout: "", stderr: "" });
  };
}

Deno.test("keyring: a session goes into secret-tool on stdin, comes back whole, and is cleared; no secret in any argument", async () => {
  const calls: { args: string[]; stdin: string }[] = [];
  const store = new KeyringSessionStore(SECRET_TOOL, fakeSecretTool(calls));
  assert.equal(await store.load(SESSION.url), undefined);
  await store.save(SESSION);
  assert.deepEqual(await store.load(SESSION.url), SESSION);
  assert.equal(await store.remove(SESSION.url), true);
  assert.equal(await store.load(SESSION.url), undefined);
  assert.deepEqual(calls[1]!.args.slice(2), ["service", "bitbucket-mcp", "account", SESSION.url]);
  for (const { args, stdin } of calls) {
    for (const secret of [SESSION.accessToken, SESSION.refreshToken!]) {
      assert.ok(!args.join(" ").includes(secret), "never in the arguments");
      assert.ok(!stdin.includes(secret), "encoded, even on stdin");
    }
  }
});

Deno.test("keyring: a tool that fails (no Secret Service on the bus) is unavailable, not empty", async () => {
  const store = new KeyringSessionStore(
    SECRET_TOOL,
    () =>
      Promise.resolve({
        code: 1,
        stdout: "",
        stderr: "Cannot autolaunch D-Bus without X11 $DISPLAY\n",
      }),
  );
  await assert.rejects(store.load(SESSION.url), (error: Error) => {
    assert.ok(error instanceof KeyringUnavailable);
    assert.match(error.message, /secret-tool failed: Cannot autolaunch D-Bus/);
    return true;
  });
});

Deno.test("keyring: macOS security takes the secret through its interactive mode on stdin, quoted", () => {
  const { args, stdin } = MAC_SECURITY.store(SESSION.url, "c2VjcmV0");
  assert.deepEqual(args, ["-i"]);
  assert.equal(
    stdin,
    `add-generic-password -U -s "bitbucket-mcp" -a "${SESSION.url}" -l "bitbucket-mcp" -w "c2VjcmV0"\n`,
  );
  assert.deepEqual(MAC_SECURITY.lookup(SESSION.url).args, [
    "find-generic-password",
    "-s",
    "bitbucket-mcp",
    "-a",
    SESSION.url,
    "-w",
  ]);
});

Deno.test("keyring: Windows' script names the credential but reads the secret from stdin", () => {
  const { args, stdin } = WINDOWS_CREDENTIALS.store(SESSION.url, "c2VjcmV0");
  assert.equal(stdin, "c2VjcmV0");
  const encoded = args.at(-1)!;
  assert.equal(args.at(-2), "-EncodedCommand");
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  const script = new TextDecoder("utf-16le").decode(bytes);
  assert.match(script, new RegExp(`Write\\('bitbucket-mcp:${SESSION.url.replaceAll(".", "\\.")}'`));
  assert.match(script, /\[Console\]::In\.ReadToEnd\(\)/);
  assert.ok(!script.includes("c2VjcmV0"));
});
