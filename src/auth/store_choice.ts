/**
 * Which store keeps the sessions of this process: the operating system's
 * keyring when `--allow-run` lets this process run its tool and the tool
 * answers, else a file only its owner may read, in the user's config
 * directory, said once in a warning. When neither is permitted, nothing can
 * keep a sign-in, and the start stops naming both ways to permit one.
 */
import { StartupError } from "../config.ts";
import { configDir, type HomeVariable, inDir } from "./config_dir.ts";
import {
  KeyringSessionStore,
  type KeyringTool,
  keyringToolFor,
  KeyringUnavailable,
  type Runner,
  runTool,
} from "./keyring.ts";
import type { Session } from "./session.ts";
import { FileSessionStore, type SessionStore } from "./store.ts";

/** What the choice depends on. */
export interface StoreInputs {
  /** The variables the config directory comes from. */
  home: (name: HomeVariable) => string | undefined;
  os?: typeof Deno.build.os;
  /** The keyring tool (default: the system's). */
  tool?: KeyringTool | null;
  /** How the tool is run (tests give a stand-in). */
  run?: Runner;
  /** Said once, when the sessions go to a file. */
  warn: (message: string) => void;
}

/** The store chosen, and the session it holds for the Bitbucket asked about. */
export interface ChosenStore {
  store: SessionStore;
  session: Session | undefined;
}

/** The directory sessions are kept in when no keyring keeps them, if the config directory is known. */
export function sessionsDir(
  home: (name: HomeVariable) => string | undefined,
  os: typeof Deno.build.os = Deno.build.os,
): string | undefined {
  const dir = configDir(home, os);
  return dir === undefined ? undefined : inDir(dir, "sessions", os);
}

/** Chooses the store and reads the session of `url` (a base URL's `href`) from it. */
export async function chooseStore(inputs: StoreInputs, url: string): Promise<ChosenStore> {
  const os = inputs.os ?? Deno.build.os;
  const tool = inputs.tool === null ? undefined : inputs.tool ?? keyringToolFor(os);
  let why: string;
  if (tool === undefined) {
    why = "this system has no keyring this program speaks to";
  } else if (
    Deno.permissions.querySync({ name: "run", command: tool.program }).state !== "granted" &&
    inputs.run === undefined
  ) {
    // Deno also refuses an --allow-run entry it cannot find on PATH: either way, no keyring.
    why = `${tool.program} is not installed, or not permitted (--allow-run=${tool.program})`;
  } else {
    const keyring = new KeyringSessionStore(tool, inputs.run ?? runTool);
    try {
      return { store: keyring, session: await keyring.load(url) };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) why = `${tool.program} is not installed`;
      else if (error instanceof KeyringUnavailable) why = error.message;
      else throw error;
    }
  }
  const dir = sessionsDir(inputs.home, os);
  if (dir === undefined) {
    throw new StartupError(
      `cannot keep the sign-in: ${why}, and ${
        os === "windows" ? "APPDATA" : "HOME"
      } is not set or not readable: add it to --allow-env${
        tool ? ` (or run with --allow-run=${tool.program})` : ""
      }`,
    );
  }
  const readable = Deno.permissions.querySync({ name: "read", path: dir }).state === "granted";
  const writable = Deno.permissions.querySync({ name: "write", path: dir }).state === "granted";
  if (!readable || !writable) {
    const keyringWay = tool ? `--allow-run=${tool.program} (${tool.name}) or with ` : "";
    throw new StartupError(
      `cannot keep the sign-in (${why}): run with ${keyringWay}--allow-read=${dir} --allow-write=${dir} (a file only you can read)`,
    );
  }
  const store = new FileSessionStore(dir, os);
  inputs.warn(
    `no keyring (${why}): the sign-in is kept in ${dir}, in a file readable by you only (0600)`,
  );
  return { store, session: await store.load(url) };
}
