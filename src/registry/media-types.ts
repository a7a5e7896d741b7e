/** Manifest and blob media types, and the Accept list every manifest request sends. */

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
export const DOCKER_CONFIG = 'application/vnd.docker.container.image.v1+json';
export const IN_TOTO = 'application/vnd.in-toto+json';

/**
 * distribution 2.8 answers 404 MANIFEST_UNKNOWN for an OCI manifest or index when
 * Accept does not list its type, so every manifest request sends all four.
 */
export const MANIFEST_ACCEPT = [OCI_INDEX, OCI_MANIFEST, DOCKER_LIST, DOCKER_MANIFEST].join(', ');

export function isIndexType(mediaType: string | undefined): boolean {
  return mediaType === OCI_INDEX || mediaType === DOCKER_LIST;
}

export function isManifestType(mediaType: string | undefined): boolean {
  return mediaType === OCI_MANIFEST || mediaType === DOCKER_MANIFEST;
}
