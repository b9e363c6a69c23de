import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_TYPES_COMMAND, renderApiArtifacts } from './api-artifacts';

/**
 * The checked-in OpenAPI document and the console's API types are what the route schemas generate
 * today. A schema change without `npm run api:types` fails here; with it, a change that breaks the
 * console fails the console's typecheck.
 */
describe('generated API artifacts', () => {
  it('are checked in up to date with the route schemas', async () => {
    for (const artifact of await renderApiArtifacts()) {
      const current = await readFile(artifact.path, 'utf8').catch(() => '');
      expect(current === artifact.text, `${artifact.path} is out of date: run \`${API_TYPES_COMMAND}\``).toBe(
        true,
      );
    }
  }, 60_000);

  it('type the console from the document: the trade body carries the schema rules as types', async () => {
    const types = (await renderApiArtifacts())[1]!.text;
    expect(types).toContain('duration: 60 | 120 | 180 | 240 | 300 | 900 | 1800 | 2700 | 3600;');
    expect(types).toMatch(/'\/api\/auth\/refresh': \{/);
    expect(types).toMatch(
      /RefreshTokenBody: \{\s+\/\*\* @description The refresh token \*\/\s+refresh_token: string;/,
    );
  }, 60_000);
});
