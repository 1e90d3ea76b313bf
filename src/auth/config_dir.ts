/**
 * Where this program keeps a person's own files: `$XDG_CONFIG_HOME/bitbucket-mcp`
 * (else `~/.config/bitbucket-mcp`) on Linux and macOS, `%APPDATA%\bitbucket-mcp`
 * on Windows. The profiles file lives there, and the signed-in sessions
 * where no keyring can keep them.
 */

/** The variables the user's config directory is read from; an unreadable one counts as unset. */
export type HomeVariable = "HOME" | "XDG_CONFIG_HOME" | "APPDATA";

/** The directory, or undefined when the variables it comes from are unset (or not permitted). */
export function configDir(
  env: (name: HomeVariable) => string | undefined,
  os: typeof Deno.build.os = Deno.build.os,
): string | undefined {
  if (os === "windows") {
    const appData = env("APPDATA");
    return appData ? `${appData.replace(/[\\/]+$/, "")}\\bitbucket-mcp` : undefined;
  }
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg && xdg.startsWith("/")) return `${xdg.replace(/\/+$/, "")}/bitbucket-mcp`;
  const home = env("HOME");
  return home ? `${home.replace(/\/+$/, "")}/.config/bitbucket-mcp` : undefined;
}

/** `name` inside `dir`, with the platform's separator. */
export function inDir(dir: string, name: string, os: typeof Deno.build.os = Deno.build.os): string {
  return `${dir}${os === "windows" ? "\\" : "/"}${name}`;
}
