/**
 * The project's Dockerfile read as data (its instructions, `ENV` values, the exec-form
 * `ENTRYPOINT`, `CMD` and `HEALTHCHECK`), so that the deploy test can hold it against the
 * server's real flags and endpoints and the container memory bench can run the server with
 * exactly the image's environment. Only what this Dockerfile uses is understood: comments,
 * `\` line continuations, `KEY=value` ENV pairs and JSON exec forms; anything else in those
 * instructions is an error rather than a guess.
 */

/** One instruction: its keyword (upper case) and the rest of its line, continuations joined. */
export interface Instruction {
  keyword: string;
  args: string;
}

/** The parts of a Dockerfile the image's behaviour depends on. */
export interface Dockerfile {
  instructions: Instruction[];
  /** The final stage's base image reference (`FROM` of the last stage). */
  from: string;
  /** `ENV` values in order, later ones winning. */
  env: Record<string, string>;
  /** `USER` of the final stage, when set. */
  user?: string;
  /** `EXPOSE`d ports. */
  expose: number[];
  entrypoint: string[];
  cmd: string[];
  /** The `HEALTHCHECK`'s options (`--interval` …) and its exec-form command. */
  healthcheck?: { options: Record<string, string>; command: string[] };
}

/** Where the project's Dockerfile is. */
export const DOCKERFILE = new URL("../Dockerfile", import.meta.url);

/** Splits a Dockerfile into instructions, dropping comments and joining continued lines. */
export function instructionsOf(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (pending === "" && (line.trim() === "" || line.trimStart().startsWith("#"))) continue;
    if (pending !== "" && line.trimStart().startsWith("#")) continue;
    if (line.endsWith("\\")) {
      pending += line.slice(0, -1) + " ";
      continue;
    }
    const whole = (pending + line).trim();
    pending = "";
    const match = /^(\S+)\s*(.*)$/.exec(whole);
    if (match) out.push({ keyword: match[1]!.toUpperCase(), args: match[2]!.trim() });
  }
  return out;
}

/** A JSON exec form (`["a", "b"]`); the shell form is refused (it runs under `/bin/sh -c`). */
function execForm(keyword: string, args: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw new Error(`${keyword} must use the exec form ["…", …], not: ${args}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string")) {
    throw new Error(`${keyword} must be a JSON array of strings, not: ${args}`);
  }
  return parsed;
}

/** `KEY=value` pairs of one ENV instruction (values may be double-quoted). */
function envPairs(args: string): [string, string][] {
  const pairs: [string, string][] = [];
  const pattern = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)\s*/y;
  let at = 0;
  while (at < args.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(args);
    if (!match) throw new Error(`ENV takes KEY=value pairs, not: ${args.slice(at)}`);
    const value = match[2]!;
    pairs.push([match[1]!, value.startsWith('"') ? JSON.parse(value) : value]);
    at = pattern.lastIndex;
  }
  return pairs;
}

/** Reads the parts of a Dockerfile's text that the image's behaviour depends on. */
export function parseDockerfile(text: string): Dockerfile {
  const instructions = instructionsOf(text);
  const result: Dockerfile = {
    instructions,
    from: "",
    env: {},
    expose: [],
    entrypoint: [],
    cmd: [],
  };
  for (const { keyword, args } of instructions) {
    if (keyword === "FROM") {
      // A new stage starts afresh: only the last stage is the image.
      Object.assign(result, { from: args.split(/\s+/)[0]!, env: {}, expose: [], user: undefined });
    } else if (keyword === "ENV") {
      for (const [key, value] of envPairs(args)) result.env[key] = value;
    } else if (keyword === "USER") {
      result.user = args;
    } else if (keyword === "EXPOSE") {
      result.expose.push(...args.split(/\s+/).map((p) => Number(p.replace(/\/tcp$/, ""))));
    } else if (keyword === "ENTRYPOINT") {
      result.entrypoint = execForm(keyword, args);
    } else if (keyword === "CMD") {
      result.cmd = execForm(keyword, args);
    } else if (keyword === "HEALTHCHECK") {
      const options: Record<string, string> = {};
      let rest = args;
      for (let m; (m = /^--([a-z-]+)=(\S+)\s+/.exec(rest));) {
        options[m[1]!] = m[2]!;
        rest = rest.slice(m[0].length);
      }
      if (!rest.startsWith("CMD ")) throw new Error(`HEALTHCHECK needs CMD, not: ${rest}`);
      result.healthcheck = { options, command: execForm("HEALTHCHECK CMD", rest.slice(4)) };
    }
  }
  return result;
}

/** Reads and parses the project's Dockerfile. */
export async function readDockerfile(): Promise<Dockerfile> {
  return parseDockerfile(await Deno.readTextFile(DOCKERFILE));
}
