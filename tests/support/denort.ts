/**
 * Whether `deno compile` can build here without the network. It needs the
 * runtime it embeds (denort): DENORT_BIN names one, or the archive Deno
 * downloads on first use is already in DENO_DIR. Nothing is downloaded or
 * probed over the network to find out.
 */

/** Where denort would come from, or why compiling cannot work here. */
export type CompileRuntime = { available: true; from: string } | { available: false };

/** The archive `deno compile` caches for this Deno version and machine. */
function archivePath(denoDir: string): string {
  return `${denoDir}/dl/release/v${Deno.version.deno}/denort-${Deno.build.target}.zip`;
}

/** Looks for denort: DENORT_BIN, else the cached archive (checked by a child with read access to that one file). */
export function compileRuntime(): CompileRuntime {
  const bin = Deno.env.get("DENORT_BIN");
  if (bin) return { available: true, from: `DENORT_BIN=${bin}` };
  const info = new Deno.Command("deno", { args: ["info", "--json"], stdin: "null", stderr: "null" })
    .outputSync();
  if (!info.success) return { available: false };
  const { denoDir } = JSON.parse(new TextDecoder().decode(info.stdout)) as { denoDir: string };
  const archive = archivePath(denoDir);
  const probe = new Deno.Command("deno", {
    args: [
      "run",
      "--no-prompt",
      "--no-config",
      `--allow-read=${archive}`,
      new URL("./file_exists.ts", import.meta.url).pathname,
      archive,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).outputSync();
  return probe.success ? { available: true, from: archive } : { available: false };
}
