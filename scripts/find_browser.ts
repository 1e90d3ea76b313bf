/**
 * Which browser the view tests drive, decided once per `deno task test`
 * (scripts/with_browser.ts): the one CHROME_PATH names, else the first
 * Chromium-family browser found, else Debian's `chromium-headless-shell`
 * installed with apt where that can be done, else one line saying what to
 * install. The machine is passed in, so the order and the messages are
 * tested without touching it.
 */

/** A place a browser may be: an absolute path, or a command looked up in PATH. */
export type Candidate = { path: string } | { command: string };

/**
 * Where to look after CHROME_PATH, in order: Debian's Chromium, its headless
 * shell, Google Chrome. The shell's own binary comes before the one in PATH:
 * Debian's /usr/bin/chromium-headless-shell is a script that runs it without
 * `exec`, so killing what was started would leave the browser running.
 */
export const CANDIDATES: readonly Candidate[] = [
  { path: "/usr/bin/chromium" },
  { path: "/usr/lib/chromium/chromium-headless-shell" },
  { command: "chromium-headless-shell" },
  { command: "google-chrome" },
  { command: "google-chrome-stable" },
  { path: "/opt/google/chrome/chrome" },
];

/** The Debian package installed when no browser is found: the smallest that runs the tests. */
export const APT_PACKAGE = "chromium-headless-shell";

/** What to install, the hint of every "no browser" error. */
export const INSTALL_HINT =
  `install ${APT_PACKAGE} or chromium (apt-get install -y ${APT_PACKAGE} on Debian) or Google Chrome, or set CHROME_PATH to one`;

/** A browser that cannot be had: one line for the person running the tests. */
export class NoBrowser extends Error {}

/** What the finder sees of the machine and does to it; the tests pass a fake one. */
export interface Machine {
  /** An environment variable (CHROME_PATH, PATH); undefined when unset. */
  env(name: string): string | undefined;
  /** The working directory, against which a relative CHROME_PATH is read. */
  cwd(): string;
  /** Whether `path` is an executable file, links followed. */
  isExecutable(path: string): Promise<boolean>;
  /** The text of /etc/os-release; undefined where there is none. */
  osRelease(): Promise<string | undefined>;
  /** Whether this process runs as root. */
  isRoot(): boolean;
  /** Whether `sudo -n true` succeeds: sudo without a password. */
  canSudo(): Promise<boolean>;
  /** Runs a command, its output on stderr; true when it exits with 0. */
  run(command: readonly string[]): Promise<boolean>;
  /** Writes a line on stderr. */
  say(line: string): void;
}

/** The browser the tests get, and how it was had (for the line naming it). */
export interface Found {
  path: string;
  /** "CHROME_PATH", "found", "found in PATH", or "installed with apt, " and one of the last two. */
  how: string;
}

/** A candidate as a person reads it. */
function describe(candidate: Candidate): string {
  return "path" in candidate ? candidate.path : `${candidate.command} in PATH`;
}

/** Where `command` is in PATH (absolute folders only, in order), or undefined. */
async function inPath(machine: Machine, command: string): Promise<string | undefined> {
  for (const folder of (machine.env("PATH") ?? "").split(":")) {
    if (!folder.startsWith("/")) continue; // empty or relative entries: never the working directory
    const path = `${folder.replace(/\/+$/, "")}/${command}`;
    if (await machine.isExecutable(path)) return path;
  }
  return undefined;
}

/** The browser CHROME_PATH names: a path (relative to the working directory) or a command in PATH. */
async function chromePath(machine: Machine, value: string): Promise<Found> {
  const path = value.includes("/")
    ? (value.startsWith("/") ? value : `${machine.cwd().replace(/\/+$/, "")}/${value}`)
    : await inPath(machine, value);
  if (path !== undefined && await machine.isExecutable(path)) return { path, how: "CHROME_PATH" };
  throw new NoBrowser(
    `Cannot use the browser CHROME_PATH names: ${value} is no executable file (hint: point CHROME_PATH at chromium, ${APT_PACKAGE} or Chrome, or unset it so that the test task finds or installs one)`,
  );
}

/**
 * The browser the tests should drive without installing anything: CHROME_PATH's
 * (an error when it names none), else the first of {@link CANDIDATES} present.
 */
export async function findBrowser(machine: Machine): Promise<Found | undefined> {
  const chrome = machine.env("CHROME_PATH");
  if (chrome) return await chromePath(machine, chrome);
  for (const candidate of CANDIDATES) {
    const path = "path" in candidate
      ? (await machine.isExecutable(candidate.path) ? candidate.path : undefined)
      : await inPath(machine, candidate.command);
    if (path !== undefined) return { path, how: "path" in candidate ? "found" : "found in PATH" };
  }
  return undefined;
}

/** The word list of an os-release field (`ID`, `ID_LIKE`), quotes removed. */
function osField(text: string, field: string): string[] {
  const line = new RegExp(`^${field}=(.*)$`, "m").exec(text)?.[1] ?? "";
  return line.replace(/^["']|["']$/g, "").split(/\s+/).filter(Boolean);
}

/** The prefix apt-get runs under here (none as root, `sudo -n` with passwordless sudo), or why it cannot. */
export async function aptAccess(machine: Machine): Promise<{ prefix: string[] } | { why: string }> {
  const release = await machine.osRelease() ?? "";
  const family = [...osField(release, "ID"), ...osField(release, "ID_LIKE")];
  if (!family.some((id) => id === "debian" || id === "ubuntu")) {
    return { why: "this is not Debian or Ubuntu" };
  }
  if (machine.isRoot()) return { prefix: [] };
  if (await machine.canSudo()) return { prefix: ["sudo", "-n"] };
  return { why: "this is not root, and sudo is missing or asks for a password" };
}

/**
 * The browser for the tests: found, or installed with apt (saying so on
 * stderr) when none is found and apt can be used. Throws {@link NoBrowser}
 * with one line naming what to install when neither works.
 */
export async function browserForTests(machine: Machine): Promise<Found> {
  const found = await findBrowser(machine);
  if (found) return found;
  const access = await aptAccess(machine);
  if ("why" in access) {
    throw new NoBrowser(
      `Cannot run the view tests: no Chromium-family browser found, and apt cannot install one: ${access.why} (hint: ${INSTALL_HINT})`,
    );
  }
  const steps = [
    [...access.prefix, "apt-get", "update"],
    [...access.prefix, "apt-get", "install", "-y", APT_PACKAGE],
  ];
  machine.say(
    `No browser for the view tests (looked for ${
      CANDIDATES.map(describe).join(", ")
    }): installing Debian's ${APT_PACKAGE}: ${steps.map((step) => step.join(" ")).join(" && ")}`,
  );
  for (const step of steps) {
    if (!await machine.run(step)) {
      throw new NoBrowser(
        `Cannot run the view tests: \`${step.join(" ")}\` failed (hint: ${INSTALL_HINT})`,
      );
    }
  }
  const installed = await findBrowser(machine);
  if (installed) return { path: installed.path, how: `installed with apt, ${installed.how}` };
  throw new NoBrowser(
    `Cannot run the view tests: ${APT_PACKAGE} installed, yet none of ${
      CANDIDATES.map(describe).join(", ")
    } is there (hint: ${INSTALL_HINT})`,
  );
}
