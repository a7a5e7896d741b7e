/** Parse a `WWW-Authenticate` header: `Bearer realm="…",service="…",scope="…",error="…"` or `Basic realm="…"`. */

export interface Challenge {
  scheme: 'bearer' | 'basic' | 'other';
  params: Record<string, string>;
}

export function parseChallenge(header: string | null): Challenge | undefined {
  if (!header) return undefined;
  const m = /^\s*(\w+)\s*(.*)$/s.exec(header);
  if (!m) return undefined;
  const scheme = m[1]!.toLowerCase();
  const params: Record<string, string> = {};
  const re = /(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (let p = re.exec(m[2] ?? ''); p; p = re.exec(m[2] ?? '')) {
    params[p[1]!.toLowerCase()] = (p[2] ?? p[3] ?? '').replace(/\\(.)/g, '$1');
  }
  return { scheme: scheme === 'bearer' ? 'bearer' : scheme === 'basic' ? 'basic' : 'other', params };
}
