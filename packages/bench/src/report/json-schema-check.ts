import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { jsonPointerAsPath, shortJson } from '@kreplay/native';

const compiled = new WeakMap<object, ValidateFunction>();

/** The validator of `schema`, compiled on first use. */
function validator(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = new Ajv({ allowUnionTypes: true, verbose: true }).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

const shown = (value: unknown) => shortJson(value, 40);

/** One schema error as `field what`, naming the field by its path in the document. */
function describeError(error: ErrorObject): string {
  const field = jsonPointerAsPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const at = field === '' ? 'the report' : field;
  switch (error.keyword) {
    case 'required':
      return `${field === '' ? '' : `${field}.`}${String(params['missingProperty'])} is missing`;
    case 'type':
      return `${at} is ${shown(error.data)}, not ${Array.isArray(params['type']) ? params['type'].join(' or ') : String(params['type'])}`;
    case 'minimum':
      return params['limit'] === 0 ? `${at} is negative (${shown(error.data)})` : `${at} is ${shown(error.data)}, below ${String(params['limit'])}`;
    case 'maximum':
      return `${at} is ${shown(error.data)}, above ${String(params['limit'])}`;
    case 'const':
      return `${at} is ${shown(error.data)}, not ${shown(params['allowedValue'])}`;
    case 'enum':
      return `${at} is ${shown(error.data)}, not one of ${(params['allowedValues'] as unknown[]).map(shown).join(', ')}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * The first way `value` breaks the JSON Schema `schema` (draft-07), naming the field by its path
 * (`rows[3].summary.meanDispatchMs is negative (-1)`, `dispatches[0].passes is missing`), or null
 * when it follows it. Every kreplay document schema (bench reports, profiles, the JSON of replay
 * and calibrate) is checked through this one function; each schema is compiled once.
 * @throws Error when `schema` itself is not a valid JSON Schema (a bug in the schema, not in the value).
 */
export function jsonSchemaProblem(schema: object, value: unknown): string | null {
  const validate = validator(schema);
  return validate(value) ? null : describeError(validate.errors![0]!);
}
