/**
 * The endpoints a tool owns, derived from its contract entry: each contract
 * request's path with the parts that came from arguments made wildcards (one
 * segment for a single-segment value, any number for a value with `/`).
 * Anything a tool requests must match one of them.
 */
import type { ContractCase } from "../../testing/cases/types.ts";

/** A wildcard in place of an argument: one segment (possibly with a literal suffix such as `.diff`) or several. */
type Wild = { span: "one"; suffix: string } | { span: "many" };
type Token = string | Wild;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The segments an argument value becomes in a path (a value with `/` spans several). */
function valueSegments(value: unknown): string[] | undefined {
  if (typeof value === "number") return [String(value)];
  if (typeof value !== "string" || value === "") return undefined;
  return value.split("/").map(encodeURIComponent);
}

/** Replaces each run of segments equal to `run` (a lone segment may carry a `.suffix`) with a wildcard. */
function replaceRun(tokens: Token[], run: string[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length;) {
    const token = tokens[i]!;
    if (run.length === 1 && typeof token === "string" && token.startsWith(`${run[0]}.`)) {
      out.push({ span: "one", suffix: token.slice(run[0]!.length) });
      i++;
    } else if (run.every((segment, k) => tokens[i + k] === segment)) {
      out.push(run.length > 1 ? { span: "many" } : { span: "one", suffix: "" });
      i += run.length;
    } else {
      out.push(token);
      i++;
    }
  }
  return out;
}

function tokenPattern(token: Token): string {
  if (typeof token === "string") return escape(token);
  return token.span === "many" ? "[^/]+(?:/[^/]+)*" : `[^/]+${escape(token.suffix)}`;
}

/**
 * Patterns matching every path the tool may request: the contract paths with
 * argument parts as wildcards, and possibly more segments after them (where an
 * optional argument, such as a file path, extends the endpoint).
 */
export function ownedPathPatterns(contract: ContractCase): RegExp[] {
  const runs = Object.values(contract.args)
    .map(valueSegments)
    .filter((run): run is string[] => run !== undefined)
    .sort((a, b) => b.length - a.length);
  return contract.requests.map(({ path }) => {
    let tokens: Token[] = path.split("/");
    for (const run of runs) tokens = replaceRun(tokens, run);
    return new RegExp(`^${tokens.map(tokenPattern).join("/")}(?:/[^/]+)*$`);
  });
}

/** True when a path segment, once decoded, is empty, `.` or `..` (which URL normalisation would act on). */
export function hasDotSegment(path: string): boolean {
  return path.split("/").slice(1).some((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    return decoded === "" || decoded === "." || decoded === "..";
  });
}
