/**
 * Keeping secrets out of output: URLs lose their userinfo and secret-looking
 * query values, and any text loses bearer/basic credentials and JWT-shaped strings.
 * Also a process-wide set of known secrets (passwords and tokens the client has
 * handled) that `redactText` scrubs wherever they appear.
 */

const SECRET_QUERY = /^(token|access_token|refresh_token|password|passwd|secret|x-amz-signature|sig|signature)$/i;
const knownSecrets = new Set<string>();

/** Register a secret so `redactText` removes it from any message. Short strings are ignored. */
export function rememberSecret(secret: string | undefined): void {
  if (secret && secret.length >= 4) knownSecrets.add(secret);
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    for (const key of [...u.searchParams.keys()]) {
      if (SECRET_QUERY.test(key)) u.searchParams.set(key, 'REDACTED');
    }
    return u.toString();
  } catch {
    return redactText(url);
  }
}

export function redactText(text: string): string {
  let out = text
    .replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, '$1 REDACTED')
    .replace(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, 'REDACTED-JWT')
    .replace(/(\/\/)[^/@\s]+:[^/@\s]+@/g, '$1');
  for (const s of knownSecrets) out = out.split(s).join('REDACTED');
  return out;
}
