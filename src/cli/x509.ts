/**
 * Just enough of X.509 to say whose a client certificate is and until when:
 * the first `CERTIFICATE` block of a PEM file, read as DER, down to its
 * subject, issuer and validity. `check` shows them and warns before the
 * certificate expires; nothing here verifies a signature (the TLS handshake
 * does that, on the server's side).
 */

/** What a certificate says about itself, as `check` shows it. */
export interface CertificateSummary {
  /** The subject's names, most specific first: `CN=alice, O=Example Corp`. */
  subject: string;
  /** The issuer's names, likewise. */
  issuer: string;
  notBefore: Date;
  notAfter: Date;
}

/** A PEM or DER structure that is not a certificate, with what was wrong. */
export class CertificateFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CertificateFormatError";
  }
}

/** The attribute types a name is shown with; others are left out. */
const ATTRIBUTE_NAMES: Readonly<Record<string, string>> = {
  "2.5.4.3": "CN",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
};

/** One DER element: its tag, and where its contents lie. */
interface Element {
  tag: number;
  start: number;
  end: number;
}

/** The bytes of each PEM block labelled `label`, in file order. */
export function pemBlocks(text: string, label: string): Uint8Array[] {
  const pattern = new RegExp(`-----BEGIN ${label}-----([^-]*)-----END ${label}-----`, "g");
  return [...text.matchAll(pattern)].map((match) => {
    try {
      return Uint8Array.from(atob(match[1]!.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
    } catch {
      throw new CertificateFormatError(`a ${label} block is not valid base64`);
    }
  });
}

/** Reads the first certificate of a PEM text; throws {@link CertificateFormatError} when there is none. */
export function readCertificate(pem: string): CertificateSummary {
  const der = pemBlocks(pem, "CERTIFICATE")[0];
  if (der === undefined) throw new CertificateFormatError("no CERTIFICATE block");
  const certificate = children(der, element(der, 0, "a certificate"));
  const tbs = children(der, certificate[0] ?? missing("the certificate body"));
  // The version ([0], explicit) is absent in v1 certificates.
  const fields = tbs[0]?.tag === 0xa0 ? tbs.slice(1) : tbs;
  const [, , issuer, validity, subject] = fields;
  const [from, to] = children(der, validity ?? missing("the validity"));
  return {
    subject: nameOf(der, subject ?? missing("the subject")),
    issuer: nameOf(der, issuer ?? missing("the issuer")),
    notBefore: timeOf(der, from ?? missing("notBefore")),
    notAfter: timeOf(der, to ?? missing("notAfter")),
  };
}

function missing(what: string): never {
  throw new CertificateFormatError(`the certificate has no ${what}`);
}

/** The element at `offset`: tag, length (short or long form), contents within `der`. */
function element(der: Uint8Array, offset: number, what: string): Element {
  const tag = der[offset];
  let length = der[offset + 1];
  if (tag === undefined || length === undefined) missing(what);
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new CertificateFormatError(`${what} has a bad length`);
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[start + i] ?? missing(what));
    start += count;
  }
  const end = start + length;
  if (end > der.length) throw new CertificateFormatError(`${what} is cut short`);
  return { tag, start, end };
}

/** The elements inside a constructed one. */
function children(der: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = element(der, at, "an element");
    out.push(child);
    at = child.end;
  }
  return out;
}

/** A Name (a sequence of sets of type-value pairs) as `CN=…, O=…`, most specific first. */
function nameOf(der: Uint8Array, name: Element): string {
  const parts: string[] = [];
  for (const set of children(der, name)) {
    for (const pair of children(der, set)) {
      const [type, value] = children(der, pair);
      if (type?.tag !== 0x06 || value === undefined) continue;
      const label = ATTRIBUTE_NAMES[oidOf(der.subarray(type.start, type.end))];
      if (label) {
        parts.push(`${label}=${stringOf(value.tag, der.subarray(value.start, value.end))}`);
      }
    }
  }
  return parts.reverse().join(", ");
}

/** An OBJECT IDENTIFIER's contents in dotted form. */
function oidOf(bytes: Uint8Array): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    if (arcs.length === 0) arcs.push(value < 80 ? Math.floor(value / 40) : 2, value % 40);
    else arcs.push(value);
    value = 0;
  }
  return arcs.join(".");
}

/** A directory string as text, without control characters (BMPString is UTF-16). */
function stringOf(tag: number, bytes: Uint8Array): string {
  const text = tag === 0x1e
    ? new TextDecoder("utf-16be").decode(bytes)
    : new TextDecoder().decode(bytes);
  return text.replace(/\p{Cc}/gu, "");
}

/** A UTCTime (YYMMDDHHMMSSZ, 1950–2049) or GeneralizedTime (YYYYMMDDHHMMSSZ). */
function timeOf(der: Uint8Array, time: Element): Date {
  const text = new TextDecoder().decode(der.subarray(time.start, time.end));
  const match = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if ((time.tag !== 0x17 && time.tag !== 0x18) || !match) {
    throw new CertificateFormatError(`the certificate has an unreadable date (${text})`);
  }
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const year = time.tag === 0x17 ? (y! < 50 ? 2000 + y! : 1900 + y!) : y!;
  return new Date(Date.UTC(year, mo! - 1, d!, h!, mi!, s!));
}
