import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';
import { buildApiDocument } from './api-document';

/**
 * The checked-in files generated from the OpenAPI document: the document itself
 * (`schemas/openapi.json`, for anyone generating a client without running the server) and the
 * API's types (`schemas/src/openapi/api-types.ts`, by openapi-typescript), which the console and
 * the test suites' client (`@updown/api-client`) both type their calls with. `npm run api:types`
 * writes them; `api-artifacts.test.ts` regenerates them in memory and fails when the checked-in
 * ones differ, so a schema change reaches the console's typecheck.
 */
export const OPENAPI_PATH = fileURLToPath(new URL('../../../../schemas/openapi.json', import.meta.url));
export const API_TYPES_PATH = fileURLToPath(
  new URL('../../../../schemas/src/openapi/api-types.ts', import.meta.url),
);
export const API_TYPES_COMMAND = 'npm run api:types';

const TYPES_BANNER = `/**
 * Generated from the OpenAPI document (schemas/openapi.json) by openapi-typescript.
 * Do not edit: change the route schemas and run \`${API_TYPES_COMMAND}\`.
 */
`;

export interface ApiArtifact {
  readonly path: string;
  readonly text: string;
}

/** Formatted as the repository's Prettier settings say, so `npm run format` leaves the files alone. */
async function formatted(path: string, text: string): Promise<string> {
  const options = await prettier.resolveConfig(path);
  return prettier.format(text, { ...options, filepath: path });
}

export async function renderApiArtifacts(): Promise<readonly ApiArtifact[]> {
  const doc = await buildApiDocument();
  const types = astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
  return [
    { path: OPENAPI_PATH, text: await formatted(OPENAPI_PATH, JSON.stringify(doc)) },
    { path: API_TYPES_PATH, text: await formatted(API_TYPES_PATH, TYPES_BANNER + types) },
  ];
}
