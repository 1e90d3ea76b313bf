/**
 * The operating system's keyring, through the command-line tool each system
 * ships (no native module): the Secret Service via `secret-tool` on Linux,
 * the Keychain via `security` on macOS, the Credential Manager via
 * PowerShell on Windows. The session goes to the tool on its standard input,
 * never in its arguments (which show in process lists), base64-encoded so no
 * quoting can break it; it comes back on standard output.
 */
import { parseSession, serializeSession, type Session } from "./session.ts";
import type { SessionStore } from "./store.ts";

/** The service (or target prefix) sessions are kept under. */
export const KEYRING_SERVICE = "bitbucket-mcp";

/** What one run of a tool gave back. */
export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program with arguments and text on its standard input; throws as
 * `Deno.Command` does (`NotFound` for a missing program, `NotCapable`
 * without `--allow-run`).
 */
export type Runner = (program: string, args: string[], stdin: string) => Promise<ToolRun>;

/** Runs the program as a child process. */
export const runTool: Runner = async (program, args, stdin) => {
  const child = new Deno.Command(program, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
};

/** A keyring that answered with an error (no Secret Service running, a locked keychain, …). */
export class KeyringUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyringUnavailable";
  }
}

/** One system's tool: how it stores, finds and clears a secret. */
export interface KeyringTool {
  /** The program, as `--allow-run` names it. */
  program: string;
  /** The keyring in words. */
  name: string;
  store(account: string, secret: string): { args: string[]; stdin: string };
  lookup(account: string): { args: string[]; stdin: string };
  clear(account: string): { args: string[]; stdin: string };
  /** Whether a run's answer means "no such item" (rather than a failure). */
  missing(run: ToolRun): boolean;
}

/** Linux: the Secret Service (GNOME Keyring, KWallet, KeePassXC) through libsecret's `secret-tool`. */
export const SECRET_TOOL: KeyringTool = {
  program: "secret-tool",
  name: "the Secret Service keyring (secret-tool)",
  store: (account, secret) => ({
    args: [
      "store",
      `--label=${KEYRING_SERVICE}: ${account}`,
      "service",
      KEYRING_SERVICE,
      "account",
      account,
    ],
    stdin: secret,
  }),
  lookup: (account) => ({
    args: ["lookup", "service", KEYRING_SERVICE, "account", account],
    stdin: "",
  }),
  clear: (account) => ({
    args: ["clear", "service", KEYRING_SERVICE, "account", account],
    stdin: "",
  }),
  // An error (no Secret Service on the bus) exits 1 too, but says why on stderr.
  missing: (run) => run.code === 1 && run.stderr.trim() === "",
};

/** macOS: the login Keychain through `security`; the add runs in its interactive mode, read from stdin. */
export const MAC_SECURITY: KeyringTool = {
  program: "security",
  name: "the macOS Keychain (security)",
  store: (account, secret) => ({
    args: ["-i"],
    stdin: `add-generic-password -U -s ${quote(KEYRING_SERVICE)} -a ${quote(account)} -l ${
      quote(KEYRING_SERVICE)
    } -w ${quote(secret)}\n`,
  }),
  lookup: (account) => ({
    args: ["find-generic-password", "-s", KEYRING_SERVICE, "-a", account, "-w"],
    stdin: "",
  }),
  clear: (account) => ({
    args: ["delete-generic-password", "-s", KEYRING_SERVICE, "-a", account],
    stdin: "",
  }),
  // errSecItemNotFound; `security` says so on stderr as well.
  missing: (run) => run.code === 44,
};

/** The Credential Manager calls PowerShell makes (advapi32, through .NET's P/Invoke). */
const CREDENTIALS_TYPE = `Add-Type -TypeDefinition @'
using System; using System.Runtime.InteropServices; using System.Text;
public static class BitbucketMcpCredential {
  [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
  public struct CREDENTIAL { public int Flags; public int Type; public string TargetName; public string Comment;
    public System.Runtime.InteropServices.ComTypes.FILETIME LastWritten; public int CredentialBlobSize;
    public IntPtr CredentialBlob; public int Persist; public int AttributeCount; public IntPtr Attributes;
    public string TargetAlias; public string UserName; }
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)] static extern bool CredWrite(ref CREDENTIAL c, int f);
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)] static extern bool CredRead(string t, int y, int f, out IntPtr c);
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)] static extern bool CredDelete(string t, int y, int f);
  [DllImport("advapi32.dll")] static extern void CredFree(IntPtr c);
  public static void Write(string target, string secret) {
    byte[] b = Encoding.UTF8.GetBytes(secret); CREDENTIAL c = new CREDENTIAL();
    c.Type = 1; c.TargetName = target; c.UserName = "${KEYRING_SERVICE}"; c.Persist = 2;
    c.CredentialBlobSize = b.Length; c.CredentialBlob = Marshal.AllocHGlobal(b.Length);
    try { Marshal.Copy(b, 0, c.CredentialBlob, b.Length);
      if (!CredWrite(ref c, 0)) throw new System.ComponentModel.Win32Exception(Marshal.GetLastWin32Error()); }
    finally { Marshal.FreeHGlobal(c.CredentialBlob); } }
  public static string Read(string target) {
    IntPtr p; if (!CredRead(target, 1, 0, out p)) { int e = Marshal.GetLastWin32Error();
      if (e == 1168) return null; throw new System.ComponentModel.Win32Exception(e); }
    try { CREDENTIAL c = (CREDENTIAL)Marshal.PtrToStructure(p, typeof(CREDENTIAL));
      byte[] b = new byte[c.CredentialBlobSize]; Marshal.Copy(c.CredentialBlob, b, 0, b.Length);
      return Encoding.UTF8.GetString(b); } finally { CredFree(p); } }
  public static bool Delete(string target) { if (CredDelete(target, 1, 0)) return true;
    int e = Marshal.GetLastWin32Error(); if (e == 1168) return false; throw new System.ComponentModel.Win32Exception(e); }
}
'@
`;

/** A PowerShell script as `-EncodedCommand` takes it (UTF-16LE, base64); it holds no secret. */
function encodedPowerShell(script: string): string[] {
  const units = new Uint8Array(script.length * 2);
  for (let i = 0; i < script.length; i++) {
    const code = script.charCodeAt(i);
    units[i * 2] = code & 0xff;
    units[i * 2 + 1] = code >> 8;
  }
  let binary = "";
  for (const byte of units) binary += String.fromCharCode(byte);
  return ["-NoProfile", "-NonInteractive", "-EncodedCommand", btoa(binary)];
}

/** Windows: the Credential Manager (a generic credential), through PowerShell; the secret on stdin. */
export const WINDOWS_CREDENTIALS: KeyringTool = {
  program: "powershell",
  name: "the Windows Credential Manager (powershell)",
  store: (account, secret) => ({
    args: encodedPowerShell(
      `$ErrorActionPreference = 'Stop'\n${CREDENTIALS_TYPE}[BitbucketMcpCredential]::Write(${
        psQuote(`${KEYRING_SERVICE}:${account}`)
      }, [Console]::In.ReadToEnd())\n`,
    ),
    stdin: secret,
  }),
  lookup: (account) => ({
    args: encodedPowerShell(
      `$ErrorActionPreference = 'Stop'\n${CREDENTIALS_TYPE}$s = [BitbucketMcpCredential]::Read(${
        psQuote(`${KEYRING_SERVICE}:${account}`)
      })\nif ($null -eq $s) { exit 3 }\n[Console]::Out.Write($s)\n`,
    ),
    stdin: "",
  }),
  clear: (account) => ({
    args: encodedPowerShell(
      `$ErrorActionPreference = 'Stop'\n${CREDENTIALS_TYPE}if (-not [BitbucketMcpCredential]::Delete(${
        psQuote(`${KEYRING_SERVICE}:${account}`)
      })) { exit 3 }\n`,
    ),
    stdin: "",
  }),
  missing: (run) => run.code === 3,
};

/** The keyring tool of an operating system, if it has one this program speaks to. */
export function keyringToolFor(os: typeof Deno.build.os): KeyringTool | undefined {
  if (os === "linux") return SECRET_TOOL;
  if (os === "darwin") return MAC_SECURITY;
  if (os === "windows") return WINDOWS_CREDENTIALS;
  return undefined;
}

/** Sessions in the keyring, each under its Bitbucket's base URL. */
export class KeyringSessionStore implements SessionStore {
  readonly where: string;
  readonly #tool: KeyringTool;
  readonly #run: Runner;

  constructor(tool: KeyringTool, run: Runner = runTool) {
    this.#tool = tool;
    this.#run = run;
    this.where = tool.name;
  }

  async load(url: string): Promise<Session | undefined> {
    const { args, stdin } = this.#tool.lookup(url);
    const answer = await this.#call(args, stdin, true);
    if (answer === undefined) return undefined;
    let text: string;
    try {
      text = new TextDecoder().decode(
        Uint8Array.from(atob(answer.trim()), (c) => c.charCodeAt(0)),
      );
    } catch {
      return undefined;
    }
    const session = parseSession(text);
    return session?.url === url ? session : undefined;
  }

  async save(session: Session): Promise<void> {
    const bytes = new TextEncoder().encode(serializeSession(session));
    const { args, stdin } = this.#tool.store(session.url, btoa(String.fromCharCode(...bytes)));
    await this.#call(args, stdin, false);
  }

  async remove(url: string): Promise<boolean> {
    const { args, stdin } = this.#tool.clear(url);
    return (await this.#call(args, stdin, true)) !== undefined;
  }

  /** The tool's output; undefined for "no such item" where that is allowed; throws otherwise. */
  async #call(args: string[], stdin: string, mayMiss: boolean): Promise<string | undefined> {
    const run = await this.#run(this.#tool.program, args, stdin);
    if (run.code === 0) return run.stdout;
    if (mayMiss && this.#tool.missing(run)) return undefined;
    const said = run.stderr.trim().split("\n")[0]?.slice(0, 200) || `exit status ${run.code}`;
    throw new KeyringUnavailable(`${this.#tool.program} failed: ${said}`);
  }
}

/** A value as `security -i` reads one: double-quoted, with backslashes and quotes escaped. */
function quote(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** A PowerShell single-quoted string. */
function psQuote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
