/**
 * Token scrubbing for everything that leaves the client as text (error messages, debug lines, URLs).
 * Sanctum tokens look like "<id>|<secret>"; the secret part alone is just as sensitive, so both the whole
 * token and its secret part are replaced.
 */
const REDACTED = "[REDACTED]";

/** The strings that must never appear in output for a given token, longest first so a whole token wins. */
export function secretsOf(token: string): string[] {
  const secrets = new Set<string>();
  if (token.length > 0) secrets.add(token);
  const bar = token.indexOf("|");
  if (bar >= 0 && token.length - bar - 1 >= 8) secrets.add(token.slice(bar + 1));
  // As it would appear inside a URL.
  for (const secret of [...secrets]) secrets.add(encodeURIComponent(secret));
  return [...secrets].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  // Any bearer credential, even one we were not told about (e.g. echoed by a proxy).
  return out.replace(/(Bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`);
}
