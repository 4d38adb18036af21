/**
 * Keeping secrets out of everything longhaul writes or prints: credentials inside URLs
 * (`https://user:pass@host`, `?api_key=...`), secret command-line options and known secret
 * values (API keys), and text made printable before it reaches a terminal. Imports nothing, so
 * the CLI's startup path can use it.
 */

/** What a secret is replaced with. */
export const REDACTED = "***";

/** Secrets shorter than this are not searched for in text (they would match ordinary words). */
const MIN_SECRET_LENGTH = 6;

/** `scheme://user:pass@` or `scheme://token@`: the user-info part of a URL. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/** Query parameters that carry credentials (`?key=`, `&api_key=`, `&token=`, ...). */
const URL_SECRET_PARAM =
  /([?&](?:api[-_]?key|key|token|access[-_]?token|auth|secret|password|passwd|sig|signature)=)[^&\s"'#<>]+/gi;

/** Text with the credentials inside any URL it holds replaced. */
export function redactUrls(text: string): string {
  return text.replace(URL_USERINFO, `$1${REDACTED}@`).replace(URL_SECRET_PARAM, `$1${REDACTED}`);
}

/** The credentials a URL carries (user name, password, secret query values), to redact elsewhere. */
export function urlSecrets(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/([^\s/?#@"'<>]+)@/gi)) {
    for (const part of (match[1] ?? "").split(":")) out.push(safeDecode(part));
  }
  for (const match of text.matchAll(URL_SECRET_PARAM)) {
    out.push(safeDecode(match[0].slice(match[1]?.length ?? 0)));
  }
  return out.filter((s) => s.length > 0);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Replaces known secret values and URL credentials in text. Every writer of a run directory
 * and every line the CLI prints passes through one.
 */
export class Redactor {
  private secrets: string[] = [];

  constructor(secrets: Iterable<string> = []) {
    this.add(...secrets);
  }

  /** Add secret values (long enough to search for; longest replaced first). */
  add(...values: (string | undefined)[]): this {
    for (const value of values) {
      if (value === undefined || value.length < MIN_SECRET_LENGTH) continue;
      if (!this.secrets.includes(value)) this.secrets.push(value);
    }
    this.secrets.sort((a, b) => b.length - a.length);
    return this;
  }

  /** Text with every known secret and every URL credential replaced. */
  text(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return redactUrls(out);
  }
}

/** Non-printable characters: C0/C1 controls, DEL, lone surrogates, bidi controls, U+FFFD. */
const NON_PRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text safe to show on a terminal: control characters, lone surrogates, bidi overrides and
 * replacement characters escaped as `\xNN` / `\uNNNN`; cut to `max` code points with "...".
 */
export function printable(text: string, max = Number.POSITIVE_INFINITY): string {
  // Cut between code points, never inside a surrogate pair.
  const cut =
    text.length > max
      ? `${Array.from(text.slice(0, max + 1))
          .slice(0, max)
          .join("")}...`
      : text;
  return cut.replace(NON_PRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
