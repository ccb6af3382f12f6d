import { jsonFieldProblemText, jsonSchemaFieldProblem } from '@kreplay/native';

/**
 * The first way `value` breaks the JSON Schema `schema` (draft-07), naming the field by its path
 * (`rows[3].summary.meanDispatchMs is negative (-1)`, `dispatches[0].passes is missing`), or null
 * when it follows it. Every kreplay document schema (bench reports, profiles, the JSON of replay
 * and calibrate) is checked through this one function; each schema is compiled once. The fields
 * and values are named by @kreplay/native's formatter, as capture folders are.
 * @throws Error when `schema` itself is not a valid JSON Schema (a bug in the schema, not in the value).
 */
export function jsonSchemaProblem(schema: object, value: unknown): string | null {
  const problem = jsonSchemaFieldProblem(schema, value);
  return problem === null ? null : jsonFieldProblemText(problem, 'the report');
}
