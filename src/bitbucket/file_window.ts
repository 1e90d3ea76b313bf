/**
 * Reading a file's text by lines: splitting it with each line's terminator
 * kept (so a window is an exact slice of the file), and taking a window of
 * lines cut at a byte limit without splitting a character. Pure functions
 * over text already read, as `diff/unified.ts` is for diffs.
 */

/** The lines of `text`, each with its `\n` kept; a last line without one is a line too. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** A window of lines: its exact text, where it starts and ends, and whether max_bytes cut it. */
export interface LineWindow {
  content: string;
  /** 1-based number of the first line. */
  startLine: number;
  /** 1-based number of the last line shown, wholly or in part (startLine - 1 when none fitted). */
  endLine: number;
  /** The window was cut at the byte limit before its last line ended. */
  cut: boolean;
}

/**
 * Lines `start` to `start + count - 1` (1-based; to the last line when `count`
 * is absent) of `lines`, as one text of at most `maxBytes` UTF-8 bytes. A line
 * that does not fit whole is cut at a character boundary and ends the window.
 */
export function lineWindow(
  lines: readonly string[],
  start: number,
  count: number | undefined,
  maxBytes: number,
): LineWindow {
  const end = count === undefined ? lines.length : Math.min(lines.length, start - 1 + count);
  const encoder = new TextEncoder();
  let content = "";
  let used = 0;
  let shown = start - 1;
  for (let n = start; n <= end; n++) {
    const line = lines[n - 1]!;
    const bytes = encoder.encode(line);
    if (used + bytes.length > maxBytes) {
      // `stream` leaves out a character the cut would split.
      const part = new TextDecoder().decode(bytes.subarray(0, maxBytes - used), { stream: true });
      if (part !== "") shown = n;
      return { content: content + part, startLine: start, endLine: shown, cut: true };
    }
    content += line;
    used += bytes.length;
    shown = n;
  }
  return { content, startLine: start, endLine: shown, cut: false };
}
