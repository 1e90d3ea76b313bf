/**
 * Which browser the view tests get, on fake machines: CHROME_PATH wins (and
 * is an error when it names nothing), then the candidates in their order,
 * then Debian's chromium-headless-shell installed with apt where apt can be
 * used, else one line naming what to install. Nothing here touches this machine.
 */
import assert from "node:assert/strict";
import {
  APT_PACKAGE,
  browserForTests,
  CANDIDATES,
  findBrowser,
  type Machine,
  NoBrowser,
} from "../scripts/find_browser.ts";

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n';
const UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n';
const FEDORA = 'NAME="Fedora Linux"\nID=fedora\nVERSION_ID=40\n';
/** What Debian's chromium-headless-shell puts on the machine (`dpkg -c` of the package). */
const PACKAGE_FILES = [
  "/usr/bin/chromium-headless-shell",
  "/usr/lib/chromium/chromium-headless-shell",
];

interface FakeOptions {
  /** Executable files on the machine. */
  files?: string[];
  env?: Record<string, string>;
  cwd?: string;
  osRelease?: string;
  root?: boolean;
  sudo?: boolean;
  /** The command (joined with spaces) that fails, when one does. */
  failing?: string;
}

/** A machine with exactly these files; `apt-get install` of the package adds its files. */
function fakeMachine(options: FakeOptions = {}) {
  const files = new Set(options.files ?? []);
  const env: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin:/bin", ...options.env };
  const log: string[] = [];
  const looked: string[] = [];
  const machine: Machine = {
    env: (name) => env[name],
    cwd: () => options.cwd ?? "/work/repo",
    isExecutable: (path) => {
      looked.push(path);
      return Promise.resolve(files.has(path));
    },
    osRelease: () => Promise.resolve(options.osRelease),
    isRoot: () => options.root ?? false,
    canSudo: () => Promise.resolve(options.sudo ?? false),
    run: (command) => {
      const line = command.join(" ");
      log.push(`run: ${line}`);
      if (line === options.failing) return Promise.resolve(false);
      if (line.endsWith(`apt-get install -y ${APT_PACKAGE}`)) {
        for (const file of PACKAGE_FILES) files.add(file);
      }
      return Promise.resolve(true);
    },
    say: (line) => log.push(`say: ${line}`),
  };
  return { machine, log, looked };
}

/** Where a candidate sits on a fake machine: its path, or its command in /usr/bin (in PATH). */
function placeOf(candidate: (typeof CANDIDATES)[number]): string {
  return "path" in candidate ? candidate.path : `/usr/bin/${candidate.command}`;
}

/** The error browserForTests throws, asserted to be a NoBrowser of one line. */
async function noBrowser(machine: Machine): Promise<string> {
  const error = await browserForTests(machine).then(
    (found) => assert.fail(`found ${found.path}`),
    (error: unknown) => error,
  );
  assert.ok(error instanceof NoBrowser, `a NoBrowser, not ${error}`);
  assert.ok(!error.message.includes("\n"), `one line: ${error.message}`);
  return error.message;
}

Deno.test("find browser: CHROME_PATH wins over every candidate present", async () => {
  const chrome = "/home/me/chrome-headless-shell/chrome-headless-shell";
  const { machine } = fakeMachine({
    files: [...CANDIDATES.map(placeOf), chrome],
    env: { CHROME_PATH: chrome },
  });
  assert.deepEqual(await browserForTests(machine), { path: chrome, how: "CHROME_PATH" });
});

Deno.test("find browser: a relative CHROME_PATH is read from the working directory, a bare name from PATH", async () => {
  const relative = fakeMachine({
    files: ["/work/repo/bin/chrome", "/usr/bin/chromium"],
    env: { CHROME_PATH: "bin/chrome" },
  });
  assert.equal((await findBrowser(relative.machine))?.path, "/work/repo/bin/chrome");
  const named = fakeMachine({
    files: ["/opt/chrome/bin/chrome-beta", "/usr/bin/chromium"],
    env: { CHROME_PATH: "chrome-beta", PATH: "/usr/bin:/opt/chrome/bin" },
  });
  assert.equal((await findBrowser(named.machine))?.path, "/opt/chrome/bin/chrome-beta");
});

Deno.test("find browser: a CHROME_PATH naming no executable is an error naming it, though a browser is present and apt could install one", async () => {
  for (const value of ["/opt/missing/chrome", "bin/missing", "chrome-nowhere"]) {
    const { machine, log } = fakeMachine({
      files: CANDIDATES.map(placeOf),
      env: { CHROME_PATH: value },
      osRelease: DEBIAN,
      root: true,
    });
    const message = await noBrowser(machine);
    assert.match(message, /^Cannot use the browser CHROME_PATH names: /);
    assert.ok(message.includes(value), message);
    assert.deepEqual(log, [], "nothing said, nothing installed");
  }
});

Deno.test("find browser: an empty CHROME_PATH counts as unset", async () => {
  const { machine } = fakeMachine({ files: ["/usr/bin/chromium"], env: { CHROME_PATH: "" } });
  assert.deepEqual(await findBrowser(machine), { path: "/usr/bin/chromium", how: "found" });
});

Deno.test("find browser: Debian's chromium, then its headless shell (its binary, then PATH's), then Google Chrome", async () => {
  // With every candidate present, take the one found away, and again: the order the finder keeps.
  const present = new Set(CANDIDATES.map(placeOf));
  const order: string[] = [];
  while (present.size > 0) {
    const found = await findBrowser(fakeMachine({ files: [...present] }).machine);
    assert.ok(found, `one of ${[...present].join(", ")} found`);
    order.push(found.path);
    present.delete(found.path);
  }
  assert.deepEqual(order, [
    "/usr/bin/chromium",
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/bin/chromium-headless-shell",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
  ]);
  assert.deepEqual(order, CANDIDATES.map(placeOf), "CANDIDATES lists them in that order");
});

Deno.test("find browser: PATH's folders are searched in order, and empty or relative entries never", async () => {
  const command = "chromium-headless-shell";
  const { machine, looked } = fakeMachine({
    files: [`./${command}`, `bin/${command}`, `/opt/second/${command}`, `/opt/third/${command}`],
    env: { PATH: `:.:bin:/opt/first/:/opt/second:/opt/third` },
  });
  assert.deepEqual(await findBrowser(machine), {
    path: `/opt/second/${command}`,
    how: "found in PATH",
  });
  assert.ok(
    looked.every((path) => path.startsWith("/")),
    `looked only at absolute paths: ${looked}`,
  );
  assert.ok(looked.includes(`/opt/first/${command}`), "a trailing slash is dropped");
});

Deno.test("find browser: none found and apt unusable: one line naming what to install, nothing run", async () => {
  const cases: [string, FakeOptions][] = [
    ["not Debian or Ubuntu", { osRelease: FEDORA, root: true, sudo: true }],
    ["no os-release at all", { root: true }],
    ["Debian, not root, no passwordless sudo", { osRelease: DEBIAN, root: false, sudo: false }],
  ];
  for (const [name, options] of cases) {
    const { machine, log } = fakeMachine(options);
    const message = await noBrowser(machine);
    assert.match(message, /^Cannot run the view tests: no Chromium-family browser found/, name);
    assert.ok(message.includes(`install ${APT_PACKAGE}`), `${name}: names the package: ${message}`);
    assert.ok(message.includes("CHROME_PATH"), `${name}: names CHROME_PATH: ${message}`);
    assert.deepEqual(log, [], `${name}: nothing said, nothing run`);
  }
});

Deno.test("find browser: none found on Debian as root: says what it does, then apt-get update and install, and uses what they installed", async () => {
  const { machine, log } = fakeMachine({ osRelease: DEBIAN, root: true });
  const found = await browserForTests(machine);
  assert.deepEqual(found, {
    path: "/usr/lib/chromium/chromium-headless-shell",
    how: "installed with apt, found",
  });
  assert.match(log[0]!, new RegExp(`^say: .*installing Debian's ${APT_PACKAGE}`));
  assert.deepEqual(log.slice(1), [
    "run: apt-get update",
    `run: apt-get install -y ${APT_PACKAGE}`,
  ]);
});

Deno.test("find browser: on Ubuntu (or any ID_LIKE=debian) without root, apt runs under passwordless sudo", async () => {
  for (const osRelease of [UBUNTU, 'ID=raspbian\nID_LIKE="debian"\n']) {
    const { machine, log } = fakeMachine({ osRelease, root: false, sudo: true });
    await browserForTests(machine);
    assert.deepEqual(log.filter((line) => line.startsWith("run: ")), [
      "run: sudo -n apt-get update",
      `run: sudo -n apt-get install -y ${APT_PACKAGE}`,
    ]);
  }
});

Deno.test("find browser: a failing apt step is one line naming it, and nothing runs after it", async () => {
  for (const failing of ["apt-get update", `apt-get install -y ${APT_PACKAGE}`]) {
    const { machine, log } = fakeMachine({ osRelease: DEBIAN, root: true, failing });
    const message = await noBrowser(machine);
    assert.ok(message.includes(`\`${failing}\` failed`), message);
    assert.equal(log.at(-1), `run: ${failing}`, "the failed step is the last run");
  }
});
