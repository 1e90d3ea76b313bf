/** Writing for a person on stdout and stderr, never on the JSON-RPC channel while serving. */

const encoder = new TextEncoder();

/** Writes a line to stdout: only for commands that print for a person, never while serving. */
export function writeOut(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text.endsWith("\n") ? text : text + "\n"));
}

/** Writes a line to stderr: diagnostics, which must never touch the JSON-RPC channel. */
export function writeErr(text: string): void {
  Deno.stderr.writeSync(encoder.encode(text.endsWith("\n") ? text : text + "\n"));
}
