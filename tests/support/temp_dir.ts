/**
 * Temporary directories for tests, always under /tmp: the one place the test
 * task may write (`--allow-write=/tmp`), whatever TMPDIR says.
 */
export const TEMP_ROOT = "/tmp";

/** A fresh, empty directory under {@link TEMP_ROOT}, removed (if still there) on dispose. */
export async function tempDir(prefix: string): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ dir: TEMP_ROOT, prefix: `bitbucket-mcp-${prefix}-` });
  return {
    path,
    async [Symbol.asyncDispose]() {
      try {
        await Deno.remove(path, { recursive: true });
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    },
  };
}
