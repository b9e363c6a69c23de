/**
 * The API's types, generated from the server's OpenAPI document into `@updown/schemas/openapi`
 * (`npm run api:types`): the console's API functions take their bodies and answers from here, so a
 * schema change on the server that breaks the console fails its typecheck.
 */
export type {
  ApiPath,
  BodyOf,
  HttpMethod,
  ParamsOf,
  PathWith,
  QueryOf,
  ResponseOf,
  Schemas,
} from '@updown/schemas/openapi';
