/**
 * Generate the JSON Schema (draft-07) of pinwatch.yaml from CONFIG_SPEC.
 * schemas/pinwatch-config.schema.json is this function's output; a test keeps them equal.
 */
import type { FieldSpec } from './spec.js';
import { CONFIG_SPEC } from './spec.js';

type JsonSchema = Record<string, unknown>;

function fieldSchema(spec: FieldSpec): JsonSchema {
  switch (spec.kind) {
    case 'string': {
      const s: JsonSchema = { type: 'string', description: spec.description, minLength: 1 };
      if (spec.pattern) s.pattern = spec.pattern.source;
      return s;
    }
    case 'boolean':
      return { type: 'boolean', description: spec.description };
    case 'enum':
      return { type: 'string', description: spec.description, enum: [...spec.values] };
    case 'list':
      return { type: 'array', description: spec.description, items: fieldSchema(spec.item) };
    case 'object': {
      const s: JsonSchema = {
        type: 'object',
        description: spec.description,
        additionalProperties: false,
        properties: Object.fromEntries(Object.entries(spec.fields).map(([k, f]) => [k, fieldSchema(f)])),
      };
      if (spec.required) s.required = spec.required;
      if (spec.shorthand) return { description: spec.description, anyOf: [s, fieldSchema(spec.fields[spec.shorthand]!)] };
      return s;
    }
    case 'map': {
      const s: JsonSchema = { type: 'object', description: spec.description, additionalProperties: fieldSchema(spec.value) };
      if (spec.keyPattern) s.propertyNames = { pattern: spec.keyPattern.source };
      if (spec.knownKeys) s.propertyNames = { ...(s.propertyNames as JsonSchema | undefined), enum: [...spec.knownKeys()] };
      return s;
    }
  }
}

export function configJsonSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'pinwatch.yaml',
    ...fieldSchema(CONFIG_SPEC),
  };
}
