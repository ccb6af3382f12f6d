/**
 * Building blocks of kreplay's JSON Schemas (draft-07), shared by every document schema: bench
 * reports, profiles, the JSON of replay and calibrate. Properties a schema does not name are
 * allowed, so that a document stays readable when a later version adds one.
 */

/** The `$id` of a kreplay document schema: `urn:kreplay:schema:<name>:<version>`. */
export function kreplaySchemaId<Name extends string, Version extends number>(name: Name, version: Version): `urn:kreplay:schema:${Name}:${Version}` {
  return `urn:kreplay:schema:${name}:${version}`;
}

/** A reference to one of the schema's `definitions`. */
export const ref = (name: string) => ({ $ref: `#/definitions/${name}` });

/** An object whose `properties` are all required but those named in `optional`. */
export const objectOf = (properties: Record<string, unknown>, optional: readonly string[] = []) => ({
  type: 'object',
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties,
});

/** `type` or null; `extra` (bounds, properties) applies to the non-null value. */
export const nullable = (type: 'number' | 'integer' | 'string' | 'object' | 'boolean', extra: Record<string, unknown> = {}) => ({ ...extra, type: [type, 'null'] });

/** An array whose items follow `items`. */
export const arrayOf = (items: unknown) => ({ type: 'array', items });
/** Any string. */
export const string = { type: 'string' };
/** true or false. */
export const boolean = { type: 'boolean' };

/** The `definitions` the parts below refer to: `amount` and `count`. */
export const amountDefinitions = {
  amount: { type: 'number', minimum: 0 },
  count: { type: 'integer', minimum: 0 },
};

/** A non-negative number: bytes (means may be fractional), times, rates. */
export const amount = ref('amount');
/** A non-negative whole number: counts, indices, exact byte sizes. */
export const count = ref('count');
/** A whole number of at least 1: passes, streams. */
export const positiveCount = { type: 'integer', minimum: 1 };
/** A number from 0 to 1. */
export const fraction = { type: 'number', minimum: 0, maximum: 1 };
/** A ratio or rate that JSON turns to null when it was not finite (a division by zero). */
export const optionalAmount = nullable('number', { minimum: 0 });

/**
 * The JSON Schema (draft-07) of a kreplay document that names its schema as `schema` (the `$id`)
 * and `schemaVersion`, as every document but the bench report does: those two fields, then
 * `properties`, all required but `optional`.
 */
export function kreplayDocumentSchema<Properties extends Record<string, unknown>>(document: {
  readonly id: string;
  readonly version: number;
  readonly title: string;
  readonly description: string;
  readonly properties: Properties;
  readonly optional?: readonly string[];
}) {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: document.id,
    title: document.title,
    description: document.description,
    definitions: amountDefinitions,
    ...objectOf(
      {
        schema: { const: document.id, description: `The schema this document follows: ${document.id}` },
        schemaVersion: { const: document.version },
        ...document.properties,
      },
      document.optional,
    ),
  } as const;
}
