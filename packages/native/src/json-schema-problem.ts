/**
 * The first way a JSON document breaks its JSON Schema, as a field and what is wrong with it: the
 * one formatter of schema errors behind every kreplay document reader (capture folders here,
 * reports and profiles in @kreplay/bench).
 */
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { jsonPointerAsPath, shortJson } from './json-field-path.js';

/** A field of a JSON document (`rows[3].summary`, or `` for the document itself) and what is wrong with it. */
export interface JsonFieldProblem {
  readonly field: string;
  readonly problem: string;
}

/** How many characters of a value a message shows before `...`. */
const VALUE_LIMIT = 48;
const shown = (value: unknown) => shortJson(value, VALUE_LIMIT);

/** Per schema document: its Ajv instance and its validators by definition (`` for the document). */
const compiled = new WeakMap<object, { readonly ajv: Ajv; readonly validators: Map<string, ValidateFunction> }>();

function validatorOf(schema: object, definition: string | undefined): ValidateFunction {
  let entry = compiled.get(schema);
  if (entry === undefined) {
    entry = { ajv: new Ajv({ allowUnionTypes: true, verbose: true }), validators: new Map() };
    compiled.set(schema, entry);
  }
  const key = definition ?? '';
  let validate = entry.validators.get(key);
  if (validate === undefined) {
    if (definition === undefined) {
      validate = entry.ajv.compile(schema);
    } else {
      const id = (schema as { readonly $id?: unknown }).$id;
      if (typeof id !== 'string') throw new Error(`[native] [json-schema] a schema without $id has no addressable definition ${definition}. Give the schema an $id.`);
      if (entry.ajv.getSchema(id) === undefined) entry.ajv.addSchema(schema);
      validate = entry.ajv.getSchema(`${id}#/definitions/${definition}`);
      if (validate === undefined) throw new Error(`[native] [json-schema] the schema ${id} has no definition ${definition}. Name one of its definitions.`);
    }
    entry.validators.set(key, validate);
  }
  return validate;
}

/** One Ajv error (compiled with `verbose`) as the field it names and what is wrong with its value. */
export function describeJsonSchemaError(error: ErrorObject): JsonFieldProblem {
  const field = jsonPointerAsPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const value = `is ${shown(error.data)}`;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params['missingProperty']);
      return { field: field === '' ? missing : `${field}.${missing}`, problem: 'is missing' };
    }
    case 'type': {
      const type = params['type'];
      return { field, problem: `${value}, not ${Array.isArray(type) ? type.join(' or ') : String(type)}` };
    }
    case 'const':
      return { field, problem: `${value}, not ${shown(params['allowedValue'])}` };
    case 'enum':
      return { field, problem: `${value}, not one of ${(params['allowedValues'] as unknown[]).map(shown).join(', ')}` };
    case 'minimum':
      return { field, problem: params['limit'] === 0 ? `is negative (${shown(error.data)})` : `${value}, below ${String(params['limit'])}` };
    case 'maximum':
      return { field, problem: `${value}, above ${String(params['limit'])}` };
    case 'pattern':
      return { field, problem: `${value}, which does not match ${String(params['pattern'])}` };
    default:
      return { field, problem: error.message ?? 'is invalid' };
  }
}

/**
 * The first way `value` breaks the JSON Schema (draft-07) `schema`, or its definition `definition`
 * (`#/definitions/<definition>`, which needs the schema's `$id`), or null when it follows it. Each
 * schema is compiled once, on first use.
 * @throws Error when the schema itself is invalid or has no such definition (a bug in the schema, not in the value).
 */
export function jsonSchemaFieldProblem(schema: object, value: unknown, definition?: string): JsonFieldProblem | null {
  const validate = validatorOf(schema, definition);
  if (validate(value)) return null;
  // A oneOf error is reported after its branches' errors: the first is the most specific one.
  return describeJsonSchemaError(validate.errors![0]!);
}

/** A problem as one phrase, `rows[3].wallMs is negative (-1)`, naming the document `document` when the field is the document itself. */
export function jsonFieldProblemText(problem: JsonFieldProblem, document: string): string {
  return `${problem.field === '' ? document : problem.field} ${problem.problem}`;
}
