/**
 * fast-check arbitraries over the JSON Schema subset the API's TypeBox schemas use, hostile
 * mutations of valid values, and whole HTTP requests built from them. The security fuzzer sends
 * them to the running platform; the gateway's document tests compare the OpenAPI document's
 * verdict on them with the server's. Test code only: nothing in a service imports this.
 */
export { arbitraryFromSchema, HOSTILE_STRINGS, type FieldHints, type JsonSchema } from './schema-arbitrary';
export { hostileValue, HOSTILE_NUMBERS, mutateObject, RawJson, toJsonText, WRONG_TYPES } from './mutations';
export { requestArbitrary, summarize, type FuzzRequest, type FuzzTarget } from './request-arbitrary';
