import { describe, expect, it } from 'vitest';
import { ProfileReportError } from '../profile/profile-report-error.js';
import { exampleProfile } from '../test-support/example-profiles.js';
import { syntheticReport } from '../test-support/synthetic-report.js';
import { BenchReportError } from './bench-report-error.js';
import { parseReportDocument } from './report-document.js';

describe('parseReportDocument', () => {
  it('tells a bench report from a profile by its schema', () => {
    expect(parseReportDocument(JSON.stringify(syntheticReport()), 'r.json').kind).toBe('bench');
    expect(parseReportDocument(JSON.stringify(exampleProfile()), 'p.json').kind).toBe('profile');
  });

  it('refuses other JSON, saying what it expected', () => {
    const refusal = () => parseReportDocument(JSON.stringify({ name: 'package' }), 'package.json');
    expect(refusal).toThrow(BenchReportError);
    expect(refusal).toThrow(
      '[bench] [report] package.json: is neither a kreplay bench report nor a kreplay profile (no schema field). Pass a kreplay bench report (schema "kreplay-bench-report", kreplay bench --out) or a kreplay profile (schema "urn:kreplay:schema:profile-report:1", kreplay profile --json).',
    );
    expect(() => parseReportDocument('[1, 2', 'x.json')).toThrow(/x\.json: is not JSON/);
  });

  it('checks each kind against its own schema', () => {
    expect(() => parseReportDocument(JSON.stringify({ ...exampleProfile(), passes: -1 }), 'p.json')).toThrow(ProfileReportError);
    expect(() => parseReportDocument(JSON.stringify({ ...syntheticReport(), durationSeconds: -1 }), 'r.json')).toThrow(/is a malformed bench report: durationSeconds is negative/);
  });
});
