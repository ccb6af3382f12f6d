import { describe, expect, it } from 'vitest';
import { jsonFieldProblemText, jsonSchemaFieldProblem } from './json-schema-problem.js';

const schema = {
  $id: 'urn:kreplay:schema:json-schema-problem-test',
  type: 'object',
  required: ['rows'],
  properties: {
    rows: { type: 'array', items: { $ref: '#/definitions/row' } },
    name: { type: ['string', 'null'] },
    kind: { enum: ['a', 'b'] },
    version: { const: 2 },
    hash: { type: 'string', pattern: '^[0-9a-f]+$' },
    grid: { type: 'array', minItems: 3 },
  },
  definitions: {
    row: {
      type: 'object',
      required: ['wallMs'],
      properties: { wallMs: { type: 'number', minimum: 0 }, passes: { type: 'integer', minimum: 1, maximum: 64 } },
    },
  },
};

const problemOf = (value: unknown) => jsonSchemaFieldProblem(schema, value);

describe('the JSON Schema problem formatter', () => {
  it('names the field by its path and says what is wrong with its value', () => {
    expect(problemOf({ rows: [] })).toBeNull();
    expect(problemOf({})).toEqual({ field: 'rows', problem: 'is missing' });
    expect(problemOf({ rows: [{}] })).toEqual({ field: 'rows[0].wallMs', problem: 'is missing' });
    expect(problemOf({ rows: [{ wallMs: -1 }] })).toEqual({ field: 'rows[0].wallMs', problem: 'is negative (-1)' });
    expect(problemOf({ rows: [{ wallMs: 1, passes: 0 }] })).toEqual({ field: 'rows[0].passes', problem: 'is 0, below 1' });
    expect(problemOf({ rows: [{ wallMs: 1, passes: 65 }] })).toEqual({ field: 'rows[0].passes', problem: 'is 65, above 64' });
    expect(problemOf({ rows: 5 })).toEqual({ field: 'rows', problem: 'is 5, not array' });
    expect(problemOf({ rows: [], name: 5 })).toEqual({ field: 'name', problem: 'is 5, not string or null' });
    expect(problemOf({ rows: [], kind: 'c' })).toEqual({ field: 'kind', problem: 'is "c", not one of "a", "b"' });
    expect(problemOf({ rows: [], version: 1 })).toEqual({ field: 'version', problem: 'is 1, not 2' });
    expect(problemOf({ rows: [], hash: 'xyz' })).toEqual({ field: 'hash', problem: 'is "xyz", which does not match ^[0-9a-f]+$' });
    expect(problemOf({ rows: [], grid: [1, 1] })).toEqual({ field: 'grid', problem: 'must NOT have fewer than 3 items' });
  });

  it('cuts a long value short', () => {
    expect(problemOf({ rows: [], kind: 'k'.repeat(100) })!.problem).toBe(`is "${'k'.repeat(47)}..., not one of "a", "b"`);
  });

  it('checks a definition of the schema, addressed through its $id', () => {
    expect(jsonSchemaFieldProblem(schema, { wallMs: 2 }, 'row')).toBeNull();
    expect(jsonSchemaFieldProblem(schema, { wallMs: 'x' }, 'row')).toEqual({ field: 'wallMs', problem: 'is "x", not number' });
    expect(() => jsonSchemaFieldProblem(schema, {}, 'column')).toThrow(/has no definition column/);
    expect(() => jsonSchemaFieldProblem({ type: 'object' }, {}, 'row')).toThrow(/without \$id/);
  });

  it('names the document itself when the problem is with the whole value', () => {
    const problem = problemOf(7)!;
    expect(problem).toEqual({ field: '', problem: 'is 7, not object' });
    expect(jsonFieldProblemText(problem, 'the report')).toBe('the report is 7, not object');
    expect(jsonFieldProblemText({ field: 'rows[0].wallMs', problem: 'is missing' }, 'the report')).toBe('rows[0].wallMs is missing');
  });
});
