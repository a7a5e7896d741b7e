/**
 * Markers: what the expander leaves where it cannot know a value (`$(shell …)`,
 * `$(wildcard …)`, unsupported functions), e.g. `⟨shell git describe⟩`. A
 * marker is one inert word: its delimiters are not shell or Make syntax, its
 * inner blanks are no-break spaces, and characters the shell or Make would act
 * on (quotes, `$`, parentheses, `;|&<>\`, and `/` so path functions do not split it) are replaced by look-alikes, so word
 * functions, shell tokenising and a later `$(eval)` all keep it whole.
 */

const OPEN = '⟨';
const CLOSE = '⟩';
const NBSP = '\u00a0';
const LOOK_ALIKE: Record<string, string> = { "'": '’', '"': '”', '`': 'ʼ', $: '¤', '(': '❨', ')': '❩', '{': '❴', '}': '❵', '#': '♯', '\\': '∖', ';': '·', '|': '¦', '&': '＆', '<': '‹', '>': '›', '/': '∕' };

export function marker(kind: string, detail = ''): string {
  const body = detail
    .trim()
    .replace(/\s+/g, NBSP)
    .replace(/['"`$(){}#\\;|&<>/]/g, (c) => LOOK_ALIKE[c] ?? c);
  const short = body.length > 80 ? `${body.slice(0, 77)}…` : body;
  return `${OPEN}${kind}${short ? NBSP + short : ''}${CLOSE}`;
}

export function hasMarker(text: string): boolean {
  return text.includes(OPEN) && text.includes(CLOSE);
}

const ORIGINAL: Record<string, string> = Object.fromEntries(Object.entries(LOOK_ALIKE).map(([c, l]) => [l, c]));
const LOOK_ALIKES = new RegExp(`[${Object.values(LOOK_ALIKE).join('')}]`, 'g');

/** Markers rendered for people: ordinary spaces and the original characters back inside each `⟨…⟩`. */
export function readableMarkers(text: string): string {
  return text.replace(/⟨[^⟩]*⟩/g, (m) => m.replace(/\u00a0/g, ' ').replace(LOOK_ALIKES, (c) => ORIGINAL[c] ?? c));
}

/**
 * Whether `text`, with each marker standing for any value (empty too), can equal `plain` (no marker).
 * False decides a condition a marker alone could not: `ghcr.io/⟨expr env.OWNER⟩` is never `""`.
 */
export function couldEqual(text: string, plain: string): boolean {
  if (!hasMarker(text)) return text === plain;
  const pattern = text
    .split(/⟨[^⟩]*⟩/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${pattern}$`).test(plain);
}
