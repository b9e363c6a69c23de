import type { components, paths } from './api-types';

/**
 * Types of the API, read from the generated `api-types.ts` (openapi-typescript over the server's
 * OpenAPI document; `npm run api:types`). The console's API functions and the test suites' client
 * take their paths, bodies and answers from here, so a schema change on the server that breaks
 * either fails its typecheck.
 */

export type { components, paths };
export { urlOf } from './url';

/** The named schemas of the document: `Schemas['Trade']`, `Schemas['Wallet']`, ... */
export type Schemas = components['schemas'];

export type ApiPath = keyof paths;
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths that have an operation for `M`. */
export type PathWith<M extends HttpMethod> = {
  [P in ApiPath]-?: paths[P] extends Record<M, object> ? P : never;
}[ApiPath];

type Operation<P extends ApiPath, M extends HttpMethod> = paths[P] extends Record<M, infer O> ? O : never;

type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON answer of a successful call (200, else 201). */
export type ResponseOf<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { responses: infer R }
    ? R extends { 200: infer OK }
      ? JsonContent<OK>
      : R extends { 201: infer Created }
        ? JsonContent<Created>
        : never
    : never;

/** The JSON request body; `never` for an operation without one. */
export type BodyOf<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;

/** Query parameters (`never` when the operation has none). */
export type QueryOf<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? Q : never;

/** Path parameters, by name (`{symbol}` in the path template). */
export type ParamsOf<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { parameters: { path?: infer X } } ? X : never;
