/**
 * Where a signed-in session is kept between runs: one interface for the
 * operating system's keyring (keyring.ts) and for the fallback, a file only
 * its owner may read (0600, in a 0700 directory, written whole and renamed
 * into place so a reader never sees half of it). A session is keyed by its
 * Bitbucket's base URL.
 */
import { inDir } from "./config_dir.ts";
import { parseSession, serializeSession, type Session } from "./session.ts";

/** Keeps one session per Bitbucket. */
export interface SessionStore {
  /** Where sessions are kept, in words a person recognises. */
  readonly where: string;
  /** The session for this Bitbucket base URL (`URL.href`), if one is kept. */
  load(url: string): Promise<Session | undefined>;
  /** Keeps `session`, replacing the one for its URL. */
  save(session: Session): Promise<void>;
  /** Forgets the session for this URL; true when there was one. */
  remove(url: string): Promise<boolean>;
}

/** The file name a Bitbucket's session is kept under: its host, and a digest of the whole URL. */
export async function sessionFileName(url: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(url)),
  );
  const hex = Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
  const host = new URL(url).host.replace(/[^A-Za-z0-9.-]/g, "_");
  return `${host}-${hex}.json`;
}

/** Sessions in files under `dir` (created 0700), each file 0600. */
export class FileSessionStore implements SessionStore {
  readonly where: string;
  readonly #dir: string;
  readonly #os: typeof Deno.build.os;

  constructor(dir: string, os: typeof Deno.build.os = Deno.build.os) {
    this.#dir = dir;
    this.#os = os;
    this.where = `a file in ${dir} readable by you only`;
  }

  /** The directory the files are in. */
  get dir(): string {
    return this.#dir;
  }

  /** The file of one Bitbucket's session. */
  async path(url: string): Promise<string> {
    return inDir(this.#dir, await sessionFileName(url), this.#os);
  }

  async load(url: string): Promise<Session | undefined> {
    let text: string;
    try {
      text = await Deno.readTextFile(await this.path(url));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
    const session = parseSession(text);
    return session?.url === url ? session : undefined;
  }

  async save(session: Session): Promise<void> {
    await Deno.mkdir(this.#dir, { recursive: true, mode: 0o700 });
    if (this.#os !== "windows") await Deno.chmod(this.#dir, 0o700);
    const path = await this.path(session.url);
    const temporary = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.writeTextFile(temporary, serializeSession(session), { mode: 0o600 });
      if (this.#os !== "windows") await Deno.chmod(temporary, 0o600);
      await Deno.rename(temporary, path);
    } catch (error) {
      await Deno.remove(temporary).catch(() => {});
      throw error;
    }
  }

  async remove(url: string): Promise<boolean> {
    try {
      await Deno.remove(await this.path(url));
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  }
}
