/**
 * Opening a page in the person's browser, through the system's opener
 * (`xdg-open` on Linux, `open` on macOS, `rundll32`'s URL handler on
 * Windows), when `--allow-run` permits it. Without the permission, or when
 * the opener fails, nothing happens: the page's address is printed anyway.
 */

/** The opener of an operating system and the arguments before the URL. */
export function openerFor(
  os: typeof Deno.build.os,
): { program: string; args: string[] } | undefined {
  if (os === "linux") return { program: "xdg-open", args: [] };
  if (os === "darwin") return { program: "open", args: [] };
  if (os === "windows") return { program: "rundll32", args: ["url.dll,FileProtocolHandler"] };
  return undefined;
}

/** How long the opener may take before it is taken to have opened the page. */
const OPENER_WAIT_MS = 3000;

/** Opens `url`; true when the opener ran and did not fail. */
export async function openBrowser(url: URL, os = Deno.build.os): Promise<boolean> {
  const opener = openerFor(os);
  if (opener === undefined) return false;
  const permitted = Deno.permissions.querySync({ name: "run", command: opener.program });
  if (permitted.state !== "granted") return false;
  try {
    const child = new Deno.Command(opener.program, {
      args: [...opener.args, url.href],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      child.status.then((s) => s.success),
      new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(true), OPENER_WAIT_MS)),
    ]);
    clearTimeout(timer);
    child.unref();
    return waited;
  } catch {
    return false;
  }
}
