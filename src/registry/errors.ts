/**
 * Typed registry errors. Every failure the registry client can meet becomes a
 * RegistryError with a stable `code`, the HTTP status, the registry's own error
 * codes from the JSON body, and the URL with credentials and tokens redacted.
 */
import { PinwatchError, type REGISTRY_ERROR_CODES } from '../errors.js';
import { redactText, redactUrl } from './redact.js';

/** The registry's codes: their own closed subset of PinwatchErrorCode (the list lives in src/errors.ts). */
export type RegistryErrorCode = (typeof REGISTRY_ERROR_CODES)[number];

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
