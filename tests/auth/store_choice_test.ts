/**
 * Which store keeps the sessions (src/auth/store_choice.ts): the keyring when
 * its tool runs, and with neither a keyring nor permission for the file, a
 * start-up error naming both ways. (The file fallback itself, mode 0600 and
 * its one warning, is driven through the real program in
 * tests/e2e/sign_in_test.ts, which can grant the file's permissions.)
 */
import assert from "node:assert/strict";
import { chooseStore, sessionsDir } from "../../src/auth/store_choice.ts";
import { SECRET_TOOL } from "../../src/auth/keyring.ts";
import { StartupError } from "../../src/config.ts";

const URL_HREF = "https://bitbucket.example.com/";
const HOME = "/nonexistent-home-issue-33";
const home = (name: string) => name === "HOME" ? HOME : undefined;

Deno.test("store choice: the keyring when its tool answers, and no warning", async () => {
  const warned: string[] = [];
  const chosen = await chooseStore({
    home,
    os: "linux",
    tool: SECRET_TOOL,
    run: () => Promise.resolve({ code: 1, stdout: "", stderr: "" }),
    warn: (m) => warned.push(m),
  }, URL_HREF);
  assert.equal(chosen.store.where, SECRET_TOOL.name);
  assert.equal(chosen.session, undefined);
  assert.deepEqual(warned, []);
});

Deno.test("store choice: no keyring tool and no permission for the file stops the start naming --allow-run and the file's flags", async () => {
  const dir = sessionsDir(home, "linux")!;
  assert.equal(dir, `${HOME}/.config/bitbucket-mcp/sessions`);
  await assert.rejects(
    chooseStore({
      home,
      os: "linux",
      tool: SECRET_TOOL,
      run: () => Promise.reject(new Deno.errors.NotFound("secret-tool")),
      warn: () => {},
    }, URL_HREF),
    (error: Error) => {
      assert.ok(error instanceof StartupError);
      assert.match(error.message, /secret-tool is not installed/);
      assert.ok(
        error.message.endsWith(
          `--allow-run=secret-tool (${SECRET_TOOL.name}) or with --allow-read=${dir} --allow-write=${dir} (a file only you can read)`,
        ),
        error.message,
      );
      return true;
    },
  );
});

Deno.test("store choice: the sessions directory follows XDG_CONFIG_HOME, and APPDATA on Windows", () => {
  const xdg = (name: string) => ({ HOME, XDG_CONFIG_HOME: "/xdg" } as Record<string, string>)[name];
  assert.equal(sessionsDir(xdg, "linux"), "/xdg/bitbucket-mcp/sessions");
  const win = (name: string) => name === "APPDATA" ? "C:\\Users\\me\\AppData\\Roaming" : undefined;
  assert.equal(
    sessionsDir(win, "windows"),
    "C:\\Users\\me\\AppData\\Roaming\\bitbucket-mcp\\sessions",
  );
  assert.equal(sessionsDir(() => undefined, "linux"), undefined);
});
