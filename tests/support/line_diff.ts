/**
 * A line diff for failure messages: what changed from `expected` to `actual`,
 * as `-` (only in expected) and `+` (only in actual) lines, with `context`
 * unchanged lines around each change and `@@ -a,+b @@` before each hunk (the
 * line numbers where it starts). Equal texts give "".
 */
export function diffLines(expected: string, actual: string, context = 2): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  // The longest common subsequence, by suffix lengths: lcs[i][j] covers a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j]
        ? lcs[i + 1]![j + 1]! + 1
        : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  type Line = { mark: " " | "-" | "+"; text: string; at: [number, number] };
  const lines: Line[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const at: [number, number] = [i + 1, j + 1];
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: " ", text: a[i++]!, at });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      lines.push({ mark: "-", text: a[i++]!, at });
    } else {
      lines.push({ mark: "+", text: b[j++]!, at });
    }
  }
  const shown = lines.map((_, k) =>
    lines.slice(Math.max(0, k - context), k + context + 1).some((l) => l.mark !== " ")
  );
  const out: string[] = [];
  lines.forEach((line, k) => {
    if (!shown[k]) return;
    if (k === 0 || !shown[k - 1]) out.push(`@@ -${line.at[0]},+${line.at[1]} @@`);
    out.push(`${line.mark} ${line.text}`);
  });
  return out.join("\n");
}

/**
 * The failure for a generated file that differs from what `deno task
 * generate` writes: the file, the fix, and the diff from what it holds
 * (`saved`, the `-` lines) to what the command writes (`current`, `+`).
 */
export function staleFile(file: string, saved: string, current: string): string {
  return `${file} is stale: run \`deno task generate\` (- the file, + what it writes)\n${
    diffLines(saved, current)
  }`;
}
