/**
 * BuildKit's automatic platform ARGs in a stage reference: a FROM line has them without declaring
 * them, and a stage that declares one (`ARG TARGETARCH`) gets it; their value is known only per
 * platform built, so `binaries-$TARGETOS` (docker/buildx) names one stage per platform.
 */
const PLATFORM_ARGS = 'TARGETPLATFORM|TARGETOS|TARGETARCH|TARGETVARIANT|BUILDPLATFORM|BUILDOS|BUILDARCH|BUILDVARIANT';
const PLATFORM_REF = new RegExp(`\\$(?:\\{(?:${PLATFORM_ARGS})\\}|(?:${PLATFORM_ARGS})(?![A-Za-z0-9_]))`, 'g');

/**
 * The indexes of `names` (stage names, lower-cased) that `ref` can be when it spells a platform ARG
 * with no value and nothing else unknown: each such ARG stands for one word of a name. Empty otherwise.
 */
export function platformNamed(ref: string, names: readonly (string | undefined)[]): number[] {
  const literal = ref.replace(PLATFORM_REF, '\0').toLowerCase();
  if (!literal.includes('\0') || literal.includes('$')) return [];
  const pattern = new RegExp(`^${literal.split('\0').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[a-z0-9._-]+')}$`);
  return names.flatMap((name, i) => (name !== undefined && pattern.test(name) ? [i] : []));
}
