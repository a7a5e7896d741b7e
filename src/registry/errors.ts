/**
 * Typed registry errors. Every failure the registry client can meet becomes a
 * RegistryError with a stable `code`, the HTTP status, the registry's own error
 * codes from the JSON body, and the URL with credentials and tokens redacted.
 */
import { PinwatchError } from '../errors.js';
import { redactText, redactUrl } from './redact.js';

export type RegistryErrorCode =
  | 'registry-unreachable'
  | 'registry-timeout'
  | 'registry-http-error'
  | 'registry-retries-exhausted'
  | 'unauthorized'
  | 'insufficient-scope'
  | 'token-error'
  | 'manifest-unknown'
  | 'blob-unknown'
  | 'name-unknown'
  | 'digest-mismatch'
  | 'bad-manifest'
  | 'manifest-too-large'
  | 'blob-too-large'
  | 'response-too-large'
  | 'redirect-refused'
  | 'insecure-registry'
  | 'bad-credentials-file';

export interface RegistryErrorDetail {
  status?: number;
  url?: string;
  registryCodes?: string[];
}

export class RegistryError extends PinwatchError {
  override readonly code: RegistryErrorCode;
  readonly status?: number;
  readonly url?: string;
  readonly registryCodes: string[];

  constructor(code: RegistryErrorCode, message: string, detail: RegistryErrorDetail = {}, options?: { cause?: unknown }) {
    const url = detail.url === undefined ? undefined : redactUrl(detail.url);
    super(code, redactText(message), {}, options);
    this.name = 'RegistryError';
    this.code = code;
    this.status = detail.status;
    this.url = url;
    this.registryCodes = detail.registryCodes ?? [];
  }
}

export function isRegistryError(e: unknown): e is RegistryError {
  return e instanceof RegistryError;
}

/** Registry error codes and messages from a distribution JSON error body (`{errors:[{code,message}]}`). */
export function parseRegistryErrors(body: string): { codes: string[]; messages: string[] } {
  try {
    const parsed = JSON.parse(body) as { errors?: { code?: unknown; message?: unknown }[] };
    const errors = Array.isArray(parsed.errors) ? parsed.errors : [];
    return {
      codes: errors.map((e) => String(e.code ?? '')).filter(Boolean),
      messages: errors.map((e) => String(e.message ?? '')).filter(Boolean),
    };
  } catch {
    return { codes: [], messages: [] };
  }
}
