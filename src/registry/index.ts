/** The registry area: an OCI distribution client and provenance read from images. */
export * from './client.js';
export * from './errors.js';
export * from './provenance.js';
export * from './write.js';
export { redactText, redactUrl } from './redact.js';
export { sha256Digest } from './digest.js';
export { MANIFEST_ACCEPT } from './media-types.js';
export { MAX_JSON_BLOB_BYTES, MAX_MANIFEST_BYTES } from './body.js';
export { MAX_REDIRECTS } from './redirect.js';
